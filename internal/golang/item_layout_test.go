package golang

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
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
	res := planOf("spec.yaml", []byte(layoutSpec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags)
	}
	i := slices.IndexFunc(res.Plan.Model.Entities, func(e *model.Entity) bool { return e.Name == "Order" })
	l := itemLayoutOf(res.Plan.Model.Entities[i])

	var steps []string
	for _, s := range l.steps {
		steps = append(steps, describeStep(s))
	}
	wantSteps := []string{
		"sparse ByCoupon if coupon (inByCoupon): gsi2PK=GSI2PK sized maxPartitionKey, gsi2SK=GSI2SK",
		"natural customerId",
	}
	checkLines(t, "steps", steps, wantSteps)

	var plain []string
	for _, k := range l.plain {
		plain = append(plain, describeKey(k)+": "+describePieces(k.pieces))
	}
	wantPlain := []string{
		"pk=PK sized maxPartitionKey: \"CUSTOMER#\" customerId",
		"sk=SK sized maxSortKey: \"ORDER#\" placed(new) \"#\" orderId",
		"gsi1PK=GSI1PK: \"STATE#\" state",
		"gsi1SK=GSI1SK: placed(copy)",
		"gsi3SK=GSI3SK: placed(copy)",
	}
	checkLines(t, "plain keys", plain, wantPlain)
	// 9+24, 6+30+1+24, 6+24 and 30 twice: literals, a time's 30 bytes
	// and 24 for the others.
	if l.bufSize != 184 || !l.bufErr {
		t.Errorf("buffer: size %d, err declared %v; want 184, true", l.bufSize, l.bufErr)
	}

	var items []string
	for _, it := range l.items {
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
		"placed=key text of placed in S[9]",
		"state=attr state in S[10]",
		"total=attr total in N[1]",
		"coupon=attr coupon if present",
		"tags=attr tags if present",
	}
	checkLines(t, "item", items, wantItems)
	if got := len(l.slots("S")); got != 11 {
		t.Errorf("%d S slots, want 11", got)
	}
}

func checkLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func describeStep(s keyStep) string {
	switch {
	case s.natural != nil:
		return "natural " + s.natural.Name
	case s.build != nil:
		return "build " + describeKey(s.build)
	}
	var keys []string
	for _, k := range s.sparse.keys {
		keys = append(keys, describeKey(k))
	}
	return fmt.Sprintf("sparse %s if %s (%s): %s", s.sparse.index.Name, attrNames(s.sparse.attrs), s.sparse.in, strings.Join(keys, ", "))
}

func describeKey(k *keyBuild) string {
	s := k.v + "=" + k.ka.Name
	if k.limit != "" {
		s += " sized " + k.limit
	}
	return s
}

func describePieces(pieces []keyPiece) string {
	var out []string
	for _, p := range pieces {
		switch {
		case p.attr == nil:
			out = append(out, fmt.Sprintf("%q", p.lit))
		case p.how == pieceTimeNew:
			out = append(out, p.attr.Name+"(new)")
		case p.how == pieceTimeCopy:
			out = append(out, p.attr.Name+"(copy)")
		default:
			out = append(out, p.attr.Name)
		}
	}
	return strings.Join(out, " ")
}

func describeItem(it *itemAttr) string {
	s := it.name + "="
	switch {
	case it.key != nil:
		s += "key " + it.key.v
	case it.attr == nil:
		s += "type"
	case it.keyText:
		s += "key text of " + it.attr.Name
	default:
		s += "attr " + it.attr.Name
	}
	if it.member != "" {
		s += fmt.Sprintf(" in %s[%d]", it.member, it.slot)
	}
	switch {
	case it.in != "":
		s += " if " + it.in
	case it.present:
		s += " if present"
	}
	return s
}
