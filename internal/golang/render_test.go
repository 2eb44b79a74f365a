package golang

import (
	"bytes"
	"go/format"
	"testing"

	dynrt "github.com/dyngen/dyngen/generator/runtime"
)

// TestRenderIsGofmt: render, which formats jennifer's unformatted code
// with its imports grouped, gives what gofmt gives of jennifer's own
// formatted code with the imports grouped, for every file of every
// example, the integration spec and the golden cases; and what it gives
// is gofmt's fixed point.
func TestRenderIsGofmt(t *testing.T) {
	checked := 0
	for name, data := range corpusSpecs(t) {
		e := newEmitter(planOf(t, name, data), name, dynrt.GenVersion)
		for _, j := range e.jobs() {
			got, err := render(j.build())
			if err != nil {
				t.Fatalf("%s: %s: %v", name, j.name, err)
			}
			var own bytes.Buffer
			if err := j.build().Render(&own); err != nil {
				t.Fatalf("%s: %s: %v", name, j.name, err)
			}
			want, err := format.Source(groupImports(own.Bytes()))
			if err != nil {
				t.Fatalf("%s: %s: %v", name, j.name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: %s: render differs from gofmt of jennifer's formatted code", name, j.name)
			}
			if again, err := format.Source(got); err != nil || !bytes.Equal(again, got) {
				t.Errorf("%s: %s: gofmt changes what render gives (%v)", name, j.name, err)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d files checked", checked)
	}
}
