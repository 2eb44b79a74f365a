package spec

import _ "embed"

// JSONSchema is the JSON Schema (draft 2020-12) of the spec format, for
// editors: a spec file that starts with
//
//	# yaml-language-server: $schema=<path to spec/schema.json>
//
// gets completion, hover help and shape checks in any editor that runs
// yaml-language-server. The schema checks shape only (keys, value types,
// the keys each operation takes); the parser and the model remain the
// authority and report everything the schema can't express, with positions.
//
//go:embed schema.json
var JSONSchema []byte
