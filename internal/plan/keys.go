package plan

import (
	"github.com/dyngen/dyngen/internal/keylang"
	"github.com/dyngen/dyngen/internal/model"
)

// The plan's readings of key templates that the outputs print too.

// KeyTemplate is key template t in the key language, whose Render builds
// a key value as the generated code does (the Workbench output's
// sample keys).
func KeyTemplate(t *model.Template) keylang.Template { return keyTemplate(t) }

// SameShape reports whether partition key templates x and y have the
// same shape (the same literal text, placeholders of the same kind at the
// same places), so that equal inputs give one partition key value: the
// design document's item collections.
func SameShape(x, y *model.Template) bool { return sameShape(x, y) }
