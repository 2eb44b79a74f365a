package runtime

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's limits on one batch request.
const (
	maxBatchGet   = 100
	maxBatchWrite = 25
)

// Backoff between retries of unprocessed items: full jitter over an
// exponentially growing window, capped.
const (
	backoffBase = 20 * time.Millisecond
	backoffCap  = 2 * time.Second
)

// backoff waits before retry attempt (0, 1, ...), or returns the
// context's error.
func backoff(ctx context.Context, attempt int) error {
	window := backoffCap
	if attempt < 16 && backoffBase<<attempt < backoffCap {
		window = backoffBase << attempt
	}
	t := time.NewTimer(rand.N(window) + time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// throttled reports whether err is DynamoDB refusing the request for
// load: the request may be sent again as it was.
func throttled(err error) bool {
	var pt *types.ProvisionedThroughputExceededException
	var rl *types.RequestLimitExceeded
	var te *types.ThrottlingException
	return errors.As(err, &pt) || errors.As(err, &rl) || errors.As(err, &te)
}

type batchGetClient interface {
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
}

// batchGet reads the items of keys (unique) from table, 100 keys per
// request; unprocessed keys and throttled requests are retried with
// backoff until every key is read or ctx ends. Items come back in no
// particular order.
func batchGet(ctx context.Context, c batchGetClient, table string, keys []map[string]types.AttributeValue, consistent bool, projection string, names map[string]string) ([]map[string]types.AttributeValue, error) {
	out := make([]map[string]types.AttributeValue, 0, len(keys))
	for start := 0; start < len(keys); start += maxBatchGet {
		pending := keys[start:min(start+maxBatchGet, len(keys))]
		for attempt := 0; len(pending) > 0; attempt++ {
			// Each request has its own copies: the client may change
			// what it is given.
			read, proj := consistent, projection
			ka := types.KeysAndAttributes{Keys: pending, ConsistentRead: &read}
			if projection != "" {
				ka.ProjectionExpression = &proj
				ka.ExpressionAttributeNames = maps.Clone(names)
			}
			res, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: ka}})
			if err != nil {
				if !throttled(err) {
					return nil, err
				}
			} else {
				out = append(out, res.Responses[table]...)
				pending = res.UnprocessedKeys[table].Keys
				if len(pending) == 0 {
					break
				}
			}
			if err := backoff(ctx, attempt); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

type batchWriteClient interface {
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// batchWrite sends the write requests (one per key) to table, 25 per
// request; unprocessed requests and throttled requests are retried with
// backoff until all are done or ctx ends.
func batchWrite(ctx context.Context, c batchWriteClient, table string, reqs []types.WriteRequest) error {
	for start := 0; start < len(reqs); start += maxBatchWrite {
		pending := reqs[start:min(start+maxBatchWrite, len(reqs))]
		for attempt := 0; len(pending) > 0; attempt++ {
			res, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: pending}})
			if err != nil {
				if !throttled(err) {
					return err
				}
			} else {
				pending = res.UnprocessedItems[table]
				if len(pending) == 0 {
					break
				}
			}
			if err := backoff(ctx, attempt); err != nil {
				return err
			}
		}
	}
	return nil
}
