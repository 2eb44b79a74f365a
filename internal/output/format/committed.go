package format

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// The tables of a committed output: a CloudFormation or Terraform output
// an earlier generation left, which is presumably what is deployed. Each
// of those formats reads its file into CommittedTables, and warns of
// the changes that deploying the new one fails at or loses items to
// (ReplacingChanges, and its own).

// Committed gives the bytes of an output file as an earlier generation
// left it in the output directory, or nil when there is none.
type Committed func(name string) []byte

// CommittedTable is a table as a committed CloudFormation or Terraform
// output declares it: what the formats' Changes compare with the plan.
type CommittedTable struct {
	// GSIs are the names of the global secondary indexes.
	GSIs []string
	// Key is the table's key schema, and LSIs its local secondary
	// indexes; KeyKnown is false when the file's table could not be
	// read that far (its key is then not compared).
	Key      []CommittedKey
	LSIs     []CommittedLSI
	KeyKnown bool
}

// CommittedKey is one element of a committed key schema: the attribute,
// its type (S, N, B; "" when the file defines none) and its role.
type CommittedKey struct {
	Name, Type, Role string
}

// CommittedLSI is a committed local secondary index: its name, key
// schema, projection type and non-key attributes (sorted).
type CommittedLSI struct {
	Name       string
	Key        []CommittedKey
	Projection string
	NonKey     []string
}

// ReplacingChanges describes the changes of table d's key schema, key
// attribute types and local secondary indexes since had, the committed
// table; typeOnly reports that only key attribute types changed.
func ReplacingChanges(d *plan.TableDef, had CommittedTable) (what []string, typeOnly bool) {
	if !had.KeyKnown {
		return nil, false
	}
	named := false
	role := map[string]string{"HASH": "partition key", "RANGE": "sort key"}
	want := keyOf(d.Key)
	for _, r := range []string{"HASH", "RANGE"} {
		w, wok := keyRole(want, r)
		h, hok := keyRole(had.Key, r)
		switch {
		case !wok && !hok:
		case !hok:
			named = true
			what = append(what, fmt.Sprintf("gains the %s %s", role[r], w))
		case !wok:
			named = true
			what = append(what, fmt.Sprintf("loses the %s %s", role[r], h))
		case w.Name != h.Name:
			named = true
			what = append(what, fmt.Sprintf("%s %s becomes %s", role[r], h, w))
		case h.Type != "" && w.Type != h.Type:
			what = append(what, fmt.Sprintf("%s %s becomes %s", role[r], h, w))
		}
	}
	for _, ix := range d.Local {
		i := slices.IndexFunc(had.LSIs, func(l CommittedLSI) bool { return l.Name == ix.Name })
		if i < 0 {
			named = true
			what = append(what, "gains the local secondary index "+ix.Name)
			continue
		}
		if w := lsiOf(ix); !lsiEqual(w, had.LSIs[i]) {
			named = true
			what = append(what, fmt.Sprintf("local secondary index %s changes (%s becomes %s)", ix.Name, had.LSIs[i], w))
		}
	}
	for _, l := range had.LSIs {
		if !slices.ContainsFunc(d.Local, func(ix *model.Index) bool { return ix.Name == l.Name }) {
			named = true
			what = append(what, "loses the local secondary index "+l.Name)
		}
	}
	return what, len(what) > 0 && !named
}

// String describes a key element: its name and type.
func (k CommittedKey) String() string {
	if k.Type == "" {
		return k.Name
	}
	return k.Name + " (" + k.Type + ")"
}

// String describes a local secondary index: its sort key and projection.
func (l CommittedLSI) String() string {
	s := "no sort key"
	if k, ok := keyRole(l.Key, "RANGE"); ok {
		s = "sort key " + k.String()
	}
	s += ", projection " + l.Projection
	if len(l.NonKey) > 0 {
		s += " " + strings.Join(l.NonKey, ", ")
	}
	return s
}

// keyOf is the key schema of ix with its attributes' types.
func keyOf(ix *model.Index) []CommittedKey {
	var out []CommittedKey
	for i, k := range plan.KeySchema(ix) {
		out = append(out, CommittedKey{k.Name, string(ix.KeyAttrs()[i].Type), k.Type})
	}
	return out
}

// keyRole returns the element of role r (HASH or RANGE) of key.
func keyRole(key []CommittedKey, r string) (CommittedKey, bool) {
	i := slices.IndexFunc(key, func(k CommittedKey) bool { return k.Role == r })
	if i < 0 {
		return CommittedKey{}, false
	}
	return key[i], true
}

// lsiOf is the local secondary index ix as a committed file holds it.
func lsiOf(ix *model.Index) CommittedLSI {
	typ, nonKey := plan.Projection(ix)
	nonKey = slices.Clone(nonKey)
	slices.Sort(nonKey)
	return CommittedLSI{Name: ix.Name, Key: keyOf(ix), Projection: typ, NonKey: nonKey}
}

// lsiEqual reports whether the local secondary index w (the plan's) is
// h (the committed one): its sort key (and type, when h's is known),
// projection and non-key attributes. The partition key is the table's.
func lsiEqual(w, h CommittedLSI) bool {
	ws, wok := keyRole(w.Key, "RANGE")
	hs, hok := keyRole(h.Key, "RANGE")
	if wok != hok || ws.Name != hs.Name || hs.Type != "" && ws.Type != hs.Type {
		return false
	}
	return w.Projection == h.Projection && slices.Equal(w.NonKey, h.NonKey)
}

// WithTypes sets the type of each key element from types (by name).
func WithTypes(key []CommittedKey, types map[string]string) []CommittedKey {
	for i := range key {
		key[i].Type = types[key[i].Name]
	}
	return key
}

// WarnChanges is the Changes of a format that deploys tables: it reads
// the format's committed file of output o with read (which reports false
// when there is none or it is not of the format: the generation replaces
// it, and nothing is compared), and calls warn with each table of p
// whose committed table read names by name, and the file's name.
func WarnChanges(p *plan.Plan, o *model.Output, committed Committed, read func([]byte) (map[string]CommittedTable, bool), name func(*model.Table) string, warn func(d *plan.TableDef, had CommittedTable, file string, diags *diag.List), diags *diag.List) {
	tables, ok := read(committed(o.File))
	if !ok {
		return
	}
	for _, d := range p.Tables {
		if had, ok := tables[name(d.Table)]; ok {
			warn(d, had, o.File, diags)
		}
	}
}
