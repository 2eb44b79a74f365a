package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// FuzzStreamEvent decodes any bytes as the events of a DynamoDB stream
// and of a Kinesis data stream, as the data of a Kinesis record and as an
// attribute value: none panics, the lexer takes as JSON what
// encoding/json does, and every value decoded is one DynamoDB stores
// (numbers that parse, sets not empty, 32 levels at most), which writes
// back to the JSON it came from.
func FuzzStreamEvent(f *testing.F) {
	names, err := filepath.Glob(filepath.Join("testdata", "streams", "*.json"))
	if err != nil || len(names) == 0 {
		f.Fatalf("no fixtures: %v", err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		// The data of the Kinesis records, as RecordFromKinesis takes it.
		var ev struct {
			Records []struct {
				Kinesis struct{ Data []byte } `json:"kinesis"`
			}
		}
		if json.Unmarshal(b, &ev) == nil {
			for _, r := range ev.Records {
				if len(r.Kinesis.Data) > 0 {
					f.Add(r.Kinesis.Data)
				}
			}
		}
	}
	for _, c := range memberCases {
		f.Add([]byte(c.json))
	}
	for _, s := range []string{
		`{"Records":[{"eventName":"INSERT","dynamodb":{"Keys":{"a":{"N":"1e999"}}}},{"eventName":"REMOVE","dynamodb":{"Keys":{"a":{"N":5}}}}]}`,
		`{"Records":[{"kinesis":{"data":"e30=","sequenceNumber":"1"}}]}`,
		`{"NS":["1","1.0"]}`, `{"M":{"a":{"S":"x"},"a":{"S":"y"}}}`, `{"L":[{"L":[{"L":[]}]}]}`,
		`{"eventName":"MODIFY","dynamodb":{"Keys":{"k":{"B":"AA=="}},"ApproximateCreationDateTime":1.5e12,"ApproximateCreationDateTimePrecision":"MICROSECOND"},"userIdentity":{"type":"Service","principalId":"dynamodb.amazonaws.com"}}`,
		nested("M", 40, `{"S":"x"}`),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var ev StreamEvent
		if err := json.Unmarshal(data, &ev); err == nil {
			checkEventRecords(t, ev.Records)
		}
		var kev KinesisEvent
		if err := json.Unmarshal(data, &kev); err == nil {
			checkEventRecords(t, kev.Records)
		}
		checkLexerAgrees(t, data)

		rec, err := RecordFromKinesis(data, "42")
		if rec.SequenceNumber != "42" {
			t.Errorf("RecordFromKinesis lost the sequence number: %+v", rec)
		}
		if err == nil {
			checkDecodedRecord(t, &rec)
		} else if !errors.Is(err, ErrInvalidRecord) {
			t.Errorf("RecordFromKinesis: %v does not wrap ErrInvalidRecord", err)
		}

		av, err := AttributeValueFromJSON(data)
		if err != nil {
			return
		}
		checkDecodedValue(t, av, 0)
		back := attrJSON(av)
		again, err := AttributeValueFromJSON([]byte(back))
		if err != nil || !reflect.DeepEqual(again, av) {
			t.Errorf("%q decoded, written back as %s, decoded again as %#v, %v", data, back, again, err)
		}
	})
}

// checkLexerAgrees checks that StreamEvent's UnmarshalJSON, called
// directly, takes data as an event exactly when encoding/json takes it as
// JSON holding an object whose Records is absent, null or an array, with
// as many records.
func checkLexerAgrees(t *testing.T, data []byte) {
	if len(data) > 10000 {
		return // encoding/json refuses nesting deeper than 10,000 levels
	}
	var ev StreamEvent
	err := ev.UnmarshalJSON(data)
	if !json.Valid(data) {
		if err == nil {
			t.Errorf("UnmarshalJSON took %q, which is not JSON", data)
		}
		return
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if bytes.HasPrefix(trimmed, []byte("null")) {
		if err != nil || ev.Records != nil {
			t.Errorf("UnmarshalJSON(%q) = %v, %d records; want nothing", data, err, len(ev.Records))
		}
		return
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		if err == nil {
			t.Errorf("UnmarshalJSON took %q, which is not an object", data)
		}
		return
	}
	var records []json.RawMessage
	if raw, ok := members["Records"]; ok && json.Unmarshal(raw, &records) != nil {
		if err == nil {
			t.Errorf("UnmarshalJSON took %q, whose Records is not an array", data)
		}
		return
	}
	if err != nil || len(ev.Records) != len(records) {
		t.Errorf("UnmarshalJSON(%q) = %v, %d records; want %d", data, err, len(ev.Records), len(records))
	}
}

// checkEventRecords checks every record of an event: decoded and valid,
// or with an error wrapping ErrInvalidRecord and nothing but what
// identifies it.
func checkEventRecords(t *testing.T, records []EventRecord) {
	for i := range records {
		r := &records[i]
		if r.Err == nil {
			checkDecodedRecord(t, &r.Record)
			continue
		}
		if !errors.Is(r.Err, ErrInvalidRecord) {
			t.Errorf("record %d: %v does not wrap ErrInvalidRecord", i, r.Err)
		}
		if r.Record.Op != 0 || r.Record.Keys != nil || r.Record.OldImage != nil || r.Record.NewImage != nil {
			t.Errorf("record %d failed (%v) but holds %+v", i, r.Err, r.Record)
		}
	}
}

// checkDecodedRecord checks a record decoded without an error.
func checkDecodedRecord(t *testing.T, rec *StreamRecord) {
	if rec.Op < OpInsert || rec.Op > OpRemove {
		t.Errorf("record of operation %v", rec.Op)
	}
	if len(rec.Keys) == 0 {
		t.Errorf("record without keys: %+v", rec)
	}
	if rec.Op == OpInsert && rec.OldImage != nil || rec.Op == OpRemove && rec.NewImage != nil || rec.Expired && rec.Op != OpRemove {
		t.Errorf("record of %v with %+v", rec.Op, rec)
	}
	if rec.SizeBytes < 0 {
		t.Errorf("record of size %d", rec.SizeBytes)
	}
	for _, m := range []map[string]types.AttributeValue{rec.Keys, rec.OldImage, rec.NewImage} {
		for _, av := range m {
			checkDecodedValue(t, av, 0)
		}
	}
}

// checkDecodedValue checks a value decoded at depth: every number one
// DynamoDB stores, sets not empty, NULL true, no map or list deeper than
// 32 levels.
func checkDecodedValue(t *testing.T, av types.AttributeValue, depth int) {
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		if _, ok := parseNumber(v.Value); !ok {
			t.Errorf("N %q decoded", v.Value)
		}
	case *types.AttributeValueMemberNS:
		if len(v.Value) == 0 {
			t.Error("an empty NS decoded")
		}
		for _, n := range v.Value {
			if _, ok := parseNumber(n); !ok {
				t.Errorf("NS member %q decoded", n)
			}
		}
	case *types.AttributeValueMemberSS:
		if len(v.Value) == 0 {
			t.Error("an empty SS decoded")
		}
	case *types.AttributeValueMemberBS:
		if len(v.Value) == 0 {
			t.Error("an empty BS decoded")
		}
	case *types.AttributeValueMemberNULL:
		if !v.Value {
			t.Error("a NULL false decoded")
		}
	case *types.AttributeValueMemberM:
		if depth >= maxAttrDepth {
			t.Errorf("a map at level %d decoded", depth+1)
		}
		for _, e := range v.Value {
			checkDecodedValue(t, e, depth+1)
		}
	case *types.AttributeValueMemberL:
		if depth >= maxAttrDepth {
			t.Errorf("a list at level %d decoded", depth+1)
		}
		for _, e := range v.Value {
			checkDecodedValue(t, e, depth+1)
		}
	case *types.AttributeValueMemberS, *types.AttributeValueMemberB, *types.AttributeValueMemberBOOL:
	default:
		t.Errorf("a value %#v decoded", av)
	}
}
