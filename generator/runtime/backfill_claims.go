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

// claim brings the claim of item's value made unique to what the
// backfill writes (Backfill.Claim): written, found the item's already,
// or held by another item (a conflict, reported). It reports whether it
// wrote (or, dry, would write) it.
func (r *backfillRun) claim(ctx context.Context, item map[string]types.AttributeValue) (bool, error) {
	for attempt := 1; ; attempt++ {
		claim, err := r.b.Claim(item)
		if err != nil {
			r.rep.add(func(rep *BackfillReport) { rep.Unreadable++ })
			r.rep.problem("%s: %v", r.keyText(item), err)
			return false, errOpen
		}
		held, err := r.get(ctx, claim, nil, nil)
		if err != nil {
			return false, err
		}
		switch {
		case len(held) > 0 && r.owns(held, claim):
			r.rep.add(func(rep *BackfillReport) { rep.Already++ })
			return false, nil
		case len(held) > 0:
			r.rep.add(func(rep *BackfillReport) {
				rep.Conflicts++
				if r.verify {
					rep.Lacking++
				}
			})
			r.rep.problem("%s: conflict: its value is claimed by %s", r.keyText(item), r.ownerText(held))
			return false, errOpen
		case r.verify:
			r.rep.add(func(rep *BackfillReport) { rep.Lacking++ })
			r.rep.problem("%s: lacks its claim %s", r.keyText(item), r.keyText(claim))
			return false, nil
		case !r.o.Write:
			r.rep.add(func(rep *BackfillReport) { rep.Written++ })
			r.logf("would write the claim %s of %s", r.keyText(claim), r.keyText(item))
			return true, nil
		}
		if err := r.lim.wait(ctx); err != nil {
			return false, err
		}
		out, err := r.client.TransactWriteItems(ctx, r.claimInput(item, claim))
		var tce *types.TransactionCanceledException
		switch {
		case err == nil:
			r.consumedAll(out.ConsumedCapacity)
			r.rep.add(func(rep *BackfillReport) { rep.Written++ })
			return true, nil
		case !errors.As(err, &tce):
			return false, fmt.Errorf("%sbackfill %s: write of the claim of %s: %w", pkgPrefix, r.b.ID, r.keyText(item), err)
		}
		reasons := tce.CancellationReasons
		if len(reasons) == 2 && aws.ToString(reasons[0].Code) != "ConditionalCheckFailed" {
			// The item is as read, and another claim came in between:
			// read the claim again.
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

// claimInput is the transaction that writes claim, the claim of item:
// the item held as read, the claim created (or found the item's).
func (r *backfillRun) claimInput(item, claim map[string]types.AttributeValue) *dynamodb.TransactWriteItemsInput {
	check := HoldRead(&dynamodb.UpdateItemInput{
		ConditionExpression:       aws.String(r.b.Condition),
		ExpressionAttributeNames:  ownNames(r.b.UpdateNames),
		ExpressionAttributeValues: maps.Clone(r.b.WriteValues),
	}, item, r.b.Held)
	values := map[string]types.AttributeValue{}
	for _, o := range r.b.ClaimOwner {
		values[o.Value] = claim[o.Stored]
	}
	return &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{ConditionCheck: &types.ConditionCheck{
				TableName:                 aws.String(r.o.TableName),
				Key:                       r.keyOf(item),
				ConditionExpression:       check.ConditionExpression,
				ExpressionAttributeNames:  check.ExpressionAttributeNames,
				ExpressionAttributeValues: check.ExpressionAttributeValues,
			}},
			{Put: &types.Put{
				TableName:                 aws.String(r.o.TableName),
				Item:                      claim,
				ConditionExpression:       aws.String(r.b.ClaimCondition),
				ExpressionAttributeNames:  ownNames(r.b.ClaimNames),
				ExpressionAttributeValues: values,
			}},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
}

// consumedAll counts the capacity of a transaction, per table.
func (r *backfillRun) consumedAll(ccs []types.ConsumedCapacity) {
	for i := range ccs {
		r.consumed(&ccs[i])
	}
}
