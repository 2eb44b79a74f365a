package runtime

import "embed"

// Source holds the runtime's files that the Go emitter copies into every
// generated package (internal/golang).
//
//go:embed errors.go keys.go attrs.go numbers.go cursor.go batch.go transact.go
var Source embed.FS
