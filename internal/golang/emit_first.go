package golang

import "fmt"

// first emits a query's first item: one Query with Limit 1, whose item
// is the result (the planner refuses a first whose key condition may read
// an item the method would drop, and the model one with a filter).
func (m *method) first() {
	m.viewType()
	m.fromKeys()
	if m.req.Filter != "" || len(m.pp.Foreign) > 0 {
		m.e.bug("first %s may read an item it drops", m.p.Name)
	}
	lines := m.readLines()
	if m.req.Descending {
		lines = append(lines, "ScanIndexForward: false (descending)")
	}
	lines = append(lines, fmt.Sprintf("Limit: %d", m.req.Limit))
	m.doc(lines...)
	// In ascending order, an item equal to a strict bound comes last:
	// read first, it is the only one, and the decoder skips it (the
	// planner refuses this in descending order).
	m.queryFirstMethod()
}
