// Package golang prints the Go package a plan describes: one file of
// Store methods per table, one file per entity (its struct, marshalers
// and key builders), the Store and its StoreAPI interface, and the runtime
// the generated code calls. Every request, expression and identifier it
// prints was decided by the plan (internal/plan) or the model's naming
// (internal/model); Package fails, rather than print a guess, where the
// plan does not say.
package golang
