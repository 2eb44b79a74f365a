package generator

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// seeds adds every spec of the project to the fuzz corpus: the examples,
// the parser's test specs and the specs of the command's txtar cases.
func seeds(f *testing.F) {
	for _, pattern := range []string{"../example/*/*.yaml", "../spec/testdata/*/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	cases, _ := filepath.Glob("../cmd/dyngen/testdata/*/*.txtar")
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".yaml") {
				f.Add(file.Data)
			}
		}
	}
}

// checkTimeout bounds one run of the pipeline in FuzzCheck; a real spec
// takes milliseconds.
const checkTimeout = 10 * time.Second

// FuzzCheck runs the whole pipeline (parse, resolve, plan, report, and
// emission for a sound spec) on
// arbitrary input: no panic, a report for every plan, and every
// diagnostic positioned in the file.
func FuzzCheck(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// No input may make the pipeline hang: a run that takes seconds
		// fails, and the fuzzer keeps the input.
		done := make(chan *Result, 1)
		go func() {
			res := Check("spec.yaml", data)
			if res.Plan != nil && !res.Diags.HasErrors() {
				// A sound spec is generated too: emission must not fail.
				if _, err := emit(res.Plan, "spec.yaml"); err != nil {
					t.Errorf("emitting a sound spec failed: %v", err)
				}
			}
			done <- res
		}()
		var res *Result
		select {
		case res = <-done:
		case <-time.After(checkTimeout):
			t.Fatalf("Check took more than %v", checkTimeout)
		}
		if res.Plan != nil {
			if err := res.Plan.Report(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
		// YAML breaks lines at \n, \r\n and a lone \r.
		lines := strings.Count(strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n"), "\n") + 2
		for _, d := range res.Diags.Sorted() {
			if d.Pos.File != "spec.yaml" || d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 {
				t.Errorf("diagnostic badly positioned: %v", d)
			}
		}
	})
}
