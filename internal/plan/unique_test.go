package plan_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/plan"
)

const uniqueSpec = `
version: 1
package: accounts
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  User:
    attributes: {username: string, email: string, name: string}
    unique: [email]
    keys: {primary: {pk: "USER#{username}", sk: "USER#{username}"}}
patterns:
  CreateUser: {create: User}
  SaveUser: {put: User}
  MoveEmail: {update: User, set: [email]}
  Rename: {update: User, set: [name]}
  DeleteUser: {delete: User}
  UserByEmail: {get: User, by: [email]}
`

// stepDesc is what a test says of a step: its action, request and
// errors.
type stepDesc struct {
	action, call, condition string
	ifAbsent, ifPresent     string
	args                    []string
}

func TestUniquePlans(t *testing.T) {
	res := generator.Check("spec.yaml", []byte(uniqueSpec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	claim := res.Model.Entities[1]
	if claim.Name != "UserEmailClaim" || claim.TypeValue != "User.email" || claim.ClaimOf == nil || claim.PrimaryKey().PK.Source != "UNIQUE#User#email#{email}" {
		t.Fatalf("claim entity %s, type value %s, pk %s", claim.Name, claim.TypeValue, claim.PrimaryKey().PK.Source)
	}
	pps := map[string]*plan.Pattern{}
	for _, pp := range res.Plan.Patterns {
		pps[pp.Pattern.Name] = pp
	}
	for _, tc := range []struct {
		name  string
		call  plan.Call
		read  bool
		steps []stepDesc
	}{
		{"CreateUser", plan.TransactWriteItems, false, []stepDesc{
			{"create User", "PutItem", "attribute_not_exists(PK)", "", "ErrAlreadyExists", []string{"user"}},
			{"claim User.email", "PutItem", "attribute_not_exists(PK)", "", "ErrAlreadyExists", []string{"UserEmailClaim{user.Email, user.Username}"}},
		}},
		{"SaveUser", plan.TransactWriteItems, true, []stepDesc{
			{"put User", "PutItem", "#email = :email_when", "ErrConditionFailed", "ErrConditionFailed", []string{"user", "old.Email"}},
			{"put User (no item read)", "PutItem", "attribute_not_exists(PK)", "", "ErrConditionFailed", []string{"user"}},
			{"release User.email", "DeleteItem", "attribute_not_exists(#username) OR #username = :username_when", "ErrConditionFailed", "ErrConditionFailed", []string{"old.Email", "old.Username"}},
			{"claim User.email", "PutItem", "attribute_not_exists(PK)", "", "ErrAlreadyExists", []string{"UserEmailClaim{user.Email, user.Username}"}},
		}},
		{"MoveEmail", plan.TransactWriteItems, true, []stepDesc{
			{"update User", "UpdateItem", "attribute_exists(PK) AND #email = :email_when", "ErrNotFound", "ErrConditionFailed", []string{"username", "email", "old.Email"}},
			{"release User.email", "DeleteItem", "attribute_not_exists(#username) OR #username = :username_when", "ErrConditionFailed", "ErrConditionFailed", []string{"old.Email", "old.Username"}},
			{"claim User.email", "PutItem", "attribute_not_exists(PK)", "", "ErrAlreadyExists", []string{"UserEmailClaim{email, username}"}},
		}},
		{"Rename", plan.UpdateItem, false, nil},
		{"DeleteUser", plan.TransactWriteItems, true, []stepDesc{
			{"delete User", "DeleteItem", "#email = :email_when", "ErrConditionFailed", "ErrConditionFailed", []string{"username", "old.Email"}},
			{"release User.email", "DeleteItem", "attribute_not_exists(#username) OR #username = :username_when", "ErrConditionFailed", "ErrConditionFailed", []string{"old.Email", "old.Username"}},
		}},
	} {
		pp := pps[tc.name]
		if pp == nil {
			t.Errorf("%s: not planned", tc.name)
			continue
		}
		if pp.Call != tc.call {
			t.Errorf("%s: %s, want %s", tc.name, pp.Call, tc.call)
		}
		if tc.steps == nil {
			if pp.Tx != nil || pp.Unique != nil {
				t.Errorf("%s: planned with claims", tc.name)
			}
			continue
		}
		if (pp.Unique.Read != nil) != tc.read {
			t.Errorf("%s: reads first %v, want %v", tc.name, pp.Unique.Read != nil, tc.read)
		}
		if len(pp.Tx.Steps) != len(tc.steps) {
			t.Errorf("%s: %d steps, want %d", tc.name, len(pp.Tx.Steps), len(tc.steps))
			continue
		}
		for i, s := range pp.Tx.Steps {
			want := tc.steps[i]
			var args []string
			for _, a := range s.Args {
				args = append(args, a.String())
			}
			got := stepDesc{s.Step.Action(), string(s.Plan.Call), s.Plan.Request.Condition, s.IfAbsent, s.IfPresent, args}
			if got.action != want.action || got.call != want.call || got.condition != want.condition || got.ifAbsent != want.ifAbsent || got.ifPresent != want.ifPresent || !slices.Equal(got.args, want.args) {
				t.Errorf("%s step %d:\n got %+v\nwant %+v", tc.name, i+1, got, want)
			}
		}
	}
	lookup := pps["UserByEmail"]
	if lookup.Call != plan.GetItem || lookup.Unique == nil || lookup.Unique.Claim == nil || lookup.Unique.Claim.Pattern.Entity() != claim {
		t.Fatalf("UserByEmail: %+v", lookup)
	}
	if len(lookup.Params) != 1 || lookup.Params[0].Role != plan.ParamKey || lookup.Params[0].Attr.Name != "email" {
		t.Errorf("UserByEmail params: %+v", lookup.Params)
	}
	if got := lookup.Key.Describe(); got != `PK = "USER#{username}" AND SK = "USER#{username}"` {
		t.Errorf("UserByEmail owner key %s", got)
	}
	// The claim's names are in the lists of the generated package.
	var names []string
	for _, n := range res.Model.GeneratedNames() {
		names = append(names, n.Name)
	}
	if !slices.Contains(names, "UserEmailClaim") {
		t.Errorf("GeneratedNames lacks UserEmailClaim: %v", names)
	}
	var builders []string
	for n := range res.Model.UnexportedNames() {
		builders = append(builders, n.Name)
	}
	for _, want := range []string{"createUserStep2Input", "moveEmailStep3Input", "userEmailClaimPK"} {
		if !slices.Contains(builders, want) {
			t.Errorf("UnexportedNames lacks %s", want)
		}
	}
}

// TestUniqueSends checks what a write of an entity with unique values
// sends by what its read finds: the steps sent whatever the values, the
// claims moved only when a value changes, and what it does over no item.
func TestUniqueSends(t *testing.T) {
	spec := uniqueSpec + `  PutVersioned: {put: Account}
  DeleteVersioned: {delete: Account}
`
	spec = strings.Replace(spec, "patterns:\n", `  Account:
    version: rev
    attributes: {id: string, handle: string, rev: int}
    unique: [handle]
    keys: {primary: {pk: "ACCOUNT#{id}", sk: "ACCOUNT#{id}"}}
patterns:
`, 1)
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	sends := func(s *plan.Sends) string {
		if s == nil {
			return "-"
		}
		var parts []string
		if s.Fail != "" {
			parts = append(parts, "fail "+s.Fail)
		}
		for _, i := range s.Steps {
			parts = append(parts, fmt.Sprint(i+1))
		}
		for _, mv := range s.Moves {
			var ifs []string
			for i, a := range mv.Attrs {
				ifs = append(ifs, fmt.Sprintf("%s != %s", a.Name, mv.New[i]))
			}
			parts = append(parts, fmt.Sprintf("%d+%d if %s", mv.Release+1, mv.Take+1, strings.Join(ifs, " || ")))
		}
		if len(parts) == 0 {
			return "nothing"
		}
		return strings.Join(parts, ", ")
	}
	want := map[string][3]string{ // over no item, over the item read, refresh
		"CreateUser":      {"1, 2", "-", "false"},
		"SaveUser":        {"2, 4", "1, 3+4 if email != user.Email", "false"},
		"MoveEmail":       {"fail ErrNotFound", "1, 2+3 if email != email", "false"},
		"DeleteUser":      {"nothing", "1, 2", "false"},
		"PutVersioned":    {"fail ErrNotFound", "1, 2+3 if handle != account.Handle", "true"},
		"DeleteVersioned": {"fail ErrNotFound", "1, 2", "false"},
	}
	for _, pp := range res.Plan.Patterns {
		w, ok := want[pp.Pattern.Name]
		if !ok {
			continue
		}
		delete(want, pp.Pattern.Name)
		u := pp.Unique
		got := [3]string{sends(u.Absent), sends(u.Present), fmt.Sprint(u.Refresh)}
		if got != w {
			t.Errorf("%s: over no item %q, over the item %q, refresh %s; want %q, %q, %s", pp.Pattern.Name, got[0], got[1], got[2], w[0], w[1], w[2])
		}
		if (u.Read == nil) != (pp.Pattern.Name == "CreateUser") {
			t.Errorf("%s: read %v", pp.Pattern.Name, u.Read != nil)
		}
	}
	for name := range want {
		t.Errorf("no pattern %s", name)
	}
}

// TestUniqueSendsComposite checks the sends of writes of composite,
// normalised and per-element unique values: a composite moves when one
// of its attributes does (an update takes the others from the item
// read), a normalised value compares lower-cased, and a set's claims
// move element by element, the write over a set read empty sent as a
// step of its own.
func TestUniqueSendsComposite(t *testing.T) {
	spec := `version: 1
package: library
tables:
  Main: {partitionKey: PK, sortKey: SK}
entities:
  Member:
    attributes: {libraryId: string, memberId: string, email: string, nick: string}
    unique: [[libraryId, email], {of: [nick], normalize: lower}]
    keys: {primary: {pk: "LIB#{libraryId}", sk: "MEMBER#{memberId}"}}
  Tool:
    attributes: {toolId: string, barcodes: {type: stringSet, maxItems: 8}}
    unique: [barcodes]
    keys: {primary: {pk: "TOOL#{toolId}", sk: "TOOL#{toolId}"}}
patterns:
  ChangeEmail: {update: Member, set: [email]}
  ChangeNick: {update: Member, set: [nick]}
  SaveMember: {put: Member}
  ChangeBarcodes: {update: Tool, set: [barcodes]}
  DeleteTool: {delete: Tool}
`
	res := generator.Check("spec.yaml", []byte(spec))
	if res.Diags.HasErrors() {
		t.Fatal(res.Diags.Err())
	}
	sends := func(s *plan.Sends) string {
		if s == nil {
			return "-"
		}
		var parts []string
		if s.Fail != "" {
			parts = append(parts, "fail "+s.Fail)
		}
		for _, i := range s.Steps {
			parts = append(parts, fmt.Sprint(i+1))
		}
		if e := s.Empty; e != nil {
			parts = append(parts, fmt.Sprintf("%d instead of %d if %s read empty", e.Empty+1, e.Own+1, e.Attr.Name))
		}
		for _, mv := range s.Moves {
			var ifs []string
			for i, a := range mv.Attrs {
				ifs = append(ifs, fmt.Sprintf("%s != %s", a.Name, mv.New[i]))
			}
			each := ""
			if mv.Each {
				each = " per element"
			}
			parts = append(parts, fmt.Sprintf("%d+%d%s if %s", mv.Release+1, mv.Take+1, each, strings.Join(ifs, " || ")))
		}
		return strings.Join(parts, ", ")
	}
	want := map[string]string{ // over the item read
		"ChangeEmail":    "1, 2+3 if libraryId != libraryID || email != email",
		"ChangeNick":     "1, 2+3 if nick != strings.ToLower(nick)",
		"SaveMember":     "1, 3+4 if libraryId != member.LibraryID || email != member.Email, 5+6 if nick != strings.ToLower(member.Nick)",
		"ChangeBarcodes": "1, 2 instead of 1 if barcodes read empty, 3+4 per element if barcodes != each element of barcodes",
		"DeleteTool":     "1, 3, 2 instead of 1 if barcodes read empty",
	}
	for _, pp := range res.Plan.Patterns {
		w, ok := want[pp.Pattern.Name]
		if !ok {
			continue
		}
		delete(want, pp.Pattern.Name)
		if got := sends(pp.Unique.Present); got != w {
			t.Errorf("%s: over the item %q; want %q", pp.Pattern.Name, got, w)
		}
	}
	for name := range want {
		t.Errorf("no pattern %s", name)
	}
	// The composite's update conditions on the email read, not on the
	// library, which the key holds.
	for _, pp := range res.Plan.Patterns {
		if pp.Pattern.Name == "ChangeEmail" {
			if got := pp.Tx.Steps[0].Plan.Request.Condition; got != "attribute_exists(PK) AND #email = :email_when" {
				t.Errorf("ChangeEmail condition %q", got)
			}
		}
	}
}
