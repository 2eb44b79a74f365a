package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
)

// TestReadme keeps the README true: its example spec is planned, and every
// row of the plan it shows must be a row of the real plan (the README
// leaves out the cost column).
func TestReadme(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	spec := block(t, readme, "```yaml\nversion: 1")
	shown := block(t, readme, "```\n  PATTERN")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/spec.yaml", []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"plan", dir + "/spec.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var real []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		real = append(real, strings.Join(strings.Fields(line), " "))
	}
	// The generated method the README shows is the generated one.
	files, diags := generator.Generate("spec.yaml", "spec.yaml", []byte(spec))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	method := block(t, readme, "```go\n// ReviewsForBook")
	var patterns string
	for _, f := range files {
		if f.Name == "patterns.go" {
			patterns = string(f.Data)
		}
	}
	if !strings.Contains(patterns, method) {
		t.Errorf("the README shows a method dyngen does not generate:\n%s", method)
	}
	for _, line := range strings.Split(strings.TrimSpace(shown), "\n") {
		want := strings.Join(strings.Fields(line), " ")
		found := false
		for _, r := range real {
			if strings.HasPrefix(r, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("the README shows a plan row dyngen does not print:\n%s\nreal plan:\n%s", line, stdout.String())
		}
	}
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
