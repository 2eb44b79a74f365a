// Package runtime is the part of every generated package that does not
// depend on the spec: errors, key encodings, attribute readers, cursors,
// batch loops and the failures of transactions. It is ordinary Go,
// compiled and tested here; the Go emitter (internal/golang) copies the
// files a spec needs into the generated package (with that package's
// clause and error prefix), so generated code has no runtime dependency
// on dyngen.
//
// The files Source embeds are copied whole: errors.go, keys.go, attrs.go
// and numbers.go into every generated package; cursor.go when the spec
// has a query, batch.go when it has a batch pattern, transact.go when it
// has a transaction or a write of an entity with unique values
// (runtimeFiles in internal/golang decides). A file may use only the
// standard library, aws-sdk-go-v2, and the names declared in itself and
// in the four files every package gets.
package runtime
