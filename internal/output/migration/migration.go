// Package migration is the migration output: the backfills of the
// design, run by the generated package's backfill.go (emitted by
// internal/golang, from the plan's backfills), the IAM policy of their
// calls (backfill-iam-policy.json), apart from the Store's: the only one
// that allows Scan, and the CloudFormation stack that scales them out on
// Step Functions and Lambda (backfill.cfn.yaml, stack.go).
package migration

import (
	"slices"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/plan"
)

// ActScan is the action of a backfill's Scan.
const ActScan iam.Action = "Scan"

// AccessOf is everything the backfills of p may ask of DynamoDB, per
// table: the Scan of the table (which sends no key a policy could bind),
// the reads again and the writes of the items of each entity a pending
// backfill fills (bound to the partition keys of its items), for a
// backfill of claims the ConditionCheck of those items and the reads and
// writes of the claims (bound to theirs), and the reads and writes of
// the table's checkpoints (bound to theirs).
func AccessOf(p *plan.Plan) *iam.Access {
	acc := &iam.Access{}
	for _, t := range p.Model.Tables {
		var entities, claims, checked []*model.Entity
		for _, pb := range p.Backfills {
			b := pb.Backfill
			e := b.Entity
			if !b.Pending() || e.Table != t {
				continue
			}
			if b.Unique != nil {
				if !slices.Contains(claims, b.Unique.Claim) {
					claims = append(claims, b.Unique.Claim)
				}
				if !slices.Contains(checked, e) {
					checked = append(checked, e)
				}
				continue
			}
			if !slices.Contains(entities, e) {
				entities = append(entities, e)
			}
		}
		var cp *model.Entity
		for _, e := range p.Model.Entities {
			if e.CheckpointOf == t {
				cp = e
			}
		}
		if cp == nil {
			continue
		}
		ix := t.Primary()
		if len(entities)+len(checked) > 0 {
			acc.Grants = append(acc.Grants, &iam.Grant{Sid: t.GoName + "TableScan", Index: ix, Actions: []iam.Action{ActScan}, Unbound: "a Scan sends no key"})
		}
		if len(entities) > 0 {
			var tpls []*model.Template
			for _, e := range entities {
				tpls = append(tpls, e.PrimaryKey().PK)
			}
			keys, why := iam.LeadingKeys(tpls)
			acc.Grants = append(acc.Grants, &iam.Grant{Sid: t.GoName + "TableGetItemUpdateItem", Index: ix, Actions: []iam.Action{iam.ActGetItem, iam.ActUpdateItem}, Templates: tpls, LeadingKeys: keys, Unbound: why})
		}
		if len(claims) > 0 {
			// A claim's transaction: the ConditionCheck of its item (and
			// the item read again), the GetItem and the Put of the claim.
			var tpls []*model.Template
			for _, e := range checked {
				tpls = append(tpls, e.PrimaryKey().PK)
			}
			keys, why := iam.LeadingKeys(tpls)
			acc.Grants = append(acc.Grants, &iam.Grant{Sid: t.GoName + "TableGetItemConditionCheckItem", Index: ix, Actions: []iam.Action{iam.ActGetItem, iam.ActConditionCheckItem}, Templates: tpls, LeadingKeys: keys, Unbound: why})
			tpls = nil
			for _, c := range claims {
				tpls = append(tpls, c.PrimaryKey().PK)
			}
			keys, why = iam.LeadingKeys(tpls)
			acc.Grants = append(acc.Grants, &iam.Grant{Sid: t.GoName + "ClaimsGetItemPutItem", Index: ix, Actions: []iam.Action{iam.ActGetItem, iam.ActPutItem}, Templates: tpls, LeadingKeys: keys, Unbound: why})
		}
		tpls := []*model.Template{cp.PrimaryKey().PK}
		keys, why := iam.LeadingKeys(tpls)
		acc.Grants = append(acc.Grants, &iam.Grant{Sid: t.GoName + "CheckpointsGetItemPutItem", Index: ix, Actions: []iam.Action{iam.ActGetItem, iam.ActPutItem}, Templates: tpls, LeadingKeys: keys, Unbound: why})
	}
	return acc
}

// Render renders the IAM policy of the backfills' calls, and the stack
// that runs them on Step Functions and Lambda (StackFile).
func Render(p *plan.Plan, o *model.Output, src format.Source) ([]format.File, error) {
	data, err := format.JSON(AccessOf(p).IAMDocument())
	if err != nil {
		return nil, err
	}
	st, err := stackFile(p, src)
	if err != nil {
		return nil, err
	}
	return []format.File{{Name: o.File, Data: data}, st}, nil
}
