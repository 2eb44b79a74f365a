package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dyngen/dyngen/internal/model"
)

// The words of a plan that both `dyngen plan` (internal/report) and the
// generated methods' doc comments print: one text, decided here.

// Field is a labelled line describing a request: the name of a field of
// the call ("KeyConditionExpression") and what the call sends in it.
type Field struct {
	Label, Value string
}

// Order is the order a Query reads the sort key in (asc or desc), or ""
// for any other call.
func (r *Request) Order() model.Order {
	switch {
	case r.KeyCondition == "":
		return ""
	case r.Descending:
		return model.Desc
	}
	return model.Asc
}

// Sometimes says which update actions the call sends only with some
// values ("DELETE #tags :tags is sent only when tags holds elements").
func (r *Request) Sometimes() []string {
	if r.Update == nil {
		return nil
	}
	var out []string
	for _, c := range r.Update.Sometimes() {
		if len(c.Unless) > 0 && c.Instead == "" {
			out = append(out, fmt.Sprintf("DELETE %s is sent only when %s holds elements", c.Text, c.Unless[0].Name))
		}
	}
	return out
}

// Fields are the request's expressions under the names of the call's
// fields, as the call sends them, in the order the text report and the
// methods' docs show them.
func (r *Request) Fields() []Field {
	var out []Field
	add := func(label, expr string) {
		if expr != "" {
			out = append(out, Field{label, expr})
		}
	}
	add("KeyConditionExpression", r.KeyCondition)
	add("ProjectionExpression", r.Projection)
	add("FilterExpression", r.Filter)
	if r.Update != nil {
		add("UpdateExpression", r.Update.Expression())
	}
	add("ConditionExpression", r.FullCondition())
	order := r.Order()
	switch order {
	case model.Asc:
		add("ScanIndexForward", "not sent (ascending, DynamoDB's default)")
	case model.Desc:
		add("ScanIndexForward", "false (descending)")
	}
	switch {
	case r.Limit > 0:
		add("Limit", strconv.Itoa(r.Limit))
	case r.PageLimit > 0:
		add("Limit", strconv.Itoa(r.PageLimit)+", unless the page sets another")
	case order != "":
		add("Limit", "none (a page holds up to 1 MB), unless the page sets one")
	}
	for _, note := range r.Sometimes() {
		out = append(out, Field{"note", note})
	}
	if note := r.HeldNote(); note != "" {
		out = append(out, Field{"note", note})
	}
	if len(r.AbsentAsRead) > 0 {
		var names []string
		for _, a := range r.AbsentAsRead {
			names = append(names, a.Name)
		}
		out = append(out, Field{"note", fmt.Sprintf("the item leaves out %s when the item read lacks it, as the item read does (a default is not stored)", strings.Join(names, ", "))})
	}
	var consts []string
	for _, v := range r.Values {
		if v.Lit != nil {
			consts = append(consts, v.Placeholder+"="+v.Lit.String())
		}
	}
	add("constant values", strings.Join(consts, ", "))
	var item []string
	for _, v := range r.Item {
		switch {
		case v.Lit != nil:
			item = append(item, v.Attr.Name+"="+v.Lit.String())
		case v.Source == VersionNext:
			item = append(item, v.Attr.Name+"=the version read + 1")
		default:
			item = append(item, v.Attr.Name+"=the Store's clock")
		}
	}
	add("written in the item", strings.Join(item, ", "))
	if len(r.Names) > 0 {
		var names []string
		for _, nm := range r.Names {
			if nm.Key != nil {
				// The caller's key, not a constant.
				names = append(names, nm.Placeholder+"="+nm.Stored+" (the key given)")
				continue
			}
			names = append(names, nm.Placeholder+"="+strconv.Quote(nm.Stored))
		}
		add("ExpressionAttributeNames", strings.Join(names, ", "))
	}
	return out
}

// Describe lists the request's expressions as a call sends them, one per
// line ("KeyConditionExpression: #pk = :pk").
func (r *Request) Describe() []string {
	var out []string
	for _, f := range r.Fields() {
		out = append(out, f.Label+": "+f.Value)
	}
	return out
}

// ExpiryNote says how the call treats an item whose time to live has
// passed, or "" when it reads or writes it as stored: the report's note
// and the generated method's doc.
func (pp *Pattern) ExpiryNote() string {
	x := pp.Request.Expiry
	if x == nil {
		return ""
	}
	what := fmt.Sprintf("(%s at or before the Store's clock), which DynamoDB deletes only eventually,", x.Attr)
	switch {
	case x.InCode && (pp.Call == BatchGetItem || pp.Call == Query && pp.Pattern.Op != model.OpGet):
		return "expired items " + what + " are absent: read and billed, then left out"
	case x.InCode:
		return "an expired item " + what + " is absent: read and billed, then answered ErrNotFound"
	case pp.Call == Query:
		return "expired items " + what + " are absent: read and billed, then left out by the filter"
	case pp.Pattern.Op == model.OpCreate:
		return "an expired item " + what + " is absent: the create replaces it"
	case pp.Pattern.Op == model.OpCheck:
		return "an expired item " + what + " is absent: the check answers ErrNotFound"
	}
	return "an expired item " + what + " is absent: the update answers ErrNotFound"
}

// PrefixRule names, in the words the report and the methods' docs share,
// the entities the literal start of the key condition's sort key keeps
// out, by their number: "2 other entities, whose sort keys start with
// other text"; "" when there are none. The exceptions (Others) are named
// one by one.
func (k KeptOut) PrefixRule() string {
	switch k.ByPrefix {
	case 0:
		return ""
	case 1:
		return "1 other entity, whose sort key starts with other text"
	}
	return fmt.Sprintf("%d other entities, whose sort keys start with other text", k.ByPrefix)
}

// HeldNote says how the condition holds the attributes of Held, or "":
// "#name = :name_read holds the value read; each is sent as
// attribute_not_exists(#name) when the item read lacks the attribute".
func (r *Request) HeldNote() string {
	if len(r.Held) == 0 {
		return ""
	}
	h := r.Held[0]
	return fmt.Sprintf("%s, and each part like it, holds the value the item read has, sent as read; when the item read lacks the attribute, %s is sent in its place", h.Present, h.Absent)
}
