package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/dyngen/dyngen/internal/model"
)

// Every comment of the generated code is written by the functions of this
// file, through model.CommentLines, so that no text of the spec can end a
// comment, make a directive or break the source. jennifer's own Comment
// can't be given spec text: it prints a text holding a newline as a
// /* */ block and one starting with // or /* as it is.

// commenter is where a comment goes: a file or a block of code.
type commenter interface {
	Comment(string) *jen.Statement
}

// comment writes text as // comment lines.
func comment(c commenter, text string) {
	for _, line := range model.CommentLines(text) {
		c.Comment(lineComment(line))
	}
}

// commentf writes the formatted text as // comment lines.
func commentf(c commenter, format string, args ...any) {
	comment(c, fmt.Sprintf(format, args...))
}

// trailing adds text to st as a comment at the end of its line.
func trailing(st *jen.Statement, text string) *jen.Statement {
	return st.Comment(lineComment(model.CommentLine(text)))
}

// packageComment sets the package doc comment of f to text.
func packageComment(f *jen.File, text string) {
	for _, line := range model.CommentLines(text) {
		f.PackageComment(lineComment(line))
	}
}

// headerComment adds text as a header comment of f, on one line.
func headerComment(f *jen.File, text string) {
	f.HeaderComment(lineComment(model.CommentLine(text)))
}

// lineComment is one line of a comment as jennifer prints it verbatim.
func lineComment(line string) string {
	if line == "" {
		return "//"
	}
	return "// " + line
}
