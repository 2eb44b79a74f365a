package output

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/spec"
)

// planOf plans a spec that must have no error.
func planOf(t *testing.T, src string) *plan.Plan {
	t.Helper()
	f, diags := spec.Parse("spec.yaml", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	m := model.Resolve(f, diags)
	Resolve(m, f.Outputs, diags)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	p := plan.Build(m, diags)
	Check(p, diags)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	return p
}

const twoTables = `version: 1
package: notes
tables:
  Notes: {partitionKey: PK, sortKey: SK, ttl: expiresAt}
  Archive: {partitionKey: PK, sortKey: SK}
entities:
  Note:
    table: Notes
    attributes: {userId: string, noteId: string, expiresAt: {type: time, optional: true}}
    keys: {primary: {pk: "USER#{userId}", sk: "NOTE#{noteId}"}}
  Old:
    table: Archive
    attributes: {userId: string, noteId: string}
    keys: {primary: {pk: "USER#{userId}", sk: "NOTE#{noteId}"}}
patterns:
  GetNote: {get: Note}
  GetOld: {get: Old}
`

// TestRenderFilesAndManifest: the files are those the model names, in its
// order, the lock and the manifest last, listing the others; the same
// plan renders the same bytes; a spec with no outputs renders the lock
// and the list of it.
func TestRenderFilesAndManifest(t *testing.T) {
	files, err := Render(planOf(t, twoTables), NewSource("spec.yaml"))
	if err != nil || len(files) != 2 || files[0].Name != model.LockFile || files[1].Name != model.ManifestFile || !strings.Contains(string(files[1].Data), "  "+model.LockFile+"\n") {
		t.Fatalf("no outputs: %d files, %v", len(files), err)
	}
	p := planOf(t, twoTables+"outputs:\n  createTable:\n")
	files, err = Render(p, NewSource("../spec\n.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	want := []string{"Notes.create-table.json", "Notes.update-time-to-live.json", "Archive.create-table.json", model.LockFile, model.ManifestFile}
	if !slices.Equal(names, want) {
		t.Fatalf("files %q, want %q", names, want)
	}
	list := string(files[4].Data)
	wantList := "# " + model.GeneratedText + "\n# source: ../spec\\n.yaml\n#\n"
	var lines []string
	for _, f := range files[:4] {
		sum := sha256.Sum256(f.Data)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+f.Name)
	}
	if !strings.HasPrefix(list, wantList) || !strings.HasSuffix(list, "\n"+strings.Join(lines, "\n")+"\n") {
		t.Errorf("the list of outputs:\n%s", list)
	}
	again, err := Render(p, NewSource("../spec\n.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		if !bytes.Equal(files[i].Data, again[i].Data) {
			t.Errorf("%s differs between two renderings", files[i].Name)
		}
	}
}

// TestRenderRefusesUnnamedFile: a renderer that writes a file the model
// does not name is a bug, reported, not written.
func TestRenderRefusesUnnamedFile(t *testing.T) {
	p := planOf(t, twoTables+"outputs:\n  createTable:\n")
	f := formatOf(format.CreateTable)
	saved := f.Render
	t.Cleanup(func() { f.Render = saved })
	f.Render = func(p *plan.Plan, o *model.Output, src Source) ([]File, error) {
		files, err := saved(p, o, src)
		files[0].Name = "../" + files[0].Name
		return files, err
	}
	if _, err := Render(p, NewSource("spec.yaml")); err == nil || !strings.Contains(err.Error(), "rendered ../Notes.create-table.json where the model names Notes.create-table.json") {
		t.Fatalf("err = %v", err)
	}
}

// TestJSONOutputsEscapeBidi: every JSON output writes the characters that
// reorder text as escapes, which read back as the spec's string, so that
// none reaches a file as it is.
func TestJSONOutputsEscapeBidi(t *testing.T) {
	name := "P\u202eK"
	p := planOf(t, strings.Replace(twoTables, "Notes: {partitionKey: PK,", "Notes: {partitionKey: \""+name+"\",", 1)+
		"outputs:\n  createTable:\n  terraform:\n  workbench:\n  iam:\n")
	files, err := Render(p, NewSource("spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".json") {
			continue
		}
		if strings.ContainsRune(string(f.Data), '\u202e') {
			t.Errorf("%s holds U+202E as it is", f.Name)
		}
		if f.Name == "Notes.create-table.json" {
			var in struct {
				KeySchema []struct{ AttributeName string }
			}
			if err := json.Unmarshal(f.Data, &in); err != nil || len(in.KeySchema) == 0 || in.KeySchema[0].AttributeName != name {
				t.Errorf("%s reads back %+v, %v; want the partition key %q", f.Name, in, err, name)
			}
		}
	}
}

// TestFormatsAreTheSpecs keeps the table of formats, the parser's list
// of the names outputs: takes (spec.OutputKinds) and the JSON Schema's
// outputs: one list in one order: each format is under its name in the
// schema, its default file and its endings the schema's, a format of
// files per table with no file: at all.
func TestFormatsAreTheSpecs(t *testing.T) {
	var kinds []string
	for _, f := range Formats {
		kinds = append(kinds, string(f.Kind))
	}
	if !slices.Equal(kinds, spec.OutputKinds) {
		t.Fatalf("the formats are %q, the parser takes %q", kinds, spec.OutputKinds)
	}
	var schema struct {
		Properties struct {
			Outputs struct {
				Properties map[string]struct {
					Description string `json:"description"`
					OneOf       []struct {
						Properties struct {
							File struct {
								Pattern string `json:"pattern"`
							} `json:"file"`
						} `json:"properties"`
					} `json:"oneOf"`
				} `json:"properties"`
			} `json:"outputs"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(spec.JSONSchema, &schema); err != nil {
		t.Fatal(err)
	}
	props := schema.Properties.Outputs.Properties
	if len(props) != len(Formats) {
		t.Errorf("the schema has %d outputs, the table %d", len(props), len(Formats))
	}
	for _, f := range Formats {
		p, ok := props[string(f.Kind)]
		switch {
		case !ok:
			t.Errorf("the schema has no output %s", f.Kind)
		case f.TableFiles != nil:
			if f.File != "" || len(f.Endings) > 0 || len(p.OneOf) > 0 {
				t.Errorf("%s writes a file per table, yet takes file: (table %q %q, schema %d forms)", f.Kind, f.File, f.Endings, len(p.OneOf))
			}
		default:
			if !strings.Contains(p.Description, "default file "+f.File+".") {
				t.Errorf("the schema's %s does not say its default file %s: %q", f.Kind, f.File, p.Description)
			}
			pattern := ""
			for _, o := range p.OneOf {
				pattern += o.Properties.File.Pattern
			}
			re, err := regexp.Compile(pattern)
			if err != nil || pattern == "" {
				t.Errorf("the schema's %s file pattern %q: %v", f.Kind, pattern, err)
				continue
			}
			for _, e := range f.Endings {
				if !re.MatchString("x"+e) || re.MatchString("x"+e+".txt") {
					t.Errorf("the schema's %s file pattern %q does not take exactly the ending %s", f.Kind, pattern, e)
				}
			}
		}
	}
}
