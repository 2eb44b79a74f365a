// Package plan decides how the generated package serves each access
// pattern of a resolved model (package model), and refuses, with a
// position and a fix, what DynamoDB can't serve well. Build reads the
// model and returns a Plan and diagnostics; it writes nothing and prints
// nothing. The calls, indexes, expressions and parameters are chosen
// here; the Go emitter (internal/golang) and the outputs print them.
//
// A pattern's Pattern holds:
//
//   - the call: GetItem or Query for a read (the index and the key
//     condition that serve it, with how items of other entities sharing a
//     partition are told apart or kept out: Members, Foreign, KeptOut),
//     Query with Limit 1 for first: true, BatchGetItem, PutItem,
//     UpdateItem, DeleteItem, BatchWriteItem. A read no index can serve
//     is refused, and the error proposes the index or keys that would
//     serve it (propose.go): there is no Scan. A filter is warned about:
//     DynamoDB bills the items it drops;
//   - for a transaction (transaction:, transactGet:), one
//     TransactWriteItems or TransactGetItems (Tx): each step planned as a
//     call of its own (Step: Put, Update, Delete, ConditionCheck or Get),
//     the inputs of the method's struct and where each step's values
//     come from (Input, Arg: an input, a field of an item an earlier step
//     writes, the time read once), the steps the method compares before
//     the call because they may address one item (Distinct), the order
//     it builds them in, and the error each failed condition is. Steps
//     that always address one item and inputs of one name and two types
//     are refused; a transaction that could pass 4 MB is warned about;
//   - for an entity with unique values (Unique): a write is a
//     TransactWriteItems of the write and of the claims it takes and
//     releases, after a consistent GetItem of the current item but for a
//     create; a get by a unique value reads the claim, then the owner;
//   - the method's parameters (Params, Struct, Locals), the keys a read
//     decodes from key attributes (FromKeys), the index keys an update
//     rewrites (Rebuild), and the request (Request): every expression,
//     with its name and value placeholders, constants and how expired
//     items are treated, which `dyngen plan` and the generated code both
//     print;
//   - the estimated capacity one call consumes (Cost).
//
// Build also runs the checks of the whole model that need the plan's
// view: items of two entities that could have the same key on an index
// (decided by package keylang), key sizes over DynamoDB's limits, a
// constant partition key (a hot partition), a time to live no entity
// stores, generated names that clash, indexes no pattern reads or that
// project more than their patterns read. The Plan also holds what every
// output prints the same: each table's definition (TableDef), the write
// amplification of each entity (WriteAmp), the size assumptions of the
// estimates, and, with the iam output, the calls' IAM statements
// (Access).
//
// The package holds as well the `dyngen plan` report (Report, its text
// and JSON forms) and the decisions of some outputs: the CloudFormation
// quotas and strings, the Terraform names, the NoSQL Workbench samples
// and the design document's item collections.
package plan
