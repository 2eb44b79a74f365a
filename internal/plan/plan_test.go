package plan_test

import (
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/corpus"
	"github.com/dyngen/dyngen/internal/plan"
)

func check(t *testing.T, patterns string) *generator.Result {
	t.Helper()
	return generator.Check("spec.yaml", []byte(corpus.Shop+patterns))
}

// planned plans the patterns and fails on any error.
func planned(t *testing.T, patterns string) map[string]*plan.Pattern {
	t.Helper()
	res := check(t, patterns)
	if errs := res.Diags.Errors(); len(errs) > 0 {
		t.Fatalf("unexpected errors:\n%v", res.Diags.Err())
	}
	out := map[string]*plan.Pattern{}
	for _, pp := range res.Plan.Patterns {
		out[pp.Pattern.Name] = pp
	}
	return out
}

// refused plans the patterns and returns the error text, failing when
// there is none.
func refused(t *testing.T, patterns string) string {
	t.Helper()
	res := check(t, patterns)
	err := res.Diags.Err()
	if err == nil {
		t.Fatalf("no error for patterns:\n%s", patterns)
	}
	return err.Error()
}

func TestReadPlans(t *testing.T) {
	tests := []struct {
		name, pattern       string
		call                plan.Call
		index, key, members string
	}{
		{"get by primary key", "{get: Customer}", plan.GetItem, "primary",
			`PK = "CUSTOMER#{customerId}" AND SK = "PROFILE"`, "Customer:key condition"},
		{"get through a GSI whose key it binds", "{get: Customer, by: [email]}", plan.Query, "GSI1",
			`GSI1PK = "EMAIL#{email}" AND GSI1SK = "CUSTOMER"`, "Customer:key condition"},
		{"rule 2: by binds the leading sort key placeholders", "{query: Line, by: [customerId, orderId]}", plan.Query, "primary",
			`PK = "CUSTOMER#{customerId}" AND begins_with(SK, "LINE#{orderId}#")`, "Line:key condition"},
		{"literal prefix keeps the other entities out", "{query: Order, by: [customerId]}", plan.Query, "primary",
			`PK = "CUSTOMER#{customerId}" AND begins_with(SK, "ORDER#")`, "Order:key condition"},
		{"rule 3: where on the next placeholder, a time", "{query: Order, by: [customerId], where: {placed: \">=\"}}", plan.Query, "primary",
			`PK = "CUSTOMER#{customerId}" AND SK BETWEEN "ORDER#{placed}" AND "ORDER#{placed:max}\U0010FFFF"`, "Order:key condition"},
		{"strict less on a fixed-width placeholder", "{query: Order, by: [customerId], where: {placed: \"<\"}}", plan.Query, "primary",
			`PK = "CUSTOMER#{customerId}" AND SK BETWEEN "ORDER#{placed:min}" AND "ORDER#{placed}"`, "Order:key condition"},
		{"between", "{query: Order, by: [status], where: {placed: between}}", plan.Query, "GSI1",
			`GSI1PK = "STATUS#{status}" AND GSI1SK BETWEEN "{placed:from}" AND "{placed:to}\U0010FFFF"`, "Order:key condition"},
		{"the planner picks the index whose pk the inputs build", "{query: Order, by: [status], order: desc}", plan.Query, "GSI1",
			`GSI1PK = "STATUS#{status}"`, "Order:key condition"},
		{"LSI: the table's partition, another sort key", "{query: Order, by: [customerId], where: {total: \">\"}, index: LSI1}", plan.Query, "LSI1",
			`PK = "CUSTOMER#{customerId}" AND LSI1SK BETWEEN "TOTAL#{total}\U0010FFFF" AND "TOTAL#{total:max}\U0010FFFF"`, "Order:key condition"},
		{"consistent reads on an LSI", "{query: Order, by: [customerId], index: LSI1, consistent: true}", plan.Query, "LSI1",
			`PK = "CUSTOMER#{customerId}" AND begins_with(LSI1SK, "TOTAL#")`, "Order:key condition"},
		{"the inverted index holds every entity", "{query: Order, by: [placed, orderId], index: Inverted}", plan.Query, "Inverted",
			`SK = "ORDER#{placed}#{orderId}" AND begins_with(PK, "CUSTOMER#")`, "Order:key condition"},
		{"rule 6: one Query, several entities, told apart by prefix", "{query: [Customer, Order, Line], by: [customerId]}", plan.Query, "primary",
			`PK = "CUSTOMER#{customerId}"`, `Customer:sort key prefix "PROFILE",Order:sort key prefix "ORDER#",Line:sort key prefix "LINE#"`},
		{"INCLUDE projection: dyngen adds the key attributes", "{query: Order, by: [customerId], index: ByTotal, select: [total, orderId]}", plan.Query, "ByTotal",
			`GSI3PK = "TOTALS#{customerId}"`, "Order:key condition"},
		{"KEYS projection: attributes decoded from the keys", "{query: Order, by: [orderId], select: [orderId, customerId, placed]}", plan.Query, "ByKeys",
			`GSI2PK = "ORDERID#{orderId}" AND GSI2SK = "ORDER"`, "Order:key condition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pp := planned(t, "  P: "+tt.pattern+"\n")["P"]
			if pp.Call != tt.call || pp.Index.Name != tt.index {
				t.Errorf("call %s on %s, want %s on %s", pp.Call, pp.Index.Name, tt.call, tt.index)
			}
			if got := pp.Key.Describe(); got != tt.key {
				t.Errorf("key condition\n got %s\nwant %s", got, tt.key)
			}
			var members []string
			for _, m := range pp.Members {
				s := m.Entity.Name + ":" + m.How.String()
				if m.Prefix != "" {
					s += " " + `"` + m.Prefix + `"`
				}
				members = append(members, s)
			}
			if got := strings.Join(members, ","); got != tt.members {
				t.Errorf("members %s, want %s", got, tt.members)
			}
		})
	}
}

func TestReadRefusals(t *testing.T) {
	tests := []struct {
		name, pattern string
		want          []string // parts of the error text
	}{
		{"rule 1: partition key not bound", "{query: Order, by: [total]}",
			[]string{"spec.yaml:46:3: pattern P would need a Scan", `primary: its partition key PK="CUSTOMER#{customerId}" needs customerId, which is not in by`, "Add customerId to by; or add an index whose partition key is built from [total]", `e.g. GSI5: {partitionKey: GSI5PK, sortKey: GSI5SK} with keys GSI5: {pk: "TOTAL#{total}", sk: "{customerId}#{placed}#{orderId}"} on Order`}},
		{"rule 1: the index binds the partition but lacks attributes: no new index proposed", "{query: Order, by: [orderId]}",
			[]string{"ByKeys: it does not project status of Order (projection keys); project it"}},
		{"a query without by", "{query: Order}",
			[]string{"A query needs by: the attributes its partition key is built from."}},
		{"rule 2: by skips a sort key placeholder", "{query: Line, by: [customerId, sku]}",
			[]string{`primary: by sku is not a leading placeholder of the sort key SK="LINE#{orderId}#{sku}" (after the bound part "LINE#")`}},
		{"rule 3: where is not the next placeholder", "{query: Order, by: [customerId], where: {orderId: \">\"}}",
			[]string{`where orderId must be the next placeholder of the sort key SK="ORDER#{placed}#{orderId}" after the bound part, which is placed`}},
		{"rule 3: where on a string followed by more of the key", "{query: Line, by: [customerId], where: {orderId: \">=\"}}",
			[]string{"where orderId >=: orderId is a string followed by more of the sort key"}},
		{"rule 4: order on a string followed by more of the key", "{query: Line, by: [customerId], order: desc}",
			[]string{"order sorts by the sort key SK=\"LINE#{orderId}#{sku}\", whose next part {orderId} is a string followed by more text"}},
		{"rule 5: a keys-only index lacks attributes", "{query: Order, by: [orderId], index: ByKeys}",
			[]string{"ByKeys: it does not project status of Order (projection keys)"}},
		{"rule 5: an INCLUDE index lacks attributes", "{query: Order, by: [customerId], index: ByTotal}",
			[]string{"ByTotal: it does not project status of Order (projection [total, _type, customerId, orderId, placed])"}},
		{"rule 6: entities in different partitions", "{query: [Order, Line], by: [customerId], index: LSI1}",
			[]string{`LSI1: Line is not in this index`}},
		{"consistent read on a GSI", "{query: Order, by: [status], consistent: true}",
			[]string{"GSI1: a global index has no consistent reads"}},
		{"filter on a key attribute of the index", "{query: Order, by: [customerId], index: primary, filter: {note: exists}}", nil},
		{"get that leaves the sort key open", "{get: Order, by: [customerId]}",
			[]string{`primary: get needs the whole key; by customerId leaves the sort key SK="ORDER#{placed}#{orderId}" open`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == nil {
				// Filter on a non-key attribute is accepted (with a warning).
				res := check(t, "  P: "+tt.pattern+"\n")
				if res.Diags.HasErrors() {
					t.Fatalf("unexpected errors: %v", res.Diags.Err())
				}
				if res.Diags.Len() == 0 {
					t.Fatal("no warning about the filter's read cost")
				}
				return
			}
			msg := refused(t, "  P: "+tt.pattern+"\n")
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not say %q:\n%s", w, msg)
				}
			}
		})
	}
}

func TestNarrowingKeepsOtherEntitiesOut(t *testing.T) {
	spec := `
version: 1
package: books
tables:
  Books: {partitionKey: PK, sortKey: SK}
entities:
  Book:
    attributes: {isbn: string, title: string}
    keys: {primary: {pk: "BOOK#{isbn}", sk: "BOOK#{isbn}"}}
  Review:
    attributes: {isbn: string, username: string, date: time}
    keys: {primary: {pk: "BOOK#{isbn}", sk: "{date}#USER#{username}"}}
patterns:
  Reviews: {query: Review, by: [isbn], order: desc}
  Page: {query: [Book, Review], by: [isbn]}
`
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	reviews, page := res.Plan.Patterns[0], res.Plan.Patterns[1]
	// A review's sort key starts with a date: the read is bounded to the
	// range of dates, which "BOOK#..." is outside of.
	if got, want := reviews.Key.Describe(), `PK = "BOOK#{isbn}" AND SK BETWEEN "{date:min}" AND "{date:max}\U0010FFFF"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if !reviews.Key.SK.Narrowed || len(reviews.Foreign) != 0 || reviews.KeptOut.ByPrefix != 0 || len(reviews.KeptOut.Others) != 1 || reviews.KeptOut.Others[0].Name != "Book" {
		t.Errorf("Book should be kept out by the key condition: narrowed %v, foreign %v, kept out %v", reviews.Key.SK.Narrowed, reviews.Foreign, reviews.KeptOut)
	}
	// In the collection, Book has a prefix of its own, Review does not.
	if page.Members[0].How != plan.BySortKeyPrefix || page.Members[1].How != plan.ByEntityAttr {
		t.Errorf("members: %v %v", page.Members[0], page.Members[1])
	}
}

func TestPrefixCaptureIsTellApartByEntityAttribute(t *testing.T) {
	spec := `
version: 1
package: users
tables:
  Users: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes: {org: string, name: string}
    keys: {primary: {pk: "ORG#{org}", sk: "USER#{name}"}}
  Admin:
    attributes: {org: string, id: string}
    keys: {primary: {pk: "ORG#{org}", sk: "USER#ADMIN#{id}"}}
patterns:
  Users: {query: User, by: [org]}
  Admins: {query: Admin, by: [org]}
`
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	users, admins := res.Plan.Patterns[0], res.Plan.Patterns[1]
	// begins_with(SK, "USER#") also reads admins: the entity attribute
	// drops them, and the plan says so.
	if len(users.Foreign) != 1 || users.Foreign[0].Entity.Name != "Admin" || users.Members[0].How != plan.ByEntityAttr {
		t.Errorf("users: foreign %v, members %v", users.Foreign, users.Members[0])
	}
	// begins_with(SK, "USER#ADMIN#") reads no user: "ADMIN" can't be a
	// name followed by "#", since names can't hold "#".
	if len(admins.Foreign) != 0 {
		t.Errorf("admins: foreign %v", admins.Foreign)
	}
}

func TestNaturalKeysAndNumbers(t *testing.T) {
	spec := `
version: 1
package: orders
tables:
  Orders:
    partitionKey: {name: orderId, type: N}
    sortKey: SK
  Carts:
    partitionKey: cartId
    sortKey: productId
entities:
  Line:
    table: Orders
    attributes: {orderId: int, sku: int, quantity: int}
    keys: {primary: {sk: "LINE#{sku}"}}
  Event:
    table: Orders
    attributes: {orderId: int, eventId: string, at: time}
    keys: {primary: {sk: "EVENT#{eventId}"}}
  CartItem:
    table: Carts
    attributes: {cartId: string, productId: string, quantity: int}
patterns:
  Tracking: {query: [Line, Event], by: [orderId]}
  Events: {query: Event, by: [orderId], order: asc}
  Cart: {query: CartItem, by: [cartId]}
  AddToCart: {update: CartItem, add: [quantity], upsert: true}
`
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	want := []string{
		`orderId = {orderId}`,
		`orderId = {orderId} AND begins_with(SK, "EVENT#")`,
		`cartId = "{cartId}"`,
		`cartId = "{cartId}" AND productId = "{productId}"`,
	}
	for i, pp := range res.Plan.Patterns {
		if got := pp.Key.Describe(); got != want[i] {
			t.Errorf("%s: got %s, want %s", pp.Pattern.Name, got, want[i])
		}
	}
	if c := res.Plan.Patterns[3].Request.Condition; strings.Contains(c, "attribute_exists(#pk)") {
		t.Errorf("an upsert has no existence condition; got %q", c)
	}
}

func TestHierarchy(t *testing.T) {
	spec := `
version: 1
package: inventory
tables:
  Inventory: {partitionKey: PK, sortKey: SK}
entities:
  Good:
    attributes: {storeId: string, category: path, goodId: string}
    keys: {primary: {pk: "INV#{storeId}", sk: "{category}#{goodId}"}}
patterns:
  InCategory: {query: Good, by: [storeId], where: {category: beginsWith}}
  Under: {query: Good, by: [storeId, category]}
`
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	if got, want := res.Plan.Patterns[0].Key.Describe(), `PK = "INV#{storeId}" AND begins_with(SK, "{category}#")`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := res.Plan.Patterns[1].Key.Describe(), `PK = "INV#{storeId}" AND begins_with(SK, "{category}#")`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestUpdates(t *testing.T) {
	const spec = `
version: 1
package: tickets
tables:
  Tickets:
    partitionKey: PK
    sortKey: SK
    indexes:
      ByQueue: {partitionKey: GSI1PK, sortKey: GSI1SK}
      ByScore: {partitionKey: GSI2PK, sortKey: GSI2SK}
entities:
  Ticket:
    attributes:
      id: string
      queue: string
      status: {type: enum, values: [open, closed]}
      opened: time
      score: int
      note: {type: string, optional: true}
    keys:
      primary: {pk: "TICKET#{id}", sk: "TICKET"}
      ByQueue: {pk: "QUEUE#{queue}", sk: "{status}#{opened}#{id}"}
      ByScore: {pk: "SCORES", sk: "{score}#{id}"}
patterns:
`
	run := func(patterns string) *generator.Result {
		return generator.Check("spec.yaml", []byte(spec+patterns))
	}
	res := run(`  Close: {update: Ticket, set: [status, opened]}
  Move: {update: Ticket, set: [queue]}
  Unnote: {update: Ticket, remove: [note], when: {status: {"=": open}}}
  ByQueue: {query: Ticket, by: [queue]}
  ByScore: {query: Ticket, by: [], index: ByScore}
`)
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	got := map[string]*plan.Pattern{}
	for _, pp := range res.Plan.Patterns {
		got[pp.Pattern.Name] = pp
	}
	if r := got["Close"].Rebuild; len(r) != 1 || r[0].KeyAttr.Name != "GSI1SK" {
		t.Errorf("Close should rewrite GSI1SK only: %+v", r)
	}
	if r := got["Move"].Rebuild; len(r) != 1 || r[0].KeyAttr.Name != "GSI1PK" {
		t.Errorf("Move should rewrite GSI1PK only: %+v", r)
	}
	if c := got["Unnote"].Request.Condition; c != "attribute_exists(PK) AND #status = :status_when" {
		t.Errorf("condition %q", c)
	}
	for _, tt := range []struct{ pattern, want string }{
		{"{update: Ticket, set: [id]}", `update P can't set id: it is part of the primary key PK="TICKET#{id}"`},
		{"{update: Ticket, set: [status]}", `update P changes status, so it must rewrite GSI1SK="{status}#{opened}#{id}" on ByQueue, which also needs opened; add opened to set`},
		{"{update: Ticket, add: [score]}", `update P adds to score, which GSI2SK="{score}#{id}" on ByScore holds; an atomic add gives no value to rebuild the key with, so use set`},
		{"{update: Ticket, set: [note], upsert: true}", "update P has upsert: true, so it may create the item, but it gives no value for queue, status, opened, score, which every Ticket has"},
		{"{update: Ticket, remove: [score]}", "remove score: the attribute is not optional"},
	} {
		res := run("  P: " + tt.pattern + "\n")
		if err := res.Diags.Err(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error does not say %q:\n%v", tt.pattern, tt.want, err)
		}
	}
}

func TestCollisions(t *testing.T) {
	spec := `
version: 1
package: retail
tables:
  retail_table: {partitionKey: PK, sortKey: SK}
entities:
  Customer:
    attributes: {customerId: string}
    keys: {primary: {pk: "{customerId}", sk: "ROOT"}}
  Invoice:
    attributes: {invoiceId: string}
    keys: {primary: {pk: "{invoiceId}", sk: "ROOT"}}
  Counter:
    attributes: {n: int}
    keys: {primary: {pk: "C#{n}", sk: "X"}}
  Named:
    attributes: {name: string}
    keys: {primary: {pk: "C#{name}", sk: "X"}}
`
	res := generator.Check("spec.yaml", []byte(spec))
	msg := res.Diags.Err().Error()
	for _, want := range []string{
		`Customer and Invoice can have the same key on table retail_table: PK="{customerId}" SK="ROOT" (Customer) and PK="{invoiceId}" SK="ROOT" (Invoice) both give PK=`,
		`Counter and Named can have the same key on table retail_table`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
	// "{customerId}" can be "C#5", but the sort keys ROOT and X differ.
	if strings.Contains(msg, "Customer and Counter") {
		t.Errorf("Customer and Counter have different sort keys:\n%s", msg)
	}
	// Both sort keys are the constant ROOT: a sort key of its own for one
	// entity sets them apart, and keeps every item in its partition.
	if !strings.Contains(msg, `give Invoice a sort key of its own that Customer's values can't produce, e.g. keys primary: {sk: "INVOICE"} on Invoice`) {
		t.Errorf("the fix should give Invoice a sort key of its own:\n%s", msg)
	}
}

// A collision fix changes the key part that sets the two entities apart
// most simply, never moving an entity out of an item collection.
func TestCollisionFixes(t *testing.T) {
	tests := []struct {
		name, entities, want string
	}{
		{"one item collection: the sort keys differ, not the partitions", `
  Order:
    attributes: {customerId: string, orderId: string}
    keys: {primary: {pk: "CUSTOMER#{customerId}", sk: "{orderId}"}}
  Invoice:
    attributes: {customerId: string, invoiceId: string}
    keys: {primary: {pk: "CUSTOMER#{customerId}", sk: "{invoiceId}"}}`,
			`give each entity a sort key prefix of its own that the other's values can't produce, e.g. keys primary: {sk: "ORDER#{orderId}"} on Order and keys primary: {sk: "INVOICE#{invoiceId}"} on Invoice`},
		{"a constant partition against a placeholder: one partition key is enough", `
  Tally:
    attributes: {orderId: string}
    keys: {primary: {pk: "ALL", sk: "{orderId}"}}
  Note:
    attributes: {noteId: string, at: string}
    keys: {primary: {pk: "{noteId}", sk: "{at}"}}`,
			`give Note a partition key of its own that Tally's values can't produce, e.g. keys primary: {pk: "NOTE#{noteId}"} on Note`},
		{"the entity that shares its partition keeps it", `
  Customer:
    attributes: {customerId: string}
    keys: {primary: {pk: "{customerId}", sk: "{customerId}"}}
  Order:
    attributes: {customerId: string, orderId: string}
    keys: {primary: {pk: "{customerId}", sk: "ORDER#{orderId}"}}
  Invoice:
    attributes: {invoiceId: string}
    keys: {primary: {pk: "{invoiceId}", sk: "{invoiceId}"}}`,
			`give Invoice a sort key of its own that Customer's values can't produce, e.g. keys primary: {sk: "INVOICE#{invoiceId}"} on Invoice`},
		{"a table without sort key: the partition keys", `
  Customer:
    table: Flat
    attributes: {customerId: string}
    keys: {primary: {pk: "{customerId}"}}
  Invoice:
    table: Flat
    attributes: {invoiceId: string}
    keys: {primary: {pk: "{invoiceId}"}}`,
			`give each entity a partition key prefix of its own that the other's values can't produce, e.g. keys primary: {pk: "CUSTOMER#{customerId}"} on Customer and keys primary: {pk: "INVOICE#{invoiceId}"} on Invoice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := "version: 1\npackage: shop\ntables:\n  Shop: {partitionKey: PK, sortKey: SK}\n  Flat: {partitionKey: PK}\nentities:" + tt.entities + "\n"
			if !strings.Contains(tt.entities, "table: Flat") {
				spec = strings.Replace(spec, "  Flat: {partitionKey: PK}\n", "", 1)
			}
			err := generator.Check("spec.yaml", []byte(spec)).Diags.Err()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("want %q in:\n%v", tt.want, err)
			}
		})
	}
}

// A range or an order on an enum in a sort key compares its values' text:
// served only when the values are declared in the order of their text.
func TestEnumOrder(t *testing.T) {
	spec := func(values, pattern string) string {
		return `
version: 1
package: alerts
tables:
  Alerts: {partitionKey: PK, sortKey: SK}
entities:
  Alert:
    attributes:
      host: string
      severity: {type: enum, values: ` + values + `}
    keys: {primary: {pk: "HOST#{host}", sk: "{severity}"}}
patterns:
  P: ` + pattern + "\n"
	}
	unsorted, sorted := "[info, warning, critical]", "[a1info, b2warning, c3critical]"
	tests := []struct {
		values, pattern, want string // want "" when served
	}{
		{unsorted, `{query: Alert, by: [host], where: {severity: ">="}}`, "where severity >=: severity is an enum, whose key text sorts as text (critical, info, warning), not in its declared order (info, warning, critical)"},
		{unsorted, `{query: Alert, by: [host], where: {severity: between}}`, "where severity between: severity is an enum"},
		{unsorted, `{query: Alert, by: [host], order: desc}`, "order sorts by the sort key SK=\"{severity}\", whose next part {severity} holds the text of the value: severity is an enum"},
		{unsorted, `{query: Alert, by: [host], order: asc}`, "order sorts by the sort key"},
		{unsorted, `{query: Alert, by: [host], where: {severity: beginsWith}}`, ""},
		{unsorted, `{query: Alert, by: [host]}`, ""},
		{sorted, `{query: Alert, by: [host], where: {severity: ">="}}`, ""},
		{sorted, `{query: Alert, by: [host], order: desc}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.values+" "+tt.pattern, func(t *testing.T) {
			err := generator.Check("spec.yaml", []byte(spec(tt.values, tt.pattern))).Diags.Err()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("want %q in:\n%v", tt.want, err)
			}
		})
	}
}

// A refusal names its real reason, and proposes a fix that works.
func TestRefusalReasons(t *testing.T) {
	tests := []struct {
		name, pattern string
		want          []string
		not           []string
	}{
		{"a consistent read only a GSI serves is no Scan problem", "{get: Customer, by: [email], consistent: true}",
			[]string{"pattern P asks for consistent: true, which only the table and its local indexes serve, and none of them serves it",
				"GSI1: a global index has no consistent reads (without consistent: true it would serve the pattern)",
				"Remove consistent: true"},
			[]string{"Scan", "add an index"}},
		{"a consistent read with the table's partition: a local index", "{query: Order, by: [customerId, status], consistent: true}",
			[]string{"Add a local index (DynamoDB creates local indexes only with the table), e.g. LSI2: {local: true, sortKey: LSI2SK} with keys LSI2: {sk: \"{status}#{placed}#{orderId}\"} on Order"},
			nil},
		{"a bound partition whose sort key does not fit is no Scan problem", "{query: Line, by: [customerId, sku]}",
			[]string{"pattern P: by builds the partition key of primary, but the rest of the pattern does not fit (primary: by sku is not a leading placeholder"},
			[]string{"Scan"}},
		{"a get proposal binds the whole key", "{get: Line, by: [sku]}",
			[]string{`with keys GSI5: {pk: "SKU#{sku}", sk: "LINE"} on Line`},
			nil},
		{"by lacks what the partition key needs", "{get: Line, by: [orderId, sku]}",
			[]string{"Add customerId to by"},
			nil},
		{"a forced index another index can replace", "{query: Order, by: [customerId], index: GSI1}",
			[]string{"Remove index: GSI1 (primary serves the pattern)"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := refused(t, "  P: "+tt.pattern+"\n")
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not say %q:\n%s", w, msg)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(msg, w) {
					t.Errorf("error says %q:\n%s", w, msg)
				}
			}
		})
	}
}

func TestStartKey(t *testing.T) {
	pps := planned(t, `
  OrdersOf: {query: Order, by: [customerId]}
  OrdersByStatus: {query: Order, by: [status], where: {placed: between}, index: GSI1}
  OrdersByTotal: {query: Order, by: [customerId], where: {total: ">="}, index: LSI1}
  CustomersInverted: {query: Customer, index: Inverted}
`)
	show := func(attrs []plan.StartAttr) string {
		var out []string
		for _, a := range attrs {
			s := a.Name + ":" + string(a.Type)
			if a.Sort {
				s += ":sort"
			}
			out = append(out, s)
		}
		return strings.Join(out, " ")
	}
	for name, want := range map[string]string{
		// The table's key: its two attributes.
		"OrdersOf": "PK:S SK:S:sort",
		// A GSI: its key, then the table's.
		"OrdersByStatus": "GSI1PK:S GSI1SK:S:sort PK:S SK:S:sort",
		// An LSI shares the table's partition key: three attributes.
		"OrdersByTotal": "PK:S LSI1SK:S:sort SK:S:sort",
		// An inverted index: the table's two attributes, each a sort key
		// of one of them.
		"CustomersInverted": "SK:S:sort PK:S:sort",
	} {
		pp, ok := pps[name]
		if !ok {
			t.Errorf("no plan for %s", name)
			continue
		}
		if got := show(pp.Key.StartKey()); got != want {
			t.Errorf("%s: StartKey = %s, want %s", name, got, want)
		}
	}
	for kind, want := range map[plan.SKKind]string{
		plan.SKNone: "", plan.SKEq: "=", plan.SKBeginsWith: "begins_with", plan.SKBetween: "BETWEEN",
		plan.SKLt: "<", plan.SKLe: "<=", plan.SKGt: ">", plan.SKGe: ">=",
	} {
		if got := kind.Operator(); got != want {
			t.Errorf("SKKind(%d).Operator() = %q, want %q", kind, got, want)
		}
		// The expression the plan sends uses the same operator.
		k := &plan.KeyCond{SK: plan.SKCond{Kind: kind}}
		if want != "" && !strings.Contains(k.Expression(), want) {
			t.Errorf("the key condition of kind %d, %q, lacks %q", kind, k.Expression(), want)
		}
	}
}

// TestQueryOrderAndLimit: the plan decides each Query's order
// (ScanIndexForward) and limit, which the generated code sends and the
// reports print: a page's limit is the pattern's, a get through an index
// and a first item read one item, in sort key order unless order: desc.
func TestQueryOrderAndLimit(t *testing.T) {
	pps := planned(t, `
  Recent: {query: Order, by: [customerId], order: desc, limit: 20}
  All: {query: Order, by: [customerId]}
  Latest: {query: Order, by: [customerId], order: desc, first: true}
  ByEmail: {get: Customer, by: [email], index: GSI1}
  GetOrder: {get: Order}
`)
	for _, c := range []struct {
		name             string
		limit, pageLimit int
		desc             bool
		order            string
	}{
		{"Recent", 0, 20, true, "desc"},
		{"All", 0, 0, false, "asc"},
		{"Latest", 1, 0, true, "desc"},
		{"ByEmail", 1, 0, false, "asc"},
		{"GetOrder", 0, 0, false, ""},
	} {
		pp := pps[c.name]
		r := pp.Request
		if r.Limit != c.limit || r.PageLimit != c.pageLimit || r.Descending != c.desc {
			t.Errorf("%s: limit %d, page limit %d, descending %v; want %d, %d, %v", c.name, r.Limit, r.PageLimit, r.Descending, c.limit, c.pageLimit, c.desc)
		}
		if got := string(r.Order()); got != c.order {
			t.Errorf("%s: order %q, want %q", c.name, got, c.order)
		}
	}
}
