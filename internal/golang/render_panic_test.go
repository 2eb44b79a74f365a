package golang

import (
	"sync"
	"testing"

	"github.com/dave/jennifer/jen"
)

// TestRenderJobsPanic: a file whose building panics is an error of its
// own, and the other files are still rendered and handed over.
func TestRenderJobsPanic(t *testing.T) {
	ok := func() *jen.File {
		f := jen.NewFile("p")
		f.Var().Id("x").Op("=").Lit(1)
		return f
	}
	jobs := []job{
		{name: "a.go", index: 0, build: ok},
		{name: "b.go", index: 1, build: func() *jen.File { panic("emitter bug") }},
		{name: "c.go", index: 2, build: ok},
	}
	var mu sync.Mutex
	got := map[int]string{}
	errs := renderJobs(jobs, func(i int, f File) {
		mu.Lock()
		defer mu.Unlock()
		got[i] = f.Name
	})
	if errs[1] == nil || errs[0] != nil || errs[2] != nil {
		t.Errorf("errors %v: want one, of b.go", errs)
	}
	if len(got) != 2 || got[0] != "a.go" || got[2] != "c.go" {
		t.Errorf("handed over %v: want a.go and c.go", got)
	}
}
