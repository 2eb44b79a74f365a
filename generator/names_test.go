package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestDigitNames generates a package from tables and an index whose names
// start with a digit, as DynamoDB allows: their Go names get a letter in
// front (2shop -> T2Shop), and the package compiles and vets.
func TestDigitNames(t *testing.T) {
	spec := []byte(`version: 1
package: shop
tables:
  2shop:
    partitionKey: PK
    sortKey: SK
    indexes:
      1byDate: {partitionKey: GSI1PK, sortKey: GSI1SK}
  9lives:
    partitionKey: catId
entities:
  Order:
    table: 2shop
    attributes:
      customerId: string
      orderId: string
      placedAt: {type: time, optional: true}
    keys:
      primary: {pk: "CUSTOMER#{customerId}", sk: "ORDER#{orderId}"}
      1byDate: {pk: "CUSTOMER#{customerId}", sk: "{placedAt}"}
  Cat:
    table: 9lives
    attributes: {catId: string}
patterns:
  GetOrder: {get: Order}
  OrdersByDate: {query: Order, by: [customerId], index: 1byDate, where: {placedAt: ">"}}
  GetCat: {get: Cat}
`)
	files, diags := Generate("spec.yaml", "spec.yaml", spec)
	if diags.HasErrors() {
		t.Fatalf("errors:\n%v", diags.Err())
	}
	declared := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range goFiles(files) {
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				declared[fd.Name.Name] = true
			}
		}
	}
	for _, want := range []string{"WithT2ShopTable", "WithT9LivesTable"} {
		if !declared[want] {
			t.Errorf("the package does not declare %s", want)
		}
	}
	vet(t, "digitnames", files, nil)
}
