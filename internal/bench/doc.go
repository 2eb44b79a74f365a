// Package bench compares the code dyngen generates (example/bookreviews)
// with the reflection-based alternatives — the AWS SDK's attributevalue and
// expression packages and guregu/dynamo — and with hand-written code, on
// the same item and the same query. It holds only benchmarks and the tests
// that check the compared code produces the same results; see BENCHMARKS.md
// at the root of the module.
package bench
