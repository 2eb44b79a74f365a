//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dyngen/dyngen/generator"
)

// runPromptly runs the command; it crashes the test binary when the heap
// passes 1 GB, so that a command reading /dev/zero does not take the
// machine's memory.
func runPromptly(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		done <- result{code, stdout.String(), stderr.String()}
	}()
	// The heap is looked at every 10 ms; a command that blocks (reading a
	// named pipe) is ended by go test's -timeout, whose stack shows it.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			return r.code, r.stdout, r.stderr
		case <-tick.C:
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > 1<<30 {
				panic(fmt.Sprintf("dyngen %q holds %d MB", args, m.HeapAlloc>>20))
			}
		}
	}
}

// TestNonRegularGoFiles puts a *.go file that is not a regular file in
// the output directory: a named pipe, a link to /dev/zero, a link to a
// file that reads as generated from the spec, a directory. dyngen never
// reads nor writes through them: beside the generated files they are left
// alone, generation and -check succeed; where a generated file goes they
// are refused by name, and nothing is written.
func TestNonRegularGoFiles(t *testing.T) {
	kinds := []struct {
		name string
		make func(path string) error
		kind string
	}{
		{"fifo", func(path string) error { return syscall.Mkfifo(path, 0o644) }, "a named pipe"},
		{"link to /dev/zero", func(path string) error { return os.Symlink("/dev/zero", path) }, "a symbolic link"},
		{"link to a generated file", func(path string) error { return os.Symlink("../generated.go", path) }, "a symbolic link"},
		{"directory", func(path string) error { return os.Mkdir(path, 0o755) }, "a directory"},
	}
	for _, k := range kinds {
		for _, place := range []string{"beside", "in place"} {
			t.Run(k.name+" "+place, func(t *testing.T) {
				dir := t.TempDir()
				t.Chdir(dir)
				if err := os.WriteFile("spec.yaml", []byte(smallSpec), 0o644); err != nil {
					t.Fatal(err)
				}
				// What a link may point to: a file with the header and
				// this spec's source line, which dyngen would remove
				// were it a file of the directory.
				generated := generator.Header + "\n// source: ../spec.yaml\n\npackage notes\n"
				if err := os.WriteFile("generated.go", []byte(generated), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir("out", 0o755); err != nil {
					t.Fatal(err)
				}
				name := "extra.go"
				if place == "in place" {
					name = "note.go"
				}
				if err := k.make(filepath.Join("out", name)); err != nil {
					t.Fatal(err)
				}
				before := snapshot(t, ".")
				code, stdout, stderr := runPromptly(t, "spec.yaml", "-o", "out")
				if place == "beside" {
					if code != 0 {
						t.Fatalf("generate: exit %d: %s", code, stderr)
					}
					after := snapshot(t, ".")
					for _, path := range []string{filepath.Join("out", name), "generated.go"} {
						if after[path] != before[path] {
							t.Errorf("%s was changed: %q, was %q", path, after[path], before[path])
						}
					}
					if _, err := os.Stat(filepath.Join("out", "store.go")); err != nil {
						t.Errorf("the package was not written: %v", err)
					}
					if code, stdout, stderr := runPromptly(t, "-check", "spec.yaml", "-o", "out"); code != 0 || stdout != "" {
						t.Errorf("-check: exit %d\n%s%s", code, stdout, stderr)
					}
					return
				}
				want := fmt.Sprintf("out/note.go exists and is not a regular file (%s)", k.kind)
				if code != 1 || !strings.Contains(stderr, want) {
					t.Errorf("generate: exit %d, want 1 and %q:\n%s", code, want, stderr)
				}
				if d := sameTree(before, snapshot(t, ".")); d != "" {
					t.Errorf("a refused generation changed files:\n%s", d)
				}
				code, stdout, stderr = runPromptly(t, "-check", "spec.yaml", "-o", "out")
				if code != 1 || !strings.Contains(stderr, want) {
					t.Errorf("-check: exit %d, want 1 and %q:\n%s%s", code, want, stdout, stderr)
				}
			})
		}
	}
}
