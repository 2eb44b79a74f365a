package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dyngen/dyngen/internal/dynamotest"
)

// TestTables checks that a Store's Tables define its tables under the
// physical names its options gave, that the tables they make serve the
// Store, and that time to live is on where the spec names its attribute
// (Main's expiresAt) and off elsewhere.
func TestTables(t *testing.T) {
	t.Parallel()
	c := dynamotest.Client(t)
	ctx := t.Context()
	main, readings, gauges := dynamotest.TableName("prod-main"), dynamotest.TableName("prod-readings"), dynamotest.TableName("prod-gauges")
	s := newChecked(t, c, WithMainTable(main), WithReadingsTable(readings), WithGaugesTable(gauges))
	tables := s.Tables()
	if len(tables) != 3 || tables[0].Name != "Main" || tables[1].Name != "Readings" || tables[2].Name != "Gauges" {
		t.Fatalf("Tables() = %d tables, want Main, Readings and Gauges", len(tables))
	}
	want := map[string]string{"Main": main, "Readings": readings, "Gauges": gauges}
	for _, table := range tables {
		if got := aws.ToString(table.Create.TableName); got != want[table.Name] {
			t.Errorf("table %s is created as %q, want %q", table.Name, got, want[table.Name])
		}
		dynamotest.MakeTable(t, c, table.Create, table.TimeToLive)
	}
	if tables[0].TimeToLive == nil || aws.ToString(tables[0].TimeToLive.TableName) != main {
		t.Errorf("Main's time to live is %+v, want one for table %s", tables[0].TimeToLive, main)
	}
	if tables[1].TimeToLive != nil {
		t.Errorf("Readings has no ttl, but its TimeToLive is %+v", tables[1].TimeToLive)
	}
	for name, attr := range map[string]string{main: "expiresAt", readings: "", gauges: ""} {
		d, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatalf("DescribeTimeToLive %s: %v", name, err)
		}
		ttl := d.TimeToLiveDescription
		on := ttl != nil && (ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabled || ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabling)
		switch {
		case attr != "" && (!on || aws.ToString(ttl.AttributeName) != attr):
			t.Errorf("time to live of %s: %+v, want enabled on %s", name, ttl, attr)
		case attr == "" && on:
			t.Errorf("time to live of %s: %+v, want disabled", name, ttl)
		}
	}
	// The Store works on the tables.
	must(t, s.CreateWidget(ctx, newWidget("o", "w")))
	if _, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "w"}); err != nil {
		t.Errorf("GetWidget on table %s: %v", main, err)
	}
	must(t, s.SaveReading(ctx, &Reading{DeviceID: 1, Seq: 1}))
	if _, err := s.LatestReading(ctx, 1); err != nil {
		t.Errorf("LatestReading on table %s: %v", readings, err)
	}
	// Each call gives new values: changing one changes no other.
	tables[0].Create.TableName = aws.String("changed")
	tables[0].Create.KeySchema[0].AttributeName = aws.String("changed")
	if again := s.Tables(); aws.ToString(again[0].Create.TableName) != main || aws.ToString(again[0].Create.KeySchema[0].AttributeName) != "PK" {
		t.Error("changing what Tables returned changed what it returns next")
	}
}
