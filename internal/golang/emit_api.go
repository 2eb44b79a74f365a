package golang

import (
	"github.com/dave/jennifer/jen"
)

// apiFile emits StoreAPI, the interface of the Store's methods that serve
// the patterns, in spec order, so that a caller can stand a test double
// in for the Store. The methods are those the pattern files declare,
// described by the same code (method.exported).
func (e *emitter) apiFile() *jen.File {
	f := e.newFile()
	comment(f, "StoreAPI is the Store's methods that serve the access patterns of the spec, "+
		"in spec order: a caller that takes a StoreAPI can be given a test double "+
		"instead of a *Store. Tables, for provisioning, is left out. Each method's "+
		"doc comment on Store says more than its first sentence here.")
	f.Type().Id("StoreAPI").InterfaceFunc(func(g *jen.Group) {
		// A method a line, after its summary: the doc comments on Store
		// say more.
		for _, pp := range e.p.Patterns {
			m := &method{e: e, pp: pp, p: pp.Pattern, req: pp.Request}
			for _, am := range m.exported() {
				comment(g, firstSentence(am.summary()))
				g.Add(m.methodSig(am.name, true, am.page, am.results))
			}
		}
	})
	f.Line()
	comment(f, "*Store implements StoreAPI.")
	f.Var().Id("_").Id("StoreAPI").Op("=").Parens(jen.Op("*").Id("Store")).Parens(jen.Nil())
	return f
}

// firstSentence is text up to the end of its first sentence (a period,
// or a semicolon, followed by a space), with a period.
func firstSentence(text string) string {
	for i := 0; i+1 < len(text); i++ {
		if (text[i] == '.' || text[i] == ';') && text[i+1] == ' ' {
			return text[:i] + "."
		}
	}
	return text
}
