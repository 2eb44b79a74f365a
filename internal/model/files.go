package model

import (
	"strings"
)

// The files of the generated package, named here so that the checks and
// the emitter agree on them.

// StoreFile is the file of the Store, its options and the table
// definitions.
const StoreFile = "store.go"

// APIFile is the file of StoreAPI, the interface of the Store's methods.
const APIFile = "store_api.go"

// StreamsFile is the file of the stream side (stream.go in the model),
// when a table has a stream.
const StreamsFile = "streams.go"

// ObjectsFile is the file of the object types, when the spec has any.
const ObjectsFile = "objects.go"

// PatternsFile is the file of the patterns of table t: patterns.go in a
// spec of one table, patterns_<table>.go otherwise.
func (m *Model) PatternsFile(t *Table) string {
	if len(m.Tables) == 1 {
		return "patterns.go"
	}
	return fileName("patterns_"+snake(t.GoName), "table")
}

// File is the file of an entity: its Go name in snake case.
func (e *Entity) File() string {
	name := snake(e.GoName)
	switch {
	case name == "store" || name == "store_api" || name == "objects" || name == "streams" || name == "patterns" || strings.HasPrefix(name, "patterns_"):
		// The generator's own files.
		name += "_entity"
	}
	return fileName(name, "entity")
}

// FileNames lists every file the spec makes the generator write, with
// what it comes from, in spec order: the Go package, then the outputs.
func (m *Model) FileNames() []GenName {
	out := []GenName{{StoreFile, "the Store", Pos{}, ""}, {APIFile, "StoreAPI", Pos{}, ""}}
	for _, t := range m.Tables {
		out = append(out, GenName{m.PatternsFile(t), "the patterns of table " + t.Name, t.Pos, ""})
	}
	if len(m.Objects) > 0 {
		out = append(out, GenName{ObjectsFile, "the object types", Pos{}, ""})
	}
	for _, e := range m.Entities {
		out = append(out, GenName{e.File(), "entity " + e.Name, e.Pos, ""})
	}
	if m.Streams() {
		out = append(out, GenName{StreamsFile, "the tables' streams", Pos{}, ""})
	}
	if o := m.Output(MigrationOutput); o != nil {
		out = append(out, GenName{BackfillFile, "output migration", o.Pos, ""})
	}
	return append(out, m.OutputFiles()...)
}

// snake writes a Go name in snake case: GamePlayer -> game_player,
// HTTPServer -> http_server.
func snake(goName string) string {
	var b strings.Builder
	rs := []rune(goName)
	for i, r := range rs {
		if i > 0 && r >= 'A' && r <= 'Z' && (rs[i-1] < 'A' || rs[i-1] > 'Z' || (i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z')) {
			b.WriteByte('_')
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}

// fileName is base.go, or base_<what>.go where Go's build rules would
// leave base.go out on some platforms or out of the package (a name
// ending in _test, _<GOOS>, _<GOARCH> or _<GOOS>_<GOARCH>), or where
// Windows reserves the name for a device (con, aux, com1...).
func fileName(base, what string) string {
	parts := strings.Split(base, "_")
	last := parts[len(parts)-1]
	if len(parts) > 1 && (last == "test" || knownOS[last] || knownArch[last]) || windowsDevice[base] {
		base += "_" + what
	}
	return base + ".go"
}

// windowsDevice holds the names Windows reserves for devices, whatever
// follows the dot: a file con.go can't be created there, and Go's module
// tools refuse it.
var windowsDevice = setOf("con", "prn", "aux", "nul",
	"com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
	"lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9")

// knownOS and knownArch are the GOOS and GOARCH values Go's build rules
// know, from go/build's list (a test checks them against go tool dist
// list).
var knownOS = setOf("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos")

var knownArch = setOf("386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips", "mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv", "riscv64", "s390", "s390x", "sparc", "sparc64", "wasm")

func setOf(names ...string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}
