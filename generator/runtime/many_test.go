package runtime

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func manyItem(pk, sk string) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk},
		"SK": &types.AttributeValueMemberN{Value: sk},
	}}}
}

var shelve = &Many{Method: "ShelveBooks", Action: "update Book", Step: TransactStep{
	Action: "update Book", IfAbsent: ErrNotFound, IfPresent: ErrConditionFailed, Key: []string{"PK", "SK"},
}}

// Many: all refuses more keys than a transaction takes, and two equal
// keys (numbers by value), naming the second by its index.
func TestManyAllRefusals(t *testing.T) {
	if err := shelve.Count(MaxTransactItems); err != nil {
		t.Errorf("Count(100) = %v", err)
	}
	if err := shelve.Count(MaxTransactItems + 1); !errors.Is(err, ErrTooManyKeys) {
		t.Errorf("Count(101) = %v, want ErrTooManyKeys", err)
	}
	items := []types.TransactWriteItem{manyItem("a", "1"), manyItem("a", "0"), manyItem("b", "0"), manyItem("a", "-0.0")}
	err := shelve.Distinct(items)
	var te *TransactionError
	if !errors.Is(err, ErrSameItem) || !errors.As(err, &te) || te.Key != 3 || te.Step != 4 {
		t.Fatalf("Distinct = %v (%+v), want ErrSameItem naming key 3", err, te)
	}
	if !strings.Contains(err.Error(), "key 3 (update Book)") {
		t.Errorf("text %q does not name key 3", err)
	}
	if err := shelve.Distinct(items[:3]); err != nil {
		t.Errorf("Distinct of distinct keys = %v", err)
	}
	// A transaction pattern's errors name no key.
	tx := &Transaction{Method: "T", Steps: []TransactStep{{Action: "update Book"}}}
	if err := tx.StepError(0, ErrSameItem); !errors.As(err, &te) || te.Key != -1 {
		t.Errorf("a step's error has Key %d, want -1", te.Key)
	}
}

// Many: all maps a cancelled transaction to the first key with a reason,
// its kind told by the item returned.
func TestManyAllErr(t *testing.T) {
	none, failed := aws.String("None"), aws.String("ConditionalCheckFailed")
	items := []types.TransactWriteItem{manyItem("a", "1"), manyItem("a", "2"), manyItem("a", "3")}
	cause := &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{{Code: none}, {Code: none}, {Code: failed}}}
	err := shelve.Err(cause, items)
	var te *TransactionError
	if !errors.As(err, &te) || te.Key != 2 || !errors.Is(err, ErrNotFound) {
		t.Fatalf("Err = %v, want ErrNotFound naming key 2", err)
	}
	cause.CancellationReasons[2].Item = items[2].Update.Key
	if err := shelve.Err(cause, items); !errors.As(err, &te) || te.Key != 2 || !errors.Is(err, ErrConditionFailed) {
		t.Fatalf("Err = %v, want ErrConditionFailed naming key 2", err)
	}
}

// Many: each writes every key, whatever the others' results, at most
// workers at once, and names each failed key by its index.
func TestManyEach(t *testing.T) {
	each := &Many{Method: "ShelveEach", Action: "update Book", PerKey: true}
	var running, most atomic.Int64
	err := each.Each(context.Background(), 50, 4, func(ctx context.Context, i int) error {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		if i%10 == 3 {
			return Fail("ShelveEach", ErrNotFound)
		}
		return nil
	})
	if most.Load() > 4 {
		t.Errorf("%d writes at once, want at most 4", most.Load())
	}
	var ee *EachError
	if !errors.As(err, &ee) || !errors.Is(err, ErrNotFound) || ee.Refused {
		t.Fatalf("Each = %v, want an *EachError wrapping ErrNotFound", err)
	}
	var keys []int
	for _, f := range ee.Failed {
		keys = append(keys, f.Key)
	}
	if want := []int{3, 13, 23, 33, 43}; len(keys) != len(want) || keys[0] != 3 || keys[4] != 43 {
		t.Errorf("failed keys %v, want %v", keys, want)
	}
	if got := err.Error(); !strings.HasPrefix(got, "dyngen: ShelveEach: 5 of 50 keys failed: key 3: item not found; key 13") {
		t.Errorf("text %q", got)
	}
	if err := each.Each(context.Background(), 0, 4, nil); err != nil {
		t.Errorf("Each of no key = %v", err)
	}
	// A key refused before any request.
	err = each.Refused(1, &KeyError{Attr: "bookId", Reason: "empty"})
	if !errors.As(err, &ee) || !ee.Refused || len(ee.Failed) != 1 || ee.Failed[0].Key != 1 || !errors.Is(err, ErrInvalidKey) {
		t.Errorf("Refused = %v, want a refused EachError naming key 1", err)
	}
}
