// Package stream holds the end-to-end tests of the stream side: a store
// generated from spec.yaml, its writes read back from DynamoDB Local's
// streams and decoded.
package stream

//go:generate go run github.com/dyngen/dyngen/cmd/dyngen spec.yaml -o .
