package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/golang"
	"github.com/dyngen/dyngen/internal/model"
)

// localsSpec uses name as an attribute: the one input of a get (with
// select too), a delete and an update, of a query (a page of it, its
// iterator and its first item) and of a get by a unique value, the operand
// of a put's when, on a table with a ttl (the clock's now); and, with
// entity, as the name of a versioned, timestamped entity a put and a
// create write (whose parameter is its item); and in the steps of a
// transaction, whose builders take it.
func localsSpec(name, entity string) string {
	return strings.NewReplacer("NAME", name, "ENTITY", entity).Replace(`version: 1
package: locals
tables:
  Main: {partitionKey: PK, sortKey: SK, ttl: exp}
entities:
  Solo:
    attributes: {NAME: string, note: {type: string, optional: true}, exp: {type: time, optional: true}}
    keys: {primary: {pk: "S#{NAME}", sk: "S"}}
  Keyed:
    attributes: {NAME: string, n: int, exp: {type: time, optional: true}}
    keys: {primary: {pk: "K#{NAME}", sk: "N#{n}"}}
  ENTITY:
    version: rev
    timestamps: {created: at, updated: changed}
    attributes: {id: string, NAME: {type: string, optional: true}, rev: int, at: time, changed: time}
    keys: {primary: {pk: "E#{id}", sk: "E"}}
  Uniq:
    attributes: {id: string, NAME: string}
    unique: [NAME]
    keys: {primary: {pk: "U#{id}", sk: "U"}}
patterns:
  GetSolo: {get: Solo}
  SoloNote: {get: Solo, select: [note]}
  DeleteSolo: {delete: Solo}
  TouchSolo: {update: Solo, remove: [note]}
  KeyedPage: {query: Keyed, by: [NAME], limit: 5}
  FirstKeyed: {query: Keyed, by: [NAME], first: true, expired: include}
  PutEntity: {put: ENTITY, when: {NAME: "<>"}}
  CreateEntity: {create: ENTITY}
  BatchGetEntity: {batchGet: ENTITY}
  UniqByName: {get: Uniq, by: [NAME]}
  PutUniq: {put: Uniq}
  MoveSolo:
    transaction:
      - delete: Solo
        when: {note: exists}
        bind: {NAME: soloKey}
      - create: Keyed
      - check: Uniq
        bind: {id: Keyed.NAME}
`)
}

// TestLocalsGiveWay: a parameter keeps the spec's name where it meets a
// name the generated methods use themselves (model.MethodLocals: the
// receiver, ctx, page, in, out, err, item...): the local gives way. For
// every such name, used as an attribute and as an entity's name, the
// package is sound, every exported method of the Store takes it under the
// spec's name, and no function declares a local of one of its
// parameters' names (which would hide it).
func TestLocalsGiveWay(t *testing.T) {
	for _, name := range model.MethodLocals {
		t.Run(name, func(t *testing.T) {
			entity := strings.ToUpper(name[:1]) + name[1:]
			spec := localsSpec(name, entity)
			res := Check("spec.yaml", []byte(spec))
			if res.Diags.HasErrors() {
				// The entity's Go name may be the package's own (Page):
				// the attribute alone then.
				t.Logf("%s as an entity is refused: %v", entity, res.Diags.Err())
				entity = "Thing"
				spec = localsSpec(name, entity)
				res = Check("spec.yaml", []byte(spec))
			}
			if err := res.Diags.Err(); err != nil {
				t.Fatal(err)
			}
			for _, err := range outputProblems(res) {
				t.Error(err)
			}
			files, err := golang.Package(res.Plan, "spec.yaml")
			if err != nil {
				t.Fatal(err)
			}
			item := model.ParamName(entity)
			takes := map[string][]string{
				"GetSolo": {name}, "DeleteSolo": {name}, "TouchSolo": {name},
				"KeyedPage": {name}, "KeyedPageAll": {name}, "FirstKeyed": {name},
				"PutEntity": {item, name}, "CreateEntity": {item},
				"SoloNote": {name}, "UniqByName": {name},
			}
			seen := 0
			for _, f := range files {
				if !strings.HasSuffix(f.Name, ".go") {
					continue
				}
				file, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.SkipObjectResolution)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range file.Decls {
					fd, ok := d.(*ast.FuncDecl)
					if !ok {
						continue
					}
					params := funcParams(fd)
					if want, ok := takes[fd.Name.Name]; ok && fd.Recv != nil {
						seen++
						for _, w := range want {
							if !params[w] {
								t.Errorf("%s takes %v, not %s: a parameter gave way", fd.Name.Name, params, w)
							}
						}
					}
					for _, id := range declaredLocals(fd.Body) {
						if params[id] {
							t.Errorf("%s declares a local %s, which hides its parameter", fd.Name.Name, id)
						}
					}
				}
			}
			if seen != len(takes) {
				t.Errorf("found %d of the %d methods", seen, len(takes))
			}
		})
	}
}

// funcParams are the names of fd's receiver and parameters.
func funcParams(fd *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				out[n.Name] = true
			}
		}
	}
	return out
}

// declaredLocals are the names body declares, in any block: with :=, var,
// a range and a function literal's parameters.
func declaredLocals(body *ast.BlockStmt) []string {
	var out []string
	if body == nil {
		return nil
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						out = append(out, id.Name)
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out = append(out, id.Name)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
						out = append(out, id.Name)
					}
				}
			}
		case *ast.FuncLit:
			for _, f := range n.Type.Params.List {
				for _, id := range f.Names {
					out = append(out, id.Name)
				}
			}
		}
		return true
	})
	return out
}
