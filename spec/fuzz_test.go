package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the parser: it must never panic, and
// every diagnostic must carry the file name and a position in the file.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/valid/*.yaml", "testdata/schema-invalid/*.yaml", "../example/*/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte("a: &a [*a, *a]\nb: *a\n"))
	f.Add([]byte("version: 1\n---\nversion: 2\n"))
	f.Add([]byte("# a\u0085b\u2028c\u2029\r\nd\x00\xff\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, diags := Parse("spec.yaml", data)
		// YAML breaks lines at \n, \r\n, a lone \r, NEL, LS and PS.
		breaks := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n")
		lines := strings.Count(breaks.Replace(string(data)), "\n") + 2
		for _, d := range diags.Sorted() {
			if d.Pos.File != "spec.yaml" {
				t.Errorf("diagnostic without the file name: %v", d)
			}
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 {
				t.Errorf("diagnostic outside the file (%d lines): %v", lines, d)
			}
			if d.Message == "" {
				t.Errorf("diagnostic without a message at %v", d.Pos)
			}
		}
	})
}
