// Package runtime is the part of every generated package that does not
// depend on the spec: errors, key encodings, attribute readers, cursors and
// batch loops. It is ordinary Go, compiled and tested here; the generator
// copies the files a spec needs into the generated package (with that
// package's clause and error prefix), so generated code has no runtime
// dependency on dyngen.
//
// Each file other than this one and prefix.go is copied whole. A file may
// use only the standard library and aws-sdk-go-v2, and names declared in
// the files it needs (see Needs in the generator).
package runtime
