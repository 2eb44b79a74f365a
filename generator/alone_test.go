package generator

import (
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestEachPatternAlone generates, for every pattern of every spec of the
// corpus, the spec with that pattern alone, and type-checks the package:
// what a method needs (a Client method, a runtime name, a key builder)
// must come with it, not with the other patterns of the spec. A spec
// that is not whole without the other patterns (a pattern that names
// another) is left out.
func TestEachPatternAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks a package per pattern of the corpus")
	}
	checked := 0
	for name, data := range corpusSpecs(t) {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		root := doc.Content[0]
		var patterns *yaml.Node
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "patterns" {
				patterns = root.Content[i+1]
			}
		}
		if patterns == nil {
			continue
		}
		all := slices.Clone(patterns.Content)
		for i := 0; i+1 < len(all); i += 2 {
			patterns.Content = all[i : i+2]
			one, err := yaml.Marshal(&doc)
			if err != nil {
				t.Fatal(err)
			}
			files, diags := Generate("spec.yaml", "spec.yaml", one)
			if diags.HasErrors() {
				continue
			}
			checked++
			code := slices.DeleteFunc(files, func(f File) bool { return !strings.HasSuffix(f.Name, ".go") })
			for _, err := range packageProblems(code) {
				t.Errorf("%s, pattern %s alone: %v", name, all[i].Value, err)
			}
		}
		patterns.Content = all
	}
	if checked < 100 {
		t.Errorf("only %d patterns were checked alone", checked)
	}
}
