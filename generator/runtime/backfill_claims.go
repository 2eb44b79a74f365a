package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// claim brings the claims of item's value made unique (one, or one per
// element of a set) to what the backfill writes (Backfill.Claim or
// Claims): written, found the item's already, or held by another item
// (a conflict, reported: none of the item's missing claims is written
// then). It reports whether it wrote (or, dry, would write) them.
func (r *backfillRun) claim(ctx context.Context, item map[string]types.AttributeValue) (bool, error) {
	for attempt := 1; ; attempt++ {
		claims, err := r.claimsOf(item)
		if err != nil {
			r.rep.add(func(rep *BackfillReport) { rep.Unreadable++ })
			r.rep.problem("%s: %v", r.keyText(item), err)
			return false, errOpen
		}
		if len(claims) >= MaxTransactItems {
			// More than one transaction holds with the item's check.
			r.rep.add(func(rep *BackfillReport) { rep.Unreadable++ })
			r.rep.problem("%s: holds %d values to claim, more than one transaction of %d actions writes", r.keyText(item), len(claims), MaxTransactItems)
			return false, errOpen
		}
		var missing []map[string]types.AttributeValue
		conflict := false
		for _, claim := range claims {
			held, err := r.get(ctx, claim, nil, nil)
			if err != nil {
				return false, err
			}
			switch {
			case len(held) == 0:
				missing = append(missing, claim)
			case !r.owns(held, claim):
				conflict = true
				r.rep.problem("%s: conflict: its value %s is claimed by %s", r.keyText(item), r.keyText(claim), r.ownerText(held))
			}
		}
		switch {
		case conflict:
			r.rep.add(func(rep *BackfillReport) {
				rep.Conflicts++
				if r.verify {
					rep.Lacking++
				}
			})
			return false, errOpen
		case len(missing) == 0:
			r.rep.add(func(rep *BackfillReport) { rep.Already++ })
			return false, nil
		case r.verify:
			r.rep.add(func(rep *BackfillReport) { rep.Lacking++ })
			r.rep.problem("%s: lacks its claim %s", r.keyText(item), r.keyText(missing[0]))
			return false, nil
		case !r.o.Write:
			r.rep.add(func(rep *BackfillReport) { rep.Written++ })
			for _, claim := range missing {
				r.logf("would write the claim %s of %s", r.keyText(claim), r.keyText(item))
			}
			return true, nil
		}
		if err := r.lim.wait(ctx); err != nil {
			return false, err
		}
		out, err := r.client.TransactWriteItems(ctx, r.claimInput(item, missing))
		var tce *types.TransactionCanceledException
		switch {
		case err == nil:
			r.consumedAll(out.ConsumedCapacity)
			r.rep.add(func(rep *BackfillReport) { rep.Written++ })
			return true, nil
		case !errors.As(err, &tce):
			return false, fmt.Errorf("%sbackfill %s: write of the claims of %s: %w", pkgPrefix, r.b.ID, r.keyText(item), err)
		}
		reasons := tce.CancellationReasons
		if len(reasons) == len(missing)+1 && aws.ToString(reasons[0].Code) != "ConditionalCheckFailed" {
			// The item is as read, and another claim came in between:
			// read the claims again.
			r.rep.add(func(rep *BackfillReport) { rep.Retried++ })
			if attempt >= maxBackfillAttempts {
				return false, fmt.Errorf("%sbackfill %s: %s: %w", pkgPrefix, r.b.ID, r.keyText(item), ErrBackfillBusy)
			}
			continue
		}
		// A live writer changed the item: read it again.
		if item, err = r.reread(ctx, item, attempt); item == nil || err != nil {
			return false, err
		}
	}
}

// claimsOf returns the claims of item, each key once (two elements of a
// set lower-cased alike make one claim).
func (r *backfillRun) claimsOf(item map[string]types.AttributeValue) ([]map[string]types.AttributeValue, error) {
	if r.b.Claims == nil {
		claim, err := r.b.Claim(item)
		if err != nil {
			return nil, err
		}
		return []map[string]types.AttributeValue{claim}, nil
	}
	claims, err := r.b.Claims(item)
	if err != nil {
		return nil, err
	}
	var out []map[string]types.AttributeValue
	seen := map[string]bool{}
	for _, c := range claims {
		if k := r.keyText(c); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// owns reports whether the claim held is the one built: it holds the
// same owner's key.
func (r *backfillRun) owns(held, claim map[string]types.AttributeValue) bool {
	for _, o := range r.b.ClaimOwner {
		if !SameValue(held[o.Stored], claim[o.Stored]) {
			return false
		}
	}
	return true
}

// ownerText names the owner a claim holds, for a report.
func (r *backfillRun) ownerText(claim map[string]types.AttributeValue) string {
	var parts []string
	for _, o := range r.b.ClaimOwner {
		parts = append(parts, o.Stored+"="+avText(claim[o.Stored]))
	}
	return strings.Join(parts, " ")
}

// claimInput is the transaction that writes claims, the missing claims
// of item: the item held as read, each claim created (or found the
// item's).
func (r *backfillRun) claimInput(item map[string]types.AttributeValue, claims []map[string]types.AttributeValue) *dynamodb.TransactWriteItemsInput {
	check := HoldRead(&dynamodb.UpdateItemInput{
		ConditionExpression:       aws.String(r.b.Condition),
		ExpressionAttributeNames:  ownNames(r.b.UpdateNames),
		ExpressionAttributeValues: maps.Clone(r.b.WriteValues),
	}, item, r.b.Held)
	actions := []types.TransactWriteItem{{ConditionCheck: &types.ConditionCheck{
		TableName:                 aws.String(r.o.TableName),
		Key:                       r.keyOf(item),
		ConditionExpression:       check.ConditionExpression,
		ExpressionAttributeNames:  check.ExpressionAttributeNames,
		ExpressionAttributeValues: check.ExpressionAttributeValues,
	}}}
	for _, claim := range claims {
		values := map[string]types.AttributeValue{}
		for _, o := range r.b.ClaimOwner {
			values[o.Value] = claim[o.Stored]
		}
		actions = append(actions, types.TransactWriteItem{Put: &types.Put{
			TableName:                 aws.String(r.o.TableName),
			Item:                      claim,
			ConditionExpression:       aws.String(r.b.ClaimCondition),
			ExpressionAttributeNames:  ownNames(r.b.ClaimNames),
			ExpressionAttributeValues: values,
		}})
	}
	return &dynamodb.TransactWriteItemsInput{TransactItems: actions, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
}

// consumedAll counts the capacity of a transaction, per table.
func (r *backfillRun) consumedAll(ccs []types.ConsumedCapacity) {
	for i := range ccs {
		r.consumed(&ccs[i])
	}
}
