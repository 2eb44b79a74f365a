// Command demo runs every access pattern of the storeinventory model against
// a DynamoDB server (DynamoDB Local) and prints what each returns.
//
//	DYNAMODB_ENDPOINT=http://127.0.0.1:8000 go run ./example/storeinventory/demo
//
// It creates the model's table under a unique name and deletes it at the end.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/dyngen/dyngen/example/storeinventory"
)

func main() {
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" {
		fmt.Fprintln(os.Stderr, "demo: DYNAMODB_ENDPOINT is not set; point it at DynamoDB Local, e.g.\n"+
			"  scripts/dynamodb-local run go run ./example/storeinventory/demo")
		os.Exit(2)
	}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		// DynamoDB Local checks no signature: dummy credentials do.
		Credentials: credentials.NewStaticCredentialsProvider("demo", "demo", ""),
		// DynamoDB Local's responses make the CRC32 check warn.
		DisableValidateResponseChecksum: true,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, client, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// run creates the tables, runs every pattern on a little data, prints what
// each returns to out, and deletes the tables.
func run(ctx context.Context, client *dynamodb.Client, out io.Writer) (err error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	suffix := hex.EncodeToString(b[:])
	s := storeinventory.New(client, storeinventory.WithStoreInventoryTable("StoreInventory-demo-"+suffix))
	for _, table := range s.Tables() {
		name, cerr := createTable(ctx, client, table)
		if name != "" {
			defer func() { err = errors.Join(err, deleteTable(client, name)) }()
		}
		if cerr != nil {
			return cerr
		}
		fmt.Fprintf(out, "created table %s\n", name)
	}
	return demo(ctx, s, out)
}

func demo(ctx context.Context, s *storeinventory.Store, out io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	section := func(pattern, what string) { p("\n== %s: %s", pattern, what) }
	list := func(gs []storeinventory.Good) {
		if len(gs) == 0 {
			p("  (none)")
		}
		for _, g := range gs {
			p("  %s", fmtGood(g))
		}
	}

	var (
		electronics = []string{"Electronics"}
		laptops     = []string{"Electronics", "Laptops"}
		accessories = []string{"Electronics", "Laptops", "Accessories"}
		outlet      = []string{"ElectronicsOutlet"}
	)

	section("AddStore", "two stores")
	for _, st := range []storeinventory.StoreMetadata{
		{StoreID: "StoreA", Location: "Drottninggatan 53, Stockholm"},
		{StoreID: "StoreB", Location: "Kungsportsavenyen 10, Gothenburg"},
	} {
		if err := s.AddStore(ctx, &st); err != nil {
			return err
		}
		p("added %s at %s", st.StoreID, st.Location)
	}

	section("AddGood", "goods of StoreA in a three-level category tree, prices in cents")
	goods := []storeinventory.Good{
		{StoreID: "StoreA", Category: electronics, GoodID: "tv-55", Name: "55\" OLED TV", Price: 129900},
		{StoreID: "StoreA", Category: laptops, GoodID: "xps-13", Name: "Dell XPS 13", Price: 99900},
		{StoreID: "StoreA", Category: laptops, GoodID: "tp-x1", Name: "ThinkPad X1 Carbon", Price: 149900},
		{StoreID: "StoreA", Category: accessories, GoodID: "sticker", Name: "Laptop sticker", Price: 95},
		{StoreID: "StoreA", Category: accessories, GoodID: "dock", Name: "USB-C dock", Price: 10000},
		{StoreID: "StoreA", Category: accessories, GoodID: "mouse", Name: "Wireless mouse", Price: 900},
		{StoreID: "StoreA", Category: accessories, GoodID: "hub", Name: "USB hub", Price: 1000},
		{StoreID: "StoreA", Category: outlet, GoodID: "phone-refurb", Name: "Refurbished phone", Price: 19900},
		{StoreID: "StoreB", Category: accessories, GoodID: "mouse", Name: "Wired mouse", Price: 500},
	}
	for _, g := range goods {
		if err := s.AddGood(ctx, &g); err != nil {
			return err
		}
		p("  %s", fmtGood(g))
	}
	err := s.AddGood(ctx, &goods[0])
	p("adding %s again: %s", goods[0].GoodID, sentinel(err))

	section("StoreLocation", "where StoreA is")
	loc, err := s.StoreLocation(ctx, "StoreA")
	if err != nil {
		return err
	}
	p("%s is at %s", loc.StoreID, loc.Location)
	_, err = s.StoreLocation(ctx, "StoreZ")
	p("StoreZ: %s", sentinel(err))

	section("MoveStore", "StoreA moves")
	moved, err := s.MoveStore(ctx, storeinventory.MoveStoreParams{StoreID: "StoreA", Location: "Sveavägen 44, Stockholm"})
	if err != nil {
		return err
	}
	p("%s is now at %s", moved.StoreID, moved.Location)

	section("GoodsOfStore", "every good of StoreA, in category order")
	for g, err := range s.GoodsOfStoreAll(ctx, "StoreA") {
		if err != nil {
			return err
		}
		p("  %s", fmtGood(g))
	}

	for _, path := range [][]string{electronics, laptops, accessories, outlet} {
		section("GoodsInCategory", "StoreA, category "+strings.Join(path, "#")+" and below")
		res, err := s.GoodsInCategory(ctx, storeinventory.GoodsInCategoryParams{StoreID: "StoreA", Category: path}, storeinventory.Page{})
		if err != nil {
			return err
		}
		list(res.Items)
	}

	section("GoodsInCategoryByPrice", "StoreA, exactly Electronics#Laptops#Accessories, cheapest first")
	byPrice, err := s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{})
	if err != nil {
		return err
	}
	list(byPrice.Items)

	section("GoodsInPriceRange", "StoreA accessories from $9.00 to $100.00")
	inRange, err := s.GoodsInPriceRange(ctx, storeinventory.GoodsInPriceRangeParams{StoreID: "StoreA", Category: accessories, PriceFrom: 900, PriceTo: 10000}, storeinventory.Page{})
	if err != nil {
		return err
	}
	list(inRange.Items)

	section("SaveGood", "replace StoreA's mouse with a new model")
	mouse := storeinventory.Good{StoreID: "StoreA", Category: accessories, GoodID: "mouse", Name: "Wireless mouse (silent)", Price: 1200}
	if err := s.SaveGood(ctx, &mouse); err != nil {
		return err
	}
	p("  %s", fmtGood(mouse))

	section("Reprice", "the dock goes on sale")
	dock, err := s.Reprice(ctx, storeinventory.RepriceParams{StoreID: "StoreA", Category: accessories, GoodID: "dock", Price: 850})
	if err != nil {
		return err
	}
	p("  %s", fmtGood(*dock))
	_, err = s.Reprice(ctx, storeinventory.RepriceParams{StoreID: "StoreA", Category: accessories, GoodID: "no-such-good", Price: 100})
	p("repricing a missing good: %s", sentinel(err))

	section("RemoveGood", "the sticker is sold out")
	if err := s.RemoveGood(ctx, storeinventory.GoodKey{StoreID: "StoreA", Category: accessories, GoodID: "sticker"}); err != nil {
		return err
	}
	p("removed StoreA's sticker; the accessories by price now:")
	byPrice, err = s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: accessories}, storeinventory.Page{})
	if err != nil {
		return err
	}
	list(byPrice.Items)

	section("MoveGood", "the hub moves from the accessories to Electronics: a delete and a create, one transaction")
	hub := storeinventory.Good{StoreID: "StoreA", Category: electronics, GoodID: "hub", Name: "USB hub", Price: 1000}
	move := storeinventory.MoveGoodParams{Good: &hub, FromCategory: accessories}
	if err := s.MoveGood(ctx, move); err != nil {
		return err
	}
	p("moved: %s", fmtGood(hub))
	err = s.MoveGood(ctx, move)
	p("moving it again from the accessories: %s", sentinel(err))
	byPrice, err = s.GoodsInCategoryByPrice(ctx, storeinventory.GoodsInCategoryByPriceParams{StoreID: "StoreA", Category: electronics}, storeinventory.Page{})
	if err != nil {
		return err
	}
	p("StoreA, exactly Electronics, by price:")
	list(byPrice.Items)
	return nil
}

func fmtGood(g storeinventory.Good) string {
	return fmt.Sprintf("%-6s %-38s %-13s %-24q %s", g.StoreID, strings.Join(g.Category, "#"), g.GoodID, g.Name, dollars(g.Price))
}

func dollars(cents int64) string {
	return fmt.Sprintf("$%d.%02d", cents/100, cents%100)
}

// sentinel names the step of a transaction that failed, and the error
// sentinel of the package that err wraps.
func sentinel(err error) string {
	var te *storeinventory.TransactionError
	if errors.As(err, &te) {
		return fmt.Sprintf("step %d (%s): %s", te.Step, te.Action, sentinel(te.Err))
	}
	for _, e := range []struct {
		name string
		err  error
	}{
		{"ErrNotFound", storeinventory.ErrNotFound},
		{"ErrAlreadyExists", storeinventory.ErrAlreadyExists},
		{"ErrConditionFailed", storeinventory.ErrConditionFailed},
		{"ErrInvalidKey", storeinventory.ErrInvalidKey},
		{"ErrInvalidItem", storeinventory.ErrInvalidItem},
		{"ErrInvalidCursor", storeinventory.ErrInvalidCursor},
	} {
		if errors.Is(err, e.err) {
			return "error " + e.name
		}
	}
	if err == nil {
		return "no error"
	}
	return "error: " + err.Error()
}

// createTable creates a table of the Store under the name the Store gave
// it, waits until it is active and turns its time to live on, if the spec
// names an attribute for it. It returns the name even when the wait
// fails, so that the caller can delete the table.
func createTable(ctx context.Context, c *dynamodb.Client, table storeinventory.Table) (string, error) {
	name := aws.ToString(table.Create.TableName)
	if _, err := c.CreateTable(ctx, table.Create); err != nil {
		return "", fmt.Errorf("create table %s: %w", name, err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, time.Minute); err != nil {
		return name, fmt.Errorf("wait for table %s: %w", name, err)
	}
	if table.TimeToLive != nil {
		if _, err := c.UpdateTimeToLive(ctx, table.TimeToLive); err != nil {
			return name, fmt.Errorf("turn time to live on for table %s: %w", name, err)
		}
	}
	return name, nil
}

// deleteTable deletes a table the demo created, even when ctx has ended.
func deleteTable(c *dynamodb.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		return fmt.Errorf("delete table %s: %w", name, err)
	}
	return nil
}
