package backfill

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	dyngen "github.com/dyngen/dyngen/generator/runtime"
)

// benchItems is the number of users each run of a backfill benchmark
// rewrites.
const benchItems = 2000

// BenchmarkBackfill: the backfill of GSI1 over 2,000 users stored
// without it, on DynamoDB Local, against the loop a user would write by
// hand: one sequential Scan, and per item one UpdateItem of the keys its
// MarshalItem writes, unconditioned and without checkpoints. Each
// iteration loads the users into a table of its own first, untimed.
// items/s is the users rewritten per second.
func BenchmarkBackfill(b *testing.B) {
	variants := []struct {
		name string
		run  func(b *testing.B, e *env)
	}{
		{"loop", handLoop},
		{"dyngen/segments=1", func(b *testing.B, e *env) {
			e.run(b, e.raw, "User.GSI1", dyngen.BackfillOptions{Segments: 1, Write: true})
		}},
		{"dyngen/segments=4", func(b *testing.B, e *env) {
			e.run(b, e.raw, "User.GSI1", dyngen.BackfillOptions{Segments: 4, Write: true})
		}},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) { itemsPerSecond(b, benchItems, v.run) })
	}
}

// itemsPerSecond times run over items users stored without GSI1's keys,
// each iteration over a table of its own loaded untimed, and reports the
// users rewritten per second.
func itemsPerSecond(b *testing.B, items int, run func(b *testing.B, e *env)) {
	var took time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		e := newEnv(b)
		loadOld(b, e, items)
		b.StartTimer()
		start := time.Now()
		run(b, e)
		took += time.Since(start)
		n++
	}
	b.ReportMetric(float64(n*items)/took.Seconds(), "items/s")
}

// handLoop is the hand-written backfill: scan, and write each item's
// keys.
func handLoop(b *testing.B, e *env) { handLoopOn(b, e, e.raw) }

func handLoopOn(b *testing.B, e *env, c dyngen.BackfillClient) {
	ctx := context.Background()
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: &e.table})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, item := range page.Items {
			var u User
			if err := u.UnmarshalItem(item); err != nil {
				b.Fatal(err)
			}
			full, err := u.MarshalItem()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName:                 &e.table,
				Key:                       map[string]types.AttributeValue{"PK": item["PK"], "SK": item["SK"]},
				UpdateExpression:          aws.String("SET GSI1PK = :pk, GSI1SK = :sk"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": full["GSI1PK"], ":sk": full["GSI1SK"]},
			}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkBackfillRate: the backfill of GSI1 over 2,000 users, in 4
// segments, held to a rate of capacity units a second; cu/s is the rate
// it consumed (the report's capacity over the run's time), of-target
// that over the target.
func BenchmarkBackfillRate(b *testing.B) {
	for _, rate := range []float64{200, 800} {
		b.Run(fmt.Sprintf("target=%.0f", rate), func(b *testing.B) {
			var took time.Duration
			var units float64
			for b.Loop() {
				b.StopTimer()
				e := newEnv(b)
				loadOld(b, e, benchItems)
				b.StartTimer()
				start := time.Now()
				rep := e.run(b, e.raw, "User.GSI1", dyngen.BackfillOptions{Segments: 4, Write: true, Rate: rate})
				took += time.Since(start)
				units += rep.Capacity
			}
			b.ReportMetric(units/took.Seconds(), "cu/s")
			b.ReportMetric(units/took.Seconds()/rate, "of-target")
		})
	}
}

// slow adds a latency to every call, as a network to DynamoDB in the
// same region does; DynamoDB Local answers on the loopback.
type slow struct {
	dyngen.BackfillClient
	d time.Duration
}

func (s slow) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	time.Sleep(s.d)
	return s.BackfillClient.Scan(ctx, in, optFns...)
}

func (s slow) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	time.Sleep(s.d)
	return s.BackfillClient.GetItem(ctx, in, optFns...)
}

func (s slow) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	time.Sleep(s.d)
	return s.BackfillClient.UpdateItem(ctx, in, optFns...)
}

func (s slow) PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	time.Sleep(s.d)
	return s.BackfillClient.PutItem(ctx, in, optFns...)
}

// BenchmarkBackfillLatency is BenchmarkBackfill over 500 users with 5 ms
// added to every call: where the time of a call is the network's, not
// the server's, segments scanned at once rewrite more items a second.
func BenchmarkBackfillLatency(b *testing.B) {
	const items, latency = 500, 5 * time.Millisecond
	variants := []struct {
		name string
		run  func(b *testing.B, e *env, c dyngen.BackfillClient)
	}{
		{"loop", func(b *testing.B, e *env, c dyngen.BackfillClient) { handLoopOn(b, e, c) }},
		{"dyngen/segments=1", func(b *testing.B, e *env, c dyngen.BackfillClient) {
			e.run(b, c, "User.GSI1", dyngen.BackfillOptions{Segments: 1, Write: true})
		}},
		{"dyngen/segments=4", func(b *testing.B, e *env, c dyngen.BackfillClient) {
			e.run(b, c, "User.GSI1", dyngen.BackfillOptions{Segments: 4, Write: true})
		}},
		{"dyngen/segments=16", func(b *testing.B, e *env, c dyngen.BackfillClient) {
			e.run(b, c, "User.GSI1", dyngen.BackfillOptions{Segments: 16, Write: true})
		}},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			itemsPerSecond(b, items, func(b *testing.B, e *env) { v.run(b, e, slow{e.raw, latency}) })
		})
	}
}
