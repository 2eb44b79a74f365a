package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/internal/report"
	"golang.org/x/tools/txtar"
)

// exampleSpecs are the specs of the examples and of the integration
// tests.
func exampleSpecs(t *testing.T) []string {
	t.Helper()
	specs, err := filepath.Glob("../../example/*/spec.yaml")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no example specs: %v", err)
	}
	return append(specs, "../../internal/e2e/spec.yaml")
}

// TestPlanJSONGolden keeps the JSON document of one example: a change of
// its shape shows in review (go test ./cmd/dyngen -update rewrites it).
func TestPlanJSONGolden(t *testing.T) {
	t.Chdir("../../example/bookreviews")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"plan", "-json", "spec.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	golden := "../../cmd/dyngen/testdata/bookreviews.plan.json"
	if *update {
		if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if stdout.String() != string(want) {
		t.Errorf("plan -json differs from %s (run with -update to accept):\n%s", golden, stdout.String())
	}
}

// TestPlanJSON decodes the document of every example into report.Report,
// refusing unknown fields, and checks it against the plan: every pattern
// is there, in spec order, with the call, index, key and the very
// request strings and placeholders the plan holds, and the parameters
// the plan names; every diagnostic is there.
func TestPlanJSON(t *testing.T) {
	for _, spec := range exampleSpecs(t) {
		t.Run(filepath.Base(filepath.Dir(spec)), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"plan", "-json", spec}, &stdout, &stderr)
			data, err := os.ReadFile(spec)
			if err != nil {
				t.Fatal(err)
			}
			res := generator.Check(spec, data)
			if want := map[bool]int{false: exitOK, true: exitSpec}[res.Diags.HasErrors()]; code != want {
				t.Fatalf("exit %d, want %d: %s", code, want, stderr.String())
			}
			dec := json.NewDecoder(&stdout)
			dec.DisallowUnknownFields()
			var rep report.Report
			if err := dec.Decode(&rep); err != nil {
				t.Fatal(err)
			}
			if dec.More() {
				t.Error("more than one JSON value on stdout")
			}
			if rep.File != spec || rep.Package != res.Model.Package {
				t.Errorf("file %q package %q, want %q %q", rep.File, rep.Package, spec, res.Model.Package)
			}
			if len(rep.Diagnostics) != len(res.Diags.Sorted()) {
				t.Errorf("%d diagnostics, want %d", len(rep.Diagnostics), len(res.Diags.Sorted()))
			}
			for i, d := range res.Diags.Sorted() {
				if i < len(rep.Diagnostics) {
					got := rep.Diagnostics[i]
					if got.File != d.Pos.File || got.Line != d.Pos.Line || got.Col != d.Pos.Col || got.Message != d.Message {
						t.Errorf("diagnostic %d is %+v, want %v", i, got, d)
					}
				}
			}
			if len(rep.Tables) != len(res.Model.Tables) {
				t.Errorf("%d tables, want %d", len(rep.Tables), len(res.Model.Tables))
			}
			if len(rep.Patterns) != len(res.Model.Patterns) {
				t.Fatalf("%d patterns, want the spec's %d", len(rep.Patterns), len(res.Model.Patterns))
			}
			for i, pp := range res.Plan.Patterns {
				got := rep.Patterns[i]
				if got.Name != pp.Pattern.Name || got.Name != res.Model.Patterns[i].Name {
					t.Errorf("pattern %d is %s, want %s", i, got.Name, pp.Pattern.Name)
					continue
				}
				if got.Call != string(pp.Call) || got.Table != pp.Pattern.Table.Name || got.Index != pp.Index.Name {
					t.Errorf("%s: %s on %s, index %s; want %s on %s, index %s", got.Name, got.Call, got.Table, got.Index, pp.Call, pp.Pattern.Table.Name, pp.Index.Name)
				}
				key := pp.Key
				if ls := pp.Lookups(); len(ls) > 0 {
					// A get by a unique value reads the claim first.
					key = ls[0].Key
					if len(got.Requests) != len(ls) {
						t.Errorf("%s: requests %+v, want %d", got.Name, got.Requests, len(ls))
					} else {
						for j, l := range ls {
							if r := got.Requests[j]; r.Call != "GetItem" || r.Entity != l.Entity.Name || r.Key != l.Key.Describe() {
								t.Errorf("%s: request %d is %+v, want GetItem of %s by %s", got.Name, j+1, r, l.Entity.Name, l.Key.Describe())
							}
						}
					}
				} else if len(got.Requests) > 0 {
					t.Errorf("%s: requests %+v of a pattern that sends one", got.Name, got.Requests)
				}
				checkRequest(t, got.Name, got.Key, got.Request, key, pp.Request)
				if pp.Tx != nil {
					if len(got.Steps) != len(pp.Tx.Steps) {
						t.Fatalf("%s: %d steps, want %d", got.Name, len(got.Steps), len(pp.Tx.Steps))
					}
					for j, st := range pp.Tx.Steps {
						gs := got.Steps[j]
						name := fmt.Sprintf("%s step %d", got.Name, j+1)
						if gs.Step != j+1 || gs.Action != st.Action || gs.Table != st.Step.Table.Name || gs.IfAbsent != st.IfAbsent || gs.IfPresent != st.IfPresent || len(gs.Inputs) != len(st.Plan.Params) {
							t.Errorf("%s is %+v", name, gs)
						}
						checkRequest(t, name, gs.Key, gs.Request, st.Plan.Key, st.Plan.Request)
					}
					fields := len(pp.Tx.Inputs)
					for _, f := range []string{pp.Tx.Token, pp.Tx.Now} {
						if f != "" {
							fields++
						}
					}
					if pp.Unique != nil {
						// A write of an entity with unique values takes
						// the write's own parameters.
						fields = len(pp.Params)
					}
					if len(got.Params) != fields {
						t.Errorf("%s: %d params, want a field per input (%d)", got.Name, len(got.Params), fields)
					}
				} else if len(got.Params) != len(pp.Params) {
					t.Errorf("%s: %d params, want %d", got.Name, len(got.Params), len(pp.Params))
				} else {
					for j, p := range pp.Params {
						g := got.Params[j]
						if g.Name != p.Name || g.Role != p.Role.String() || g.GoType != pp.GoType(p) || g.GoType == "" {
							t.Errorf("%s: param %d is %+v, want %s %s %s", got.Name, j, g, p.Name, pp.GoType(p), p.Role)
						}
					}
				}
				if got.Cost.RCU != pp.Cost.RCU || got.Cost.WCU != pp.Cost.WCU || got.Cost.Detail != pp.Cost.Detail {
					t.Errorf("%s: cost %+v, want %+v", got.Name, got.Cost, pp.Cost)
				}
				if len(got.Members) == 0 {
					t.Errorf("%s: no members", got.Name)
				}
				// What the key condition keeps out: the rule's count and
				// the exceptions' names, the plan's KeptOut.
				var others []string
				for _, e := range pp.KeptOut.Others {
					others = append(others, e.Name)
				}
				if got.KeptOutByPrefix != pp.KeptOut.ByPrefix || !slices.Equal(got.KeptOut, others) {
					t.Errorf("%s: kept out %d by prefix and %q, want %d and %q", got.Name, got.KeptOutByPrefix, got.KeptOut, pp.KeptOut.ByPrefix, others)
				}
			}
		})
	}
}

// checkRequest checks that the report of a call (a pattern, or a step
// of a transaction) holds the key and the request strings and
// placeholders of the plan.
func checkRequest(t *testing.T, name, gotKey string, got report.Request, k *plan.KeyCond, r *plan.Request) {
	t.Helper()
	key := ""
	if k != nil {
		key = k.Describe()
	}
	update := ""
	if r.Update != nil {
		update = r.Update.Expression()
	}
	order := ""
	if r.KeyCondition != "" {
		order = map[bool]string{false: "asc", true: "desc"}[r.Descending]
	}
	if got.Order != order || got.Limit != r.Limit || got.PageLimit != r.PageLimit {
		t.Errorf("%s: order %q, limit %d, page limit %d; want %q, %d, %d", name, got.Order, got.Limit, got.PageLimit, order, r.Limit, r.PageLimit)
	}
	for _, c := range []struct{ field, got, want string }{
		{"key", gotKey, key},
		{"keyCondition", got.KeyCondition, r.KeyCondition},
		{"projection", got.Projection, r.Projection},
		{"filter", got.Filter, r.Filter},
		{"update", got.Update, update},
		{"condition", got.Condition, r.FullCondition()},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s is %q, want %q", name, c.field, c.got, c.want)
		}
	}
	if len(got.Names) != len(r.Names) {
		t.Errorf("%s: names %+v, want %+v", name, got.Names, r.Names)
	} else {
		for j, n := range r.Names {
			if got.Names[j].Placeholder != n.Placeholder || got.Names[j].Attribute != n.Stored {
				t.Errorf("%s: name %d is %+v, want %+v", name, j, got.Names[j], n)
			}
		}
	}
	var values []string
	for _, v := range r.Values {
		values = append(values, v.Placeholder)
	}
	var gotValues []string
	for _, v := range got.Values {
		gotValues = append(gotValues, v.Placeholder)
		if v.Source == "" {
			t.Errorf("%s: value %s has no source", name, v.Placeholder)
		}
	}
	if !slices.Equal(gotValues, values) {
		t.Errorf("%s: values %q, want %q", name, gotValues, values)
	}
	// The parts of the condition that hold attributes as read.
	if len(got.Held) != len(r.Held) {
		t.Errorf("%s: held %+v, want %d parts", name, got.Held, len(r.Held))
	} else {
		for j, h := range r.Held {
			if g := got.Held[j]; g.Attribute != h.Attr.Name || g.Present != h.Present || g.Absent != h.Absent || g.Value != h.Value {
				t.Errorf("%s: held part %d is %+v, want %+v", name, j, g, h)
			}
		}
	}
	// The version and timestamps a put or create writes in its item.
	var item, gotItem []string
	for _, v := range r.Item {
		item = append(item, v.Attr.Name)
	}
	for _, v := range got.Item {
		gotItem = append(gotItem, v.Attribute)
		if v.Source == "" {
			t.Errorf("%s: item value %s has no source", name, v.Attribute)
		}
	}
	if !slices.Equal(gotItem, item) {
		t.Errorf("%s: item values %q, want %q", name, gotItem, item)
	}
}

// TestPlanWidth checks that no line of the report `dyngen plan` prints is
// wider than report.Width columns, for every example and every spec
// of the txtar cases. The diagnostics, printed one per line as
// file:line:col: message for tools to parse, are not wrapped: they go to
// stderr and are not checked here.
func TestPlanWidth(t *testing.T) {
	type spec struct {
		name string
		data []byte
	}
	var specs []spec
	for _, file := range exampleSpecs(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, spec{file, data})
	}
	cases, err := filepath.Glob("testdata/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".yaml") {
				specs = append(specs, spec{file + ":" + f.Name, f.Data})
			}
		}
	}
	dir := t.TempDir()
	plans := 0
	for _, s := range specs {
		path := filepath.Join(dir, "spec.yaml")
		if err := os.WriteFile(path, s.data, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		run([]string{"plan", path}, &stdout, &stderr)
		if stdout.Len() > 0 {
			plans++
		}
		for i, line := range strings.Split(stdout.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > report.Width {
				t.Errorf("%s: line %d of the plan is %d columns wide:\n%s", s.name, i+1, n, line)
			}
		}
	}
	if plans < 50 {
		t.Errorf("only %d of %d specs gave a plan", plans, len(specs))
	}
}
