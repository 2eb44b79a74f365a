// Package backfill holds the tests of the backfills against DynamoDB
// Local: a store generated from spec.yaml, whose lock holds five
// backfills pending. The lock was first written from the design before
// the change (before.yaml, copied to spec.yaml), then the package
// generated from spec.yaml as it is over it, which found the two indexes
// users join, their emails made unique and the two attributes sessions
// gain, and recorded a backfill of each. Generating from spec.yaml again
// carries them (go generate).
package backfill

//go:generate go run github.com/dyngen/dyngen/cmd/dyngen spec.yaml -o .
