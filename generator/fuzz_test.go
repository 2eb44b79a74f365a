package generator

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dyngen/dyngen/internal/golang"
	"github.com/dyngen/dyngen/internal/report"
)

// seedSpecs returns every spec of the project: the examples, the
// parser's test specs, the specs of the command's txtar cases and those
// of TestHostileSpecs.
func seedSpecs() ([][]byte, error) {
	var specs [][]byte
	for _, pattern := range []string{"../example/*/*.yaml", "../spec/testdata/*/*.yaml", "../internal/e2e/stream/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			specs = append(specs, data)
		}
	}
	cases, _ := filepath.Glob("../cmd/dyngen/testdata/*/*.txtar")
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			return nil, err
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".yaml") {
				specs = append(specs, file.Data)
			}
		}
	}
	names, hostile, err := hostileSpecs()
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		specs = append(specs, hostile[name])
	}
	return specs, nil
}

// checkTimeout bounds one run of the pipeline while fuzzing, to keep an
// input that makes it hang: a real spec takes milliseconds, so the bound
// holds with all the fuzzing workers on a loaded machine. Not a measure:
// the seed inputs of go test are not timed (go test's -timeout ends a
// hang there).
const checkTimeout = time.Minute

// fuzzing reports whether the test binary fuzzes (go test -fuzz), rather
// than running the seed inputs.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// FuzzCheck runs the whole pipeline (parse, resolve, plan, report, and
// emission for a sound spec) on arbitrary input: no panic, a report for
// every plan, every diagnostic positioned in the file, and for a sound
// spec a package that compiles (see outputProblems).
func FuzzCheck(f *testing.F) {
	specs, err := seedSpecs()
	if err != nil {
		f.Fatal(err)
	}
	for _, spec := range specs {
		f.Add(spec)
	}
	// The packages generated code imports are read here, once per
	// process, rather than in the first input's time.
	if _, err := sharedImporter(); err != nil {
		f.Fatal(err)
	}
	if _, err := platforms(); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// No input may make the pipeline hang: while fuzzing, a run that
		// takes a minute fails, and the fuzzer keeps the input.
		done := make(chan *Result, 1)
		var problems []error
		go func() {
			res := Check("spec.yaml", data)
			problems = outputProblems(res)
			done <- res
		}()
		var res *Result
		if fuzzing() {
			select {
			case res = <-done:
			case <-time.After(checkTimeout):
				t.Fatalf("Check took more than %v", checkTimeout)
			}
		} else {
			res = <-done
		}
		for _, err := range problems {
			t.Error(err)
		}
		if res.Plan != nil {
			if err := report.New("spec.yaml", res.Plan, res.Diags).WriteText(io.Discard); err != nil {
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

// BenchmarkFuzzCheck measures what FuzzCheck does with the project's
// specs, without and with the checks of the generated package. After the
// first round, the files are known gofmt-clean (see memo), as most files
// are in a fuzzing run.
func BenchmarkFuzzCheck(b *testing.B) {
	specs, err := seedSpecs()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := sharedImporter(); err != nil {
		b.Fatal(err)
	}
	b.Run("emit", func(b *testing.B) {
		for b.Loop() {
			for _, spec := range specs {
				if res := Check("spec.yaml", spec); res.Plan != nil && !res.Diags.HasErrors() {
					golang.Package(res.Plan, "spec.yaml")
				}
			}
		}
		b.ReportMetric(float64(b.N*len(specs))/b.Elapsed().Seconds(), "specs/s")
	})
	b.Run("emit+compile", func(b *testing.B) {
		for b.Loop() {
			for _, spec := range specs {
				outputProblems(Check("spec.yaml", spec))
			}
		}
		b.ReportMetric(float64(b.N*len(specs))/b.Elapsed().Seconds(), "specs/s")
	})
}

// namesSpec is the spec FuzzNames fills in: each $name is replaced by a
// YAML string, so that every name and doc plays every role it can (type,
// field, parameter, file, expression name, comment).
const namesSpec = `version: 1
package: $pkg
doc: $doc
tables:
  $table:
    doc: $doc
    partitionKey: PK
    sortKey: SK
    indexes:
      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK, doc: $doc}
entities:
  $entity:
    doc: $doc
    attributes:
      $a: {type: string, doc: $doc}
      $b: {type: int, doc: $doc}
      $c: {type: enum, values: [$value, other], optional: true, doc: $doc}
      $d: {type: string, attr: $stored, optional: true, doc: $doc}
    keys:
      primary: {pk: $pkA, sk: $skB}
      GSI1: {pk: $gsiC, sk: $skA}
  $entity2:
    table: $table
    attributes: {ident2: string, $a: {type: int, optional: true}}
    keys:
      primary: {pk: "F#{ident2}", sk: "F"}
patterns:
  $pattern: {get: $entity, doc: $doc}
  $patternList: {query: $entity, by: [$a], where: {$b: between}, filter: {$d: "="}, doc: $doc}
  $patternByC: {query: $entity, by: [$c], where: {$a: beginsWith}, select: [$d]}
  $patternSet: {update: $entity, set: [$d, $c], when: {$d: exists, $c: {"=": $value}}}
  $patternPut: {put: $entity, when: {$b: "<"}}
  $patternDel: {delete: $entity, when: {$c: "<>"}}
  $patternBatch: {batchGet: $entity}
  $patternAdd: {update: $entity2, add: [$a], when: {$a: between}}
`

// namesSpecFor fills namesSpec in.
func namesSpecFor(pkg, table, entity, entity2, a, b, c, d, stored, pattern, doc, value string) []byte {
	q := func(s string) string {
		data, _ := json.Marshal(s) // a JSON string is a YAML double-quoted one
		return string(data)
	}
	return []byte(strings.NewReplacer(
		"$pkg", q(pkg), "$doc", q(doc), "$table", q(table), "$entity2", q(entity2), "$entity", q(entity),
		"$a", q(a), "$b", q(b), "$c", q(c), "$d", q(d), "$stored", q(stored), "$value", q(value),
		"$pkA", q("E#{"+a+"}"), "$skB", q("N#{"+b+"}"), "$gsiC", q("V#{"+c+"}"), "$skA", q("E#{"+a+"}"),
		"$patternList", q(pattern+"List"), "$patternByC", q(pattern+"ByC"), "$patternSet", q(pattern+"Set"),
		"$patternPut", q(pattern+"Put"), "$patternDel", q(pattern+"Del"), "$patternBatch", q(pattern+"Batch"),
		"$patternAdd", q(pattern+"Add"), "$pattern", q(pattern),
	).Replace(namesSpec))
}

// FuzzNames runs the checks of FuzzCheck on a spec whose names, docs and
// enum values the fuzzer chooses: the raw bytes of FuzzCheck rarely
// give a sound spec with new names, this target always does when the
// names are valid.
func FuzzNames(f *testing.F) {
	f.Add("shop", "Main", "Order", "Invoice", "id", "seq", "state", "note", "note", "GetOrder", "An order.", "open")
	f.Add("p", "Main-Table", "A", "B2", "x", "y", "z", "w", "W", "P", "A doc; of two sentences.", "a b")
	f.Add("hostile", "tbl.v1", "Thing", "Things", "ctx", "page", "kind", "item", "Item", "Get", "// doc", `q"uote`)
	if _, err := sharedImporter(); err != nil {
		f.Fatal(err)
	}
	if _, err := platforms(); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pkg, table, entity, entity2, a, b, c, d, stored, pattern, doc, value string) {
		spec := namesSpecFor(pkg, table, entity, entity2, a, b, c, d, stored, pattern, doc, value)
		res := Check("spec.yaml", spec)
		problems := outputProblems(res)
		if len(problems) > 0 {
			t.Errorf("spec:\n%s", spec)
		}
		for _, err := range problems {
			t.Error(err)
		}
	})
}
