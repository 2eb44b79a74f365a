package terraform_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/corpus"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/terraform"
)

// twoTables is a spec of tables ABTable and AbTable, whose Go names
// differ but whose Terraform names are both ab_table, with outputs:
// appended.
const twoTables = `
version: 1
package: shop
tables:
  ABTable: {partitionKey: PK}
  AbTable: {partitionKey: PK}
entities:
  A:
    table: ABTable
    attributes: {id: string}
    keys: {primary: {pk: "A#{id}"}}
  B:
    table: AbTable
    attributes: {id: string}
    keys: {primary: {pk: "B#{id}"}}
patterns:
  GetA: {get: A}
`

// TestTerraformNameClash checks that two tables of one Terraform name are
// refused, once, at the second table, when the spec asks for the
// Terraform output, and not otherwise.
func TestTerraformNameClash(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(twoTables+"outputs:\n  terraform:\n"))
	err := res.Diags.Err()
	if err == nil {
		t.Fatal("no error for two tables of Terraform name ab_table")
	}
	msg := err.Error()
	if want := "spec.yaml:6:3: table ABTable and table AbTable both give the resource aws_dynamodb_table.ab_table in the Terraform output; rename one of the tables"; !strings.Contains(msg, want) {
		t.Errorf("error:\n%s\nwant:\n%s", msg, want)
	}
	if n := strings.Count(msg, "Terraform output"); n != 1 {
		t.Errorf("%d errors of the clash, want 1:\n%s", n, msg)
	}
	// The tables' files of patterns clash too (patterns_ab_table.go):
	// that error stays, the Terraform one goes with the output.
	for _, outputs := range []string{"", "outputs:\n  createTable:\n"} {
		err := generator.Check("spec.yaml", []byte(twoTables+outputs)).Diags.Err()
		if err == nil || strings.Contains(err.Error(), "Terraform") {
			t.Errorf("without the Terraform output: %v", err)
		}
	}
}

// tfIdent is the form of a Terraform identifier: a resource, variable or
// output name.
var tfIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// TestTerraformNames checks the names of the Terraform output of a spec
// of global and local indexes (corpus.Shop): identifiers, each distinct in its
// namespace, none of the names Terraform reserves for variables.
func TestTerraformNames(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(corpus.Shop+"  GetCustomer: {get: Customer}\n"))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	resources, variables, outputs := terraform.Names(res.Model)
	globals := 0
	for _, ix := range res.Model.Tables[0].Indexes {
		if ix.Kind == model.Global {
			globals++
		}
	}
	if len(resources) != 1 || resources[0].Name != "shop" || len(variables) != 6+2*globals || len(outputs) != 2 {
		t.Fatalf("names %v %v %v", resources, variables, outputs)
	}
	reserved := []string{"source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals"}
	for _, ns := range [][]model.GenName{resources, variables, outputs} {
		seen := map[string]bool{}
		for _, n := range ns {
			if !tfIdent.MatchString(n.Name) || seen[n.Name] || strings.Contains(strings.Join(reserved, " "), n.Name) {
				t.Errorf("name %q (%s) is not a distinct Terraform identifier", n.Name, n.From)
			}
			seen[n.Name] = true
		}
	}
}

// indexClash is a spec of table Shop with global index ByEmail, table
// ShopBy with global index Email and table ShopByEmail: all three give
// the variable shop_by_email_read_capacity (and _write_capacity) in the
// Terraform output, the first two as an index's, the third as a
// table's.
const indexClash = `
version: 1
package: shop
tables:
  Shop:
    partitionKey: PK
    indexes: {ByEmail: {partitionKey: GPK}}
  ShopBy:
    partitionKey: PK
    indexes: {Email: {partitionKey: GPK}}
  ShopByEmail: {partitionKey: PK}
entities:
  A:
    table: Shop
    attributes: {id: string}
    keys: {primary: {pk: "A#{id}"}, ByEmail: {pk: "E#{id}"}}
  B:
    table: ShopBy
    attributes: {id: string}
    keys: {primary: {pk: "B#{id}"}, Email: {pk: "E#{id}"}}
  C:
    table: ShopByEmail
    attributes: {id: string}
    keys: {primary: {pk: "C#{id}"}}
patterns:
  GetA: {get: A}
  ByEmailA: {query: A, index: ByEmail, by: [id]}
  EmailB: {query: B, index: Email, by: [id]}
  GetB: {get: B}
  GetC: {get: C}
`

// TestTerraformIndexNameClash checks that a global index's capacity
// variables that meet another index's, or a table's, are refused, each
// pair once, at the later one, naming both; and not without the
// Terraform output.
func TestTerraformIndexNameClash(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(indexClash+"outputs:\n  terraform:\n"))
	err := res.Diags.Err()
	if err == nil {
		t.Fatal("no error for three sources of shop_by_email_read_capacity")
	}
	msg := err.Error()
	for _, want := range []string{
		"spec.yaml:10:15: index ByEmail of table Shop and index Email of table ShopBy both give the variable shop_by_email_read_capacity in the Terraform output; rename one of them",
		"spec.yaml:11:3: index ByEmail of table Shop and table ShopByEmail both give the variable shop_by_email_read_capacity in the Terraform output; rename one of them",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error:\n%s\nwant:\n%s", msg, want)
		}
	}
	if n := strings.Count(msg, "Terraform output"); n != 2 {
		t.Errorf("%d errors, want 2:\n%s", n, msg)
	}
	if err := generator.Check("spec.yaml", []byte(indexClash+"outputs:\n  cloudformation:\n")).Diags.Err(); err != nil && strings.Contains(err.Error(), "Terraform") {
		t.Errorf("without the Terraform output: %v", err)
	}
}

// TestTerraformConsumerClash: consumers ABFeed and AbFeed, whose Go
// names differ, both give the event source mapping ab_feed (and the
// variable ab_feed_function_name): one error, at the second consumer,
// with the Terraform output only.
func TestTerraformConsumerClash(t *testing.T) {
	spec := strings.Replace(twoTables, "  ABTable: {partitionKey: PK}", "  ABTable: {partitionKey: PK, stream: KEYS_ONLY}", 1)
	spec = strings.Replace(spec, "  AbTable: {partitionKey: PK}", "  Abtable: {partitionKey: PK}", 1)
	spec = strings.Replace(spec, "table: AbTable", "table: Abtable", 1) +
		"consumers:\n  ABFeed:\n    on: {A: {insert: keys}}\n    lambda: {}\n  AbFeed:\n    on: {A: {remove: keys}}\n    lambda: {}\n  Other:\n    on: {A: {insert: keys}}\n"
	err := generator.Check("spec.yaml", []byte(spec+"outputs:\n  terraform:\n")).Diags.Err()
	want := "consumer ABFeed and consumer AbFeed both give the resource aws_lambda_event_source_mapping.ab_feed in the Terraform output; rename one of the consumers"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "Terraform output") != 1 {
		t.Errorf("error:\n%v\nwant one:\n%s", err, want)
	}
	// The consumers' Go names clash too (abFeedRecord): that error
	// stays, the Terraform one goes with the output.
	if err := generator.Check("spec.yaml", []byte(spec)).Diags.Err(); err == nil || strings.Contains(err.Error(), "Terraform") {
		t.Errorf("without the Terraform output: %v", err)
	}
}
