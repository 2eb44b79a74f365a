// Package bench compares the code dyngen generates (bookreviews, its copy
// of example/bookreviews' spec as measured, where WriteReview is one
// conditional PutItem) with the reflection-based alternatives (the AWS SDK's attributevalue and
// expression packages and guregu/dynamo) and with hand-written code, on
// the same item and the same query; and, against DynamoDB Local, the
// generated methods with the same raw SDK calls. It also times dyngen
// itself on one table whose every query's partition a thousand entities
// share, against the same entities in tables of ten (scale_test.go), and
// checks that the report and the package of such a table grow linearly.
// It holds only benchmarks and the tests that check the compared code
// does the same work; see BENCHMARKS.md at the root of the module.
package bench
