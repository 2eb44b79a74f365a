// Package e2e holds the end-to-end tests of dyngen: a store generated from
// spec.yaml, exercised against DynamoDB Local.
package e2e

//go:generate go run github.com/dyngen/dyngen/cmd/dyngen spec.yaml -o .
