package plan_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// layoutSpec has an entity whose MarshalItem does every kind of step:
// a sparse index with a string and a number key, a natural key, and
// string keys every item has, which share one buffer and a time.
const layoutSpec = `version: 1
package: shop
tables:
  Shop:
    partitionKey: PK
    sortKey: SK
    indexes:
      ByState: {partitionKey: GSI1PK, sortKey: GSI1SK}
      ByCoupon: {partitionKey: GSI2PK, sortKey: {name: GSI2SK, type: N}}
      ByCustomer: {partitionKey: customerId, sortKey: GSI3SK}
entities:
  Order:
    attributes:
      customerId: string
      orderId: string
      placed: time
      state: {type: enum, values: [open, shipped]}
      total: int
      coupon: {type: string, optional: true}
      tags: stringSet
    keys:
      primary: {pk: "CUSTOMER#{customerId}", sk: "ORDER#{placed}#{orderId}"}
      ByState: {pk: "STATE#{state}", sk: "{placed}"}
      ByCoupon: {pk: "COUPON#{coupon}", sk: "{total}"}
      ByCustomer: {sk: "{placed}"}
patterns:
  GetOrder: {get: Order}
`

// TestItemLayout checks the decisions of an item layout: the order of
// the steps, which keys share the buffer and how their texts are made,
// which are size checked, and where each attribute of the item comes
// from, in which slot, under which condition.
func TestItemLayout(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(layoutSpec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags)
	}
	i := slices.IndexFunc(res.Plan.Model.Entities, func(e *model.Entity) bool { return e.Name == "Order" })
	l := res.Plan.Entity(res.Plan.Model.Entities[i]).Layout

	var steps []string
	for _, s := range l.Steps {
		steps = append(steps, describeStep(s))
	}
	wantSteps := []string{
		"sparse ByCoupon if coupon (inByCoupon): gsi2PK=GSI2PK sized partition key, gsi2SK=GSI2SK",
		"natural customerId",
	}
	checkLines(t, "steps", steps, wantSteps)

	var plain []string
	for _, k := range l.Plain {
		plain = append(plain, describeKey(k)+": "+describePieces(k.Pieces))
	}
	wantPlain := []string{
		"pk=PK sized partition key: \"CUSTOMER#\" customerId",
		"sk=SK sized sort key: \"ORDER#\" placed(new placedFrom:placedTo) \"#\" orderId",
		"gsi1PK=GSI1PK: \"STATE#\" state",
		"gsi1SK=GSI1SK: placed(copy placedFrom:placedTo)",
		"gsi3SK=GSI3SK: placed(copy placedFrom:placedTo)",
	}
	checkLines(t, "plain keys", plain, wantPlain)
	// 9+24, 6+30+1+24, 6+24 and 30 twice: literals, a time's 30 bytes
	// and 24 for the others.
	if l.BufSize != 184 || !l.BufErr {
		t.Errorf("buffer: size %d, err declared %v; want 184, true", l.BufSize, l.BufErr)
	}

	var items []string
	for _, it := range l.Items {
		items = append(items, describeItem(it))
	}
	wantItems := []string{
		"PK=key pk in S[0]",
		"SK=key sk in S[1]",
		"GSI1PK=key gsi1PK in S[2]",
		"GSI1SK=key gsi1SK in S[3]",
		"GSI2PK=key gsi2PK in S[4] if inByCoupon",
		"GSI2SK=key gsi2SK in N[0] if inByCoupon",
		"GSI3SK=key gsi3SK in S[5]",
		"_type=type in S[6]",
		"customerId=attr customerId in S[7]",
		"orderId=attr orderId in S[8]",
		"placed=key text of placed at placedFrom:placedTo in S[9]",
		"state=attr state in S[10]",
		"total=attr total in N[1]",
		"coupon=attr coupon if present",
		"tags=attr tags if present",
	}
	checkLines(t, "item", items, wantItems)
	var blocks []string
	for _, b := range l.Blocks {
		blocks = append(blocks, fmt.Sprintf("%s %s[%d]", b.Member, b.Field, len(b.Items)))
		for i, it := range b.Items {
			if it.Block != b || it.Slot != i {
				t.Errorf("%s is in slot %d of block %s", it.Name, i, b.Member)
			}
		}
	}
	checkLines(t, "values blocks", blocks, []string{"S s[11]", "N n[2]"})
}

func checkLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func describeStep(s plan.KeyStep) string {
	switch {
	case s.Natural != nil:
		return "natural " + s.Natural.Name
	case s.Build != nil:
		return "build " + describeKey(s.Build)
	}
	var keys []string
	for _, k := range s.Sparse.Keys {
		keys = append(keys, describeKey(k))
	}
	var attrs []string
	for _, a := range s.Sparse.Attrs {
		attrs = append(attrs, a.Name)
	}
	return fmt.Sprintf("sparse %s if %s (%s): %s", s.Sparse.Index.Name, strings.Join(attrs, " and "), s.Sparse.In, strings.Join(keys, ", "))
}

// limitNames are the names of the size limits, as the tests show them.
var limitNames = map[plan.KeyLimit]string{plan.PartitionKeyLimit: "partition key", plan.SortKeyLimit: "sort key"}

func describeKey(k *plan.KeyBuild) string {
	s := k.Var + "=" + k.KeyAttr.Name
	if k.Limit != plan.NoLimit {
		s += " sized " + limitNames[k.Limit]
	}
	return s
}

func describePieces(pieces []*plan.KeyPiece) string {
	var out []string
	for _, p := range pieces {
		switch {
		case p.Attr == nil:
			out = append(out, fmt.Sprintf("%q", p.Lit))
		case p.How == plan.PieceTimeNew:
			out = append(out, p.Attr.Name+"(new "+p.From+":"+p.To+")")
		case p.How == plan.PieceTimeCopy:
			out = append(out, p.Attr.Name+"(copy "+p.From+":"+p.To+")")
		default:
			out = append(out, p.Attr.Name)
		}
	}
	return strings.Join(out, " ")
}

func describeItem(it *plan.ItemEntry) string {
	s := it.Name + "="
	switch {
	case it.Key != nil:
		s += "key " + it.Key.Var
	case it.Attr == nil:
		s += "type"
	case it.KeyText && it.Span != nil:
		s += "key text of " + it.Attr.Name + " at " + it.Span.From + ":" + it.Span.To
	case it.KeyText:
		s += "key text of " + it.Attr.Name
	default:
		s += "attr " + it.Attr.Name
	}
	if it.Member != "" {
		s += fmt.Sprintf(" in %s[%d]", it.Member, it.Slot)
	}
	switch {
	case it.In != "":
		s += " if " + it.In
	case it.Present:
		s += " if present"
	}
	return s
}
