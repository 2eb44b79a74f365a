// Package synthetic makes specs of any size for the benchmarks of the
// generator and the command.
package synthetic

import (
	"fmt"
	"strings"
)

// Spec builds a spec of entities spread over tables of ten, with
// five patterns per entity (get, get through a GSI, query, range query,
// put), until it holds the given number of patterns. Each entity has an
// attribute of its own name (name0, name1...), so that no two entities'
// Go types have the same fields: as in real designs, code the user's
// build instantiates per item type is built once per entity.
func Spec(patterns int) []byte { return SpecTables(patterns, 10) }

// SpecTables is Spec with perTable entities in each table: with every
// entity in one table, each query's partition (OWNER#{owner}) is shared
// by all the entities, which only their sort key prefixes tell apart.
func SpecTables(patterns, perTable int) []byte {
	entities := (patterns + 4) / 5
	var b strings.Builder
	b.WriteString("version: 1\npackage: big\ntables:\n")
	tables := (entities + perTable - 1) / perTable
	for t := range tables {
		fmt.Fprintf(&b, "  T%04d:\n    partitionKey: PK\n    sortKey: SK\n    indexes:\n      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}\n", t)
	}
	b.WriteString("entities:\n")
	for e := range entities {
		fmt.Fprintf(&b, "  E%d:\n    table: T%04d\n    attributes: {id: string, owner: string, at: time, n: int, name%d: string}\n", e, e/perTable, e)
		fmt.Fprintf(&b, "    keys:\n      primary: {pk: \"OWNER#{owner}\", sk: \"E%d#{at}#{id}\"}\n      GSI1: {pk: \"E%d#{id}\", sk: \"E%d\"}\n", e, e, e)
	}
	b.WriteString("patterns:\n")
	n := 0
	for e := 0; n < patterns; e++ {
		for _, p := range []string{
			"Get%[1]d: {get: E%[1]d}",
			"ById%[1]d: {get: E%[1]d, by: [id]}",
			"List%[1]d: {query: E%[1]d, by: [owner], order: desc}",
			"Since%[1]d: {query: E%[1]d, by: [owner], where: {at: \">=\"}}",
			"Put%[1]d: {put: E%[1]d}",
		} {
			if n == patterns {
				break
			}
			fmt.Fprintf(&b, "  "+p+"\n", e)
			n++
		}
	}
	return []byte(b.String())
}
