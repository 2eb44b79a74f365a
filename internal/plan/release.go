package plan

import (
	"github.com/dyngen/dyngen/internal/model"
)

// Release is how a consumer frees what an expired item of an entity held
// (model.Consumer.Release): one TransactWriteItems of the table, sent
// when DynamoDB's time to live deletes the item (a REMOVE record whose
// identity is DynamoDB's), built from the item as it was:
//
//   - the Put of a receipt, keyed by the record's event ID, on condition
//     that none is there: a record delivered again releases nothing again
//     (the transaction is refused at the receipt, and the release is
//     done);
//   - the Delete of each claim of its unique values, on condition that the
//     claim is the item's or gone (claimPut's condition);
//   - an update of each counter that counts it, adding -1 to the group it
//     was in, on condition that the counter is there.
//
// A claim or a counter whose condition fails (held by another item, or
// gone) is left out and the rest sent again: it holds nothing of the
// item's.
type Release struct {
	Entity *model.Entity
	// Func is the Store's method that releases one record's item.
	Func string
	// Receipt is the receipt entity of the table, and ReceiptRequest the
	// condition of its Put.
	Receipt        *model.Entity
	ReceiptRequest *Request
	Claims         []*ReleaseClaim
	Counts         []*ReleaseCount
	// Reads are the attributes the release reads of the item as it was,
	// in the entity's order: the values of its unique values and its
	// primary key (a claim holds them), the scopes and groups of its
	// counts.
	Reads []*model.Attribute
}

// ReleaseClaim is the Delete of the claim of a unique value: Request's
// condition, Owner the claim's attributes holding the owner's key and
// the placeholders of their values, taken from the claim the release
// builds.
type ReleaseClaim struct {
	Unique  *model.Unique
	Request *Request
	Owner   []*BackfillWrite
}

// ReleaseCount is the update of a counter: Request's update adds to the
// number of each group (Groups, in the count's order) its placeholder's
// value: -1 for the group the item was in, 0 for the others.
type ReleaseCount struct {
	Count   *model.Count
	Request *Request
	Groups  []string
}

// releases plans the releases of consumer c of table t.
func releases(c *model.Consumer, receipt *model.Entity) []*Release {
	var out []*Release
	for _, e := range c.Release {
		rel := &Release{Entity: e, Func: model.ReleaseFunc(c, e), Receipt: receipt, ReceiptRequest: &Request{}}
		n := newRequestNamer(rel.ReceiptRequest)
		rel.ReceiptRequest.Condition = "attribute_not_exists(" + n.name(e.Table.PK.Name, "") + ")"
		for _, u := range e.Unique {
			req, owner := claimPut(u)
			rel.Claims = append(rel.Claims, &ReleaseClaim{Unique: u, Request: req, Owner: owner})
		}
		for _, cnt := range e.Counts {
			req := &Request{}
			n := newRequestNamer(req)
			req.Update = &Update{}
			var groups []string
			for _, name := range cnt.Attrs {
				stored := cnt.Counter.Attr(name).Stored
				ph := n.take(":" + placeholderText(stored))
				req.Update.Add = append(req.Update.Add, &Clause{Text: n.name(stored, "") + " " + ph})
				groups = append(groups, ph)
			}
			req.Condition = "attribute_exists(" + n.name(e.Table.PK.Name, "") + ")"
			rel.Counts = append(rel.Counts, &ReleaseCount{Count: cnt, Request: req, Groups: groups})
		}
		need := map[*model.Attribute]bool{}
		for _, a := range e.PrimaryKey().Attrs() {
			need[a] = true
		}
		for _, u := range e.Unique {
			for _, a := range u.Attrs {
				need[a] = true
			}
		}
		for _, cnt := range e.Counts {
			for _, a := range cnt.Per {
				need[a] = true
			}
			need[cnt.By] = true
		}
		for _, a := range e.Attributes {
			if need[a] {
				rel.Reads = append(rel.Reads, a)
			}
		}
		out = append(out, rel)
	}
	return out
}
