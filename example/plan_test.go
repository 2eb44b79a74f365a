// Package example holds the five reference models of dyngen, one spec each,
// and this test, which pins how dyngen plans every access pattern of each
// model and what it refuses in each article's literal layout.
package example

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/diag"
	"github.com/dyngen/dyngen/internal/plan"
)

// wantPattern is how a DynamoDB modeller expects one pattern to be served.
type wantPattern struct {
	name  string
	call  plan.Call
	index string
	// key is the key condition (plan.KeyCond.Describe), or for a write the
	// key of the item.
	key string
	// others says how items of other entities that share the partition are
	// kept out of a read's result (see othersOf); "-" when none can be read.
	others string
}

type model struct {
	name     string
	warnings []string // every diagnostic of spec.yaml (it has no error)
	patterns []wantPattern
}

var models = []model{
	{
		name: "bookreviews",
		patterns: []wantPattern{
			{"GetBook", plan.GetItem, "primary", `PK = "BOOK#{isbn}" AND SK = "BOOK#{isbn}"`, "Review kept out"},
			{"GetUser", plan.GetItem, "primary", `PK = "USER#{username}" AND SK = "USER#{username}"`, "-"},
			// By the email's claim, then by the key it holds: two GetItems.
			{"UserByEmail", plan.GetItem, "primary", `PK = "USER#{username}" AND SK = "USER#{username}"`, "-"},
			// The book and its reviews in one Query of the book's item
			// collection; the reviews' sort key has no literal prefix (it
			// starts with the date), so they are told apart by _type.
			{"BookPage", plan.Query, "primary", `PK = "BOOK#{isbn}"`, "Book by prefix BOOK#; Review by _type"},
			// Reviews only: the date range keeps the book ("BOOK#...") out
			// of the read, although the reviews have no prefix of their own.
			{"ReviewsOfBook", plan.Query, "primary", `PK = "BOOK#{isbn}" AND SK BETWEEN "{reviewDate:min}" AND "{reviewDate:max}\U0010FFFF"`, "Book kept out"},
			{"UserPage", plan.Query, "GSI1", `GSI1PK = "USER#{username}"`, "User by prefix USER#; Review by _type"},
			{"ReviewsOfUser", plan.Query, "GSI1", `GSI1PK = "USER#{username}" AND GSI1SK BETWEEN "{reviewDate:min}" AND "{reviewDate:max}\U0010FFFF"`, "User kept out"},
			{"AddBook", plan.PutItem, "primary", `PK = "BOOK#{isbn}" AND SK = "BOOK#{isbn}"`, "-"},
			// The user and its email's claim, written together.
			{"AddUser", plan.TransactWriteItems, "primary", `PK = "USER#{username}" AND SK = "USER#{username}"`, "-"},
			// The user read, then the update with the claim moved.
			{"ChangeEmail", plan.TransactWriteItems, "primary", `PK = "USER#{username}" AND SK = "USER#{username}"`, "-"},
			// The review and its book's review count, written together.
			{"WriteReview", plan.TransactWriteItems, "primary", "", "-"},
			{"UpdateReview", plan.UpdateItem, "primary", `PK = "BOOK#{isbn}" AND SK = "{reviewDate}#USER#{username}"`, "-"},
			{"DeleteReview", plan.TransactWriteItems, "primary", "", "-"},
		},
	},
	{
		name: "storeinventory",
		patterns: []wantPattern{
			{"StoreLocation", plan.GetItem, "primary", `PK = "STORE#{storeId}" AND SK = "STORE#{storeId}"`, "-"},
			{"GoodsOfStore", plan.Query, "primary", `PK = "INV#{storeId}"`, "-"},
			// The category as a prefix that ends on the path separator:
			// Electronics# takes Electronics#Laptops#... but not
			// ElectronicsOutlet#...
			{"GoodsInCategory", plan.Query, "primary", `PK = "INV#{storeId}" AND begins_with(SK, "{category}#")`, "-"},
			{"GoodsInCategoryByPrice", plan.Query, "GSI1", `GSI1PK = "{storeId}#{category}"`, "-"},
			{"GoodsInPriceRange", plan.Query, "GSI1", `GSI1PK = "{storeId}#{category}" AND GSI1SK BETWEEN "{price:from}" AND "{price:to}\U0010FFFF"`, "-"},
			{"AddStore", plan.PutItem, "primary", `PK = "STORE#{storeId}" AND SK = "STORE#{storeId}"`, "-"},
			{"MoveStore", plan.UpdateItem, "primary", `PK = "STORE#{storeId}" AND SK = "STORE#{storeId}"`, "-"},
			{"AddGood", plan.PutItem, "primary", `PK = "INV#{storeId}" AND SK = "{category}#{goodId}"`, "-"},
			{"SaveGood", plan.PutItem, "primary", `PK = "INV#{storeId}" AND SK = "{category}#{goodId}"`, "-"},
			{"Reprice", plan.UpdateItem, "primary", `PK = "INV#{storeId}" AND SK = "{category}#{goodId}"`, "-"},
			{"RemoveGood", plan.DeleteItem, "primary", `PK = "INV#{storeId}" AND SK = "{category}#{goodId}"`, "-"},
			// A good's category is in its key: a move is a delete and a
			// create, written together.
			{"MoveGood", plan.TransactWriteItems, "primary", "", "-"},
		},
	},
	{
		name: "orders",
		patterns: []wantPattern{
			{"CartContents", plan.Query, "primary", `cartId = "{cartId}"`, "-"},
			{"AddToCart", plan.UpdateItem, "primary", `cartId = "{cartId}" AND productId = "{productId}"`, "-"},
			{"ChangeQuantity", plan.UpdateItem, "primary", `cartId = "{cartId}" AND productId = "{productId}"`, "-"},
			{"RemoveFromCart", plan.DeleteItem, "primary", `cartId = "{cartId}" AND productId = "{productId}"`, "-"},
			// Lines and events in one Query of the order's collection.
			{"TrackingPage", plan.Query, "primary", `orderId = {orderId}`, "Order by prefix ORDER; OrderLine by _type; TrackingEvent by prefix EVENT#"},
			{"TrackingEvents", plan.Query, "primary", `orderId = {orderId} AND begins_with(SK, "EVENT#")`, "1 kept out by prefix; OrderLine kept out"},
			{"LatestTrackingEvent", plan.Query, "primary", `orderId = {orderId} AND begins_with(SK, "EVENT#")`, "1 kept out by prefix; OrderLine kept out"},
			{"PlaceOrder", plan.PutItem, "primary", `orderId = {orderId} AND SK = "ORDER"`, "-"},
			{"GetOrder", plan.GetItem, "primary", `orderId = {orderId} AND SK = "ORDER"`, "1 kept out by prefix; OrderLine kept out"},
			// The event and the order's status, written together.
			{"RecordTrackingEvent", plan.TransactWriteItems, "primary", "", "-"},
			{"AddOrderLine", plan.PutItem, "primary", `orderId = {orderId} AND SK = "{sku}"`, "-"},
			{"AddOrderLines", plan.BatchWriteItem, "primary", `orderId = {orderId} AND SK = "{sku}"`, "-"},
		},
	},
	{
		name: "retail",
		warnings: []string{
			"retail/spec.yaml:170:3: warning: pattern OrderOfCustomer filters on customerId: DynamoDB reads, and bills, every item the key condition selects, including those the filter drops",
		},
		patterns: []wantPattern{
			{"GetCustomer", plan.GetItem, "primary", `PK = "CUST#{customerId}" AND SK = "ROOT"`, "2 kept out by prefix"},
			{"OrdersOfCustomer", plan.Query, "primary", `PK = "CUST#{customerId}" AND begins_with(SK, "ORDR#")`, "2 kept out by prefix"},
			{"RecentOrders", plan.Query, "primary", `PK = "CUST#{customerId}" AND begins_with(SK, "ORDR#")`, "2 kept out by prefix"},
			{"GetOrder", plan.Query, "GSI", `GSIPK = "{orderId}" AND GSISK = "ROOT"`, "-"},
			{"OrderOfCustomer", plan.Query, "GSI", `GSIPK = "{orderId}" AND GSISK = "ROOT"`, "-"},
			{"InvoicesOfCustomer", plan.Query, "primary", `PK = "CUST#{customerId}" AND begins_with(SK, "INVC#")`, "2 kept out by prefix"},
			{"OrdersOfInvoice", plan.GetItem, "primary", `PK = "INVC#{invoiceId}" AND SK = "ROOT"`, "-"},
			{"CreateCustomer", plan.PutItem, "primary", `PK = "CUST#{customerId}" AND SK = "ROOT"`, "-"},
			{"PlaceOrder", plan.PutItem, "primary", `PK = "CUST#{customerId}" AND SK = "ORDR#{orderDate}#{orderId}"`, "-"},
			{"SetOrderStatus", plan.UpdateItem, "primary", `PK = "CUST#{customerId}" AND SK = "ORDR#{orderDate}#{orderId}"`, "-"},
			// The invoice, its invoice item and the order's mark, written
			// together.
			{"CreateInvoice", plan.TransactWriteItems, "primary", "", "-"},
		},
	},
	{
		name: "telemetryhub",
		warnings: []string{
			"telemetryhub/spec.yaml:36:7: warning: index Inverse projects all attributes, but its patterns read only first_name, last_name, role, created_at, grantedAt; projection: [first_name, last_name, role, created_at, grantedAt] would cut its storage and write cost",
			"telemetryhub/spec.yaml:48:48: warning: every Account item has partition key SK=\"metadata:account\" on index Inverse: one hot partition, limited to what one partition serves (3,000 reads and 1,000 writes a second); add a placeholder to spread the items",
		},
		patterns: []wantPattern{
			{"GetAccount", plan.GetItem, "primary", `PK = "account:{accountId}" AND SK = "metadata:account"`, "2 kept out by prefix"},
			{"GetUser", plan.GetItem, "primary", `PK = "account:{accountId}" AND SK = "user:{userId}"`, "2 kept out by prefix"},
			{"UsersOfAccount", plan.Query, "primary", `PK = "account:{accountId}" AND begins_with(SK, "user:")`, "2 kept out by prefix"},
			{"ServiceGroupsOfAccount", plan.Query, "primary", `PK = "account:{accountId}" AND begins_with(SK, "servicegroup:")`, "2 kept out by prefix"},
			{"AccountData", plan.Query, "primary", `PK = "account:{accountId}"`, "Account by prefix metadata:account; User by prefix user:; ServiceGroup by prefix servicegroup:"},
			{"ServiceGroupsOfUser", plan.Query, "primary", `PK = "user:{userId}" AND begins_with(SK, "servicegroup:")`, "-"},
			// The reverse lookup on the inverse GSI: its partition key is the
			// table's SK, its sort key the table's PK.
			{"UsersOfServiceGroup", plan.Query, "Inverse", `SK = "servicegroup:{serviceGroupId}" AND begins_with(PK, "user:")`, "1 kept out by prefix"},
			{"UserByID", plan.Query, "Inverse", `SK = "user:{userId}" AND begins_with(PK, "account:")`, "-"},
			{"CreateAccount", plan.PutItem, "primary", `PK = "account:{accountId}" AND SK = "metadata:account"`, "-"},
			{"CreateUser", plan.PutItem, "primary", `PK = "account:{accountId}" AND SK = "user:{userId}"`, "-"},
			{"CreateServiceGroup", plan.PutItem, "primary", `PK = "account:{accountId}" AND SK = "servicegroup:{serviceGroupId}"`, "-"},
			// The membership and the group's member count, written together.
			{"GrantServiceGroup", plan.TransactWriteItems, "primary", "", "-"},
			{"RevokeServiceGroup", plan.TransactWriteItems, "primary", "", "-"},
		},
	},
}

// steps holds, for each transaction of the models, its steps in order:
// each step's action and the key of its item, as the READMEs show them.
var steps = map[string][]string{
	"bookreviews/AddUser": {
		`create User: PK = "USER#{username}" AND SK = "USER#{username}"`,
		`claim User.email: PK = "UNIQUE#User#email#{email}" AND SK = "UNIQUE#User#email#{email}"`,
	},
	"bookreviews/ChangeEmail": {
		`update User: PK = "USER#{username}" AND SK = "USER#{username}"`,
		`release User.email: PK = "UNIQUE#User#email#{email}" AND SK = "UNIQUE#User#email#{email}"`,
		`claim User.email: PK = "UNIQUE#User#email#{email}" AND SK = "UNIQUE#User#email#{email}"`,
	},
	"bookreviews/WriteReview": {
		`create Review: PK = "BOOK#{isbn}" AND SK = "{reviewDate}#USER#{username}"`,
		`update Book: PK = "BOOK#{isbn}" AND SK = "BOOK#{isbn}"`,
	},
	"bookreviews/DeleteReview": {
		`delete Review: PK = "BOOK#{isbn}" AND SK = "{reviewDate}#USER#{username}"`,
		`update Book: PK = "BOOK#{isbn}" AND SK = "BOOK#{isbn}"`,
	},
	"storeinventory/MoveGood": {
		`delete Good: PK = "INV#{storeId}" AND SK = "{category}#{goodId}"`,
		`create Good: PK = "INV#{storeId}" AND SK = "{category}#{goodId}"`,
	},
	"orders/RecordTrackingEvent": {
		`create TrackingEvent: orderId = {orderId} AND SK = "EVENT#{eventId}"`,
		`update Order: orderId = {orderId} AND SK = "ORDER"`,
	},
	"retail/CreateInvoice": {
		`create Invoice: PK = "CUST#{customerId}" AND SK = "INVC#{invoiceId}"`,
		`create InvoiceOrder: PK = "INVC#{invoiceId}" AND SK = "ROOT"`,
		`update Order: PK = "CUST#{customerId}" AND SK = "ORDR#{orderDate}#{orderId}"`,
	},
	"telemetryhub/GrantServiceGroup": {
		`check User: PK = "account:{accountId}" AND SK = "user:{userId}"`,
		`create Membership: PK = "user:{userId}" AND SK = "servicegroup:{serviceGroupId}"`,
		`update ServiceGroup: PK = "account:{accountId}" AND SK = "servicegroup:{serviceGroupId}"`,
	},
	"telemetryhub/RevokeServiceGroup": {
		`delete Membership: PK = "user:{userId}" AND SK = "servicegroup:{serviceGroupId}"`,
		`update ServiceGroup: PK = "account:{accountId}" AND SK = "servicegroup:{serviceGroupId}"`,
	},
}

// caught holds, for each model whose article's literal layout dyngen
// refuses, every diagnostic dyngen gives on it (caught.yaml).
var caught = map[string][]string{
	"storeinventory": {
		`storeinventory/caught.yaml:18:3: entity Store gives the Go name Store, which the generated package declares itself; set go: on the entity, e.g. go: StoreItem`,
		`storeinventory/caught.yaml:33:46: template "{price}" of Good on index GSI1: {price} is a float, which has no order-preserving text form; use an int, or a key attribute of type N`,
	},
	"orders": {
		`orders/caught.yaml:40:16: OrderLine and TrackingEvent can have the same key on table Orders: orderId={orderId} SK="{sku}" (OrderLine) and orderId={orderId} SK="{eventId}" (TrackingEvent) both give orderId=0 SK="0000000000000000000" for OrderLine orderId="0", sku="0" and TrackingEvent eventId="0000000000000000000", orderId="0"; give TrackingEvent a sort key of its own that OrderLine's values can't produce, e.g. keys primary: {sk: "TRACKINGEVENT#{eventId}"} on TrackingEvent`,
	},
	"retail": {
		`retail/caught.yaml:43:16: Customer and InvoiceOrder can have the same key on table retail_table: PK="{customerId}" SK="ROOT" (Customer) and PK="{invoiceId}" SK="ROOT" (InvoiceOrder) both give PK="a" SK="ROOT" for Customer customerId="a" and InvoiceOrder invoiceId="a"; give InvoiceOrder a sort key of its own that Customer's values can't produce, e.g. keys primary: {sk: "INVOICEORDER"} on InvoiceOrder`,
	},
}

func check(t *testing.T, path string) *generator.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return generator.Check(path, data)
}

func diagStrings(ds []diag.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}

func TestPlans(t *testing.T) {
	for _, m := range models {
		t.Run(m.name, func(t *testing.T) {
			res := check(t, m.name+"/spec.yaml")
			if errs := res.Diags.Errors(); len(errs) > 0 {
				t.Fatalf("spec.yaml has errors:\n%s", strings.Join(diagStrings(errs), "\n"))
			}
			got := diagStrings(res.Diags.Sorted())
			want := m.warnings
			if want == nil {
				want = []string{}
			}
			if !slices.Equal(got, want) {
				t.Errorf("warnings:\n got %q\nwant %q", got, want)
			}
			if res.Plan == nil {
				t.Fatal("no plan")
			}
			if len(res.Model.Patterns) != len(m.patterns) {
				var names []string
				for _, p := range res.Model.Patterns {
					names = append(names, p.Name)
				}
				t.Errorf("spec has patterns %v, the test expects %d", names, len(m.patterns))
			}
			planned := map[string]*plan.Pattern{}
			for _, pp := range res.Plan.Patterns {
				planned[pp.Pattern.Name] = pp
			}
			for i, w := range m.patterns {
				if i < len(res.Model.Patterns) && res.Model.Patterns[i].Name != w.name {
					t.Errorf("pattern %d is %s, want %s", i, res.Model.Patterns[i].Name, w.name)
				}
				pp := planned[w.name]
				if pp == nil {
					t.Errorf("%s: not planned", w.name)
					continue
				}
				if pp.Call != w.call {
					t.Errorf("%s: call %s, want %s", w.name, pp.Call, w.call)
				}
				if pp.Index == nil || pp.Index.Name != w.index {
					t.Errorf("%s: index %v, want %s", w.name, indexName(pp), w.index)
				}
				key := ""
				if pp.Key != nil {
					key = pp.Key.Describe()
				}
				if key != w.key {
					t.Errorf("%s: key condition\n got %s\nwant %s", w.name, key, w.key)
				}
				if o := othersOf(pp); o != w.others {
					t.Errorf("%s: other entities\n got %s\nwant %s", w.name, o, w.others)
				}
				want, isTx := steps[m.name+"/"+w.name]
				if (pp.Tx != nil) != isTx {
					t.Errorf("%s: a transaction %t, the test expects %t", w.name, pp.Tx != nil, isTx)
					continue
				}
				if got := stepsOf(pp); isTx && !slices.Equal(got, want) {
					t.Errorf("%s: steps\n got %q\nwant %q", w.name, got, want)
				}
			}
		})
	}
}

// stepsOf returns each step of a transaction as its action and the key of
// its item.
func stepsOf(pp *plan.Pattern) []string {
	var out []string
	if pp.Tx == nil {
		return out
	}
	for _, s := range pp.Tx.Steps {
		key := ""
		if s.Plan.Key != nil {
			key = s.Plan.Key.Describe()
		}
		out = append(out, s.Step.Action()+": "+key)
	}
	return out
}

func TestCaught(t *testing.T) {
	for _, m := range models {
		t.Run(m.name, func(t *testing.T) {
			path := m.name + "/caught.yaml"
			want, ok := caught[m.name]
			if _, err := os.Stat(path); err != nil {
				if ok {
					t.Fatalf("%s is missing", path)
				}
				return // dyngen accepts the article's literal layout
			}
			if !ok {
				t.Fatalf("%s exists but the test expects no refusal for %s", path, m.name)
			}
			res := check(t, path)
			got := diagStrings(res.Diags.Sorted())
			if !slices.Equal(got, want) {
				t.Errorf("diagnostics of %s:\n got %s\nwant %s", path, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
			}
			if len(res.Diags.Errors()) == 0 {
				t.Errorf("%s: dyngen accepts it", path)
			}
		})
	}
}

func indexName(pp *plan.Pattern) string {
	if pp.Index == nil {
		return "<nil>"
	}
	return pp.Index.Name
}

// othersOf says how a read keeps items of other entities out of its result:
// per member of a collection, how its items are recognized ("by prefix P",
// "by _type"); the entities the key condition never reads (counted, "N kept
// out by prefix", when their sort keys start with other text; "kept out"
// by name otherwise); the entities read and then dropped ("dropped by
// ...").
func othersOf(pp *plan.Pattern) string {
	var parts []string
	if len(pp.Members) > 1 {
		for _, m := range pp.Members {
			switch m.How {
			case plan.BySortKeyPrefix:
				parts = append(parts, fmt.Sprintf("%s by prefix %s", m.Entity.Name, m.Prefix))
			case plan.ByEntityAttr:
				parts = append(parts, fmt.Sprintf("%s by %s", m.Entity.Name, pp.Index.Table.EntityAttr))
			default:
				parts = append(parts, m.Entity.Name+" by key")
			}
		}
	}
	if n := pp.KeptOut.ByPrefix; n > 0 {
		parts = append(parts, fmt.Sprintf("%d kept out by prefix", n))
	}
	for _, e := range pp.KeptOut.Others {
		parts = append(parts, e.Name+" kept out")
	}
	for _, f := range pp.Foreign {
		parts = append(parts, f.Entity.Name+" dropped by "+strconv.Quote(f.How.String()))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}
