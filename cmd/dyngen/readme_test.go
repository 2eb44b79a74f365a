package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReadme keeps the README true: its example spec is planned, and the
// plan it shows is lines of the real plan, in order; the generated method
// it shows is generated.
func TestReadme(t *testing.T) {
	text := readme(t)
	specSection := section(t, text, "## A spec")
	spec := block(t, specSection, "```yaml\nversion: 1")
	shown := block(t, specSection, "```\n  PATTERN")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/spec.yaml", []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"plan", dir + "/spec.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// The generated method the README shows is the generated one.
	files, diags := generator.Generate("spec.yaml", "spec.yaml", []byte(spec))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	method := block(t, text, "```go\n// ReviewsForBook")
	var patterns string
	for _, f := range files {
		if f.Name == "patterns.go" {
			patterns = string(f.Data)
		}
	}
	if !strings.Contains(patterns, method) {
		t.Errorf("the README shows a method dyngen does not generate:\n%s", method)
	}
	real := strings.Split(stdout.String(), "\n")
	at := 0
	for _, line := range strings.Split(strings.TrimSuffix(shown, "\n"), "\n") {
		for at < len(real) && real[at] != line {
			at++
		}
		if at == len(real) {
			t.Errorf("the README shows a plan line dyngen does not print there:\n%s\nreal plan:\n%s", line, stdout.String())
			return
		}
		at++
	}
}

// TestSpecDocPlan keeps the plan excerpt of docs/spec.md true: its lines
// are consecutive lines of the plan of example/bookreviews.
func TestSpecDocPlan(t *testing.T) {
	data, err := os.ReadFile("../../docs/spec.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := block(t, string(data), "```\n  ReviewsOfBook: Query")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"plan", "../../example/bookreviews/spec.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "\n"+shown) {
		t.Errorf("docs/spec.md shows a plan dyngen does not print:\n%s\nreal plan:\n%s", shown, stdout.String())
	}
}

// TestReadmeQuickStart runs the README's install line and its quick
// start as they are written: the install line from the repository's
// root (into a directory of the test's own), then, in a directory that
// stands for the clone, every line of the quick start's shell blocks,
// in one bash, after writing the files the section names
// ("`spec.yaml`:"). The lines that start and stop DynamoDB Local with
// scripts/dynamodb-local are the only ones not run: the test uses the
// server DYNAMODB_ENDPOINT names (scripts/test starts one), and skips
// without one unless CI is set. What the program prints must be the
// output the README shows. go mod tidy fetches aws-sdk-go-v2 through the
// module proxy.
func TestReadmeQuickStart(t *testing.T) {
	endpoint := dynamotest.Endpoint(t)
	text := readme(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	install := strings.Split(strings.TrimSpace(block(t, section(t, text, "## Install"), "```sh")), "\n")[0]
	if fields := strings.Fields(install); len(fields) < 3 || strings.Join(fields[:3], " ") != "go install ./cmd/dyngen" {
		t.Fatalf("the README's first install line is %q, want go install ./cmd/dyngen", install)
	}
	env := append(os.Environ(), "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "DYNAMODB_ENDPOINT="+endpoint)
	// No deadline of its own: go test's -timeout ends a command that hangs.
	ctx := t.Context()
	bash := func(dir, script string) (string, string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s:\n%s\n%v\nstdout:\n%s\nstderr:\n%s", dir, script, err, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	bash(root, install)
	out, _ := bash(tmp, "dyngen -version")
	if !strings.Contains(out, "module github.com/dyngen/dyngen\n") {
		t.Errorf("dyngen -version printed:\n%s", out)
	}

	quick := section(t, text, "## Quick start")
	clone := filepath.Join(tmp, "dyngen") // the quick start starts in the clone
	// What the quick start reads of the clone: the module's go.mod and
	// go.sum and the runtime the generated package imports, which its
	// replace directive finds there (without its tests, whose imports
	// the rest of the clone holds).
	runtimeFiles, err := filepath.Glob(filepath.Join(root, "generator", "runtime", "*.go"))
	if err != nil || len(runtimeFiles) == 0 {
		t.Fatalf("no runtime source: %v", err)
	}
	runtimeFiles = slices.DeleteFunc(runtimeFiles, func(name string) bool { return strings.HasSuffix(name, "_test.go") })
	for _, src := range append([]string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}, runtimeFiles...) {
		rel, err := filepath.Rel(root, src)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(clone, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var script []string
	var files []string
	var skipped []string
	var output string
	for _, b := range fences(quick) {
		switch {
		case b.lang == "sh":
			for _, line := range strings.Split(strings.TrimSpace(b.body), "\n") {
				if strings.Contains(line, "scripts/dynamodb-local") {
					skipped = append(skipped, line)
					continue
				}
				script = append(script, "set -x; "+line)
			}
		case b.file != "":
			files = append(files, b.file)
			// The file goes where the commands before it have gone.
			script = append(script, "cat > "+b.file+" <<'README_EOF'\n"+b.body+"README_EOF")
		case b.lang == "" && strings.HasSuffix(b.before, "It prints:"):
			output = b.body
		}
	}
	if strings.Join(files, " ") != "spec.yaml main.go" {
		t.Errorf("the quick start writes %q, want spec.yaml and main.go", files)
	}
	if len(skipped) != 2 || !strings.Contains(skipped[0], "dynamodb-local start") || !strings.Contains(skipped[1], "dynamodb-local stop") {
		t.Errorf("the quick start should start and stop DynamoDB Local once each; it has %q", skipped)
	}
	if output == "" {
		t.Fatal("the quick start shows no output (a block after \"It prints:\")")
	}
	stdout, stderr := bash(clone, strings.Join(script, "\n"))
	if stdout != output {
		t.Errorf("the quick start printed\n%s\nthe README shows\n%s\nstderr:\n%s", stdout, output, stderr)
	}
	if _, err := os.Stat(filepath.Join(tmp, "hello", "store", "store.go")); err != nil {
		t.Errorf("the quick start generated no store: %v", err)
	}
}

// fence is a fenced block of a Markdown text: its language, its body,
// the paragraph before it and the file it shows, if any.
type fence struct {
	lang, body, before, file string
}

// fences returns the fenced blocks of text in order. A block is a file
// when the paragraph before it names one in backquotes followed by ":"
// or ",": "Write the spec, `spec.yaml`: ..." or "a program, `main.go`,".
func fences(text string) []fence {
	var out []fence
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		f := fence{lang: strings.TrimPrefix(lines[i], "```")}
		var para []string
		k := i - 1
		for k >= 0 && strings.TrimSpace(lines[k]) == "" {
			k--
		}
		for ; k >= 0 && strings.TrimSpace(lines[k]) != ""; k-- {
			para = append([]string{lines[k]}, para...)
		}
		f.before = strings.Join(para, " ")
		if a := strings.Index(f.before, "`"); a >= 0 {
			if b := strings.Index(f.before[a+1:], "`"); b > 0 {
				name := f.before[a+1 : a+1+b]
				rest := f.before[a+1+b+1:]
				if strings.Contains(name, ".") && !strings.Contains(name, " ") && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, ",")) {
					f.file = name
				}
			}
		}
		var body strings.Builder
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body.WriteString(lines[i] + "\n")
		}
		f.body = body.String()
		out = append(out, f)
	}
	return out
}

// section returns the part of a Markdown text from the heading to the
// next heading of its level or above.
func section(t *testing.T, text, heading string) string {
	t.Helper()
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("no section %q", heading)
	}
	rest := text[i+1+len(heading):]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// block returns the body of the fenced block that starts with start (the
// fence line and what follows it).
func block(t *testing.T, text, start string) string {
	t.Helper()
	i := strings.Index(text, start)
	if i < 0 {
		t.Fatalf("the README has no block starting %q", start)
	}
	body := text[i+strings.Index(text[i:], "\n")+1:]
	end := strings.Index(body, "```")
	if end < 0 {
		t.Fatalf("unterminated block %q", start)
	}
	return body[:end]
}
