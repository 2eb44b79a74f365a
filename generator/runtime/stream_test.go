package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streamstypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// attrJSON writes av as DynamoDB JSON, as the streams write it: the
// inverse of AttributeValueFromJSON, written apart from it.
func attrJSON(av types.AttributeValue) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	b64 := func(b []byte) string { return q(base64.StdEncoding.EncodeToString(b)) }
	list := func(n int, elem func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = elem(i)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return `{"S":` + q(v.Value) + `}`
	case *types.AttributeValueMemberN:
		return `{"N":` + q(v.Value) + `}`
	case *types.AttributeValueMemberB:
		return `{"B":` + b64(v.Value) + `}`
	case *types.AttributeValueMemberBOOL:
		return `{"BOOL":` + strconv.FormatBool(v.Value) + `}`
	case *types.AttributeValueMemberNULL:
		return `{"NULL":` + strconv.FormatBool(v.Value) + `}`
	case *types.AttributeValueMemberM:
		return `{"M":` + itemJSON(v.Value) + `}`
	case *types.AttributeValueMemberL:
		return `{"L":` + list(len(v.Value), func(i int) string { return attrJSON(v.Value[i]) }) + `}`
	case *types.AttributeValueMemberSS:
		return `{"SS":` + list(len(v.Value), func(i int) string { return q(v.Value[i]) }) + `}`
	case *types.AttributeValueMemberNS:
		return `{"NS":` + list(len(v.Value), func(i int) string { return q(v.Value[i]) }) + `}`
	case *types.AttributeValueMemberBS:
		return `{"BS":` + list(len(v.Value), func(i int) string { return b64(v.Value[i]) }) + `}`
	}
	panic("attrJSON: no type")
}

// itemJSON writes the attributes of an item as DynamoDB JSON, in the
// order of their names.
func itemJSON(m map[string]types.AttributeValue) string {
	var parts []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range m {
			if !yield(n) {
				return
			}
		}
	}) {
		b, _ := json.Marshal(name)
		parts = append(parts, string(b)+":"+attrJSON(m[name]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// toStreams converts av to the streams client's type: the inverse of
// fromStreamsValue, written apart from it.
func toStreams(av types.AttributeValue) streamstypes.AttributeValue {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return &streamstypes.AttributeValueMemberS{Value: v.Value}
	case *types.AttributeValueMemberN:
		return &streamstypes.AttributeValueMemberN{Value: v.Value}
	case *types.AttributeValueMemberB:
		return &streamstypes.AttributeValueMemberB{Value: v.Value}
	case *types.AttributeValueMemberBOOL:
		return &streamstypes.AttributeValueMemberBOOL{Value: v.Value}
	case *types.AttributeValueMemberNULL:
		return &streamstypes.AttributeValueMemberNULL{Value: v.Value}
	case *types.AttributeValueMemberM:
		return &streamstypes.AttributeValueMemberM{Value: toStreamsItem(v.Value)}
	case *types.AttributeValueMemberL:
		l := make([]streamstypes.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = toStreams(e)
		}
		return &streamstypes.AttributeValueMemberL{Value: l}
	case *types.AttributeValueMemberSS:
		return &streamstypes.AttributeValueMemberSS{Value: v.Value}
	case *types.AttributeValueMemberNS:
		return &streamstypes.AttributeValueMemberNS{Value: v.Value}
	case *types.AttributeValueMemberBS:
		return &streamstypes.AttributeValueMemberBS{Value: v.Value}
	}
	panic("toStreams: no type")
}

func toStreamsItem(m map[string]types.AttributeValue) map[string]streamstypes.AttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]streamstypes.AttributeValue, len(m))
	for n, v := range m {
		out[n] = toStreams(v)
	}
	return out
}

// nested is the DynamoDB JSON of a value of depth maps (typ "M") or lists
// (typ "L"), one in the other, around leaf.
func nested(typ string, depth int, leaf string) string {
	var b strings.Builder
	for range depth {
		if typ == "M" {
			b.WriteString(`{"M":{"a":`)
		} else {
			b.WriteString(`{"L":[`)
		}
	}
	b.WriteString(leaf)
	for range depth {
		if typ == "M" {
			b.WriteString(`}}`)
		} else {
			b.WriteString(`]}`)
		}
	}
	return b.String()
}

// nestedValue is the value nested writes.
func nestedValue(typ string, depth int, leaf types.AttributeValue) types.AttributeValue {
	v := leaf
	for range depth {
		if typ == "M" {
			v = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": v}}
		} else {
			v = &types.AttributeValueMemberL{Value: []types.AttributeValue{v}}
		}
	}
	return v
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "streams", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStreamOpString(t *testing.T) {
	for op, want := range map[StreamOp]string{OpInsert: "INSERT", OpModify: "MODIFY", OpRemove: "REMOVE", 0: "StreamOp(0)", 9: "StreamOp(9)"} {
		if got := op.String(); got != want {
			t.Errorf("StreamOp(%d).String() = %q, want %q", uint8(op), got, want)
		}
		if got, ok := opNamed(want); ok != (op >= OpInsert && op <= OpRemove) || ok && got != op {
			t.Errorf("opNamed(%q) = %v, %v", want, got, ok)
		}
	}
}

func TestErrInvalidRecordDistinct(t *testing.T) {
	if !strings.HasPrefix(ErrInvalidRecord.Error(), pkgPrefix) {
		t.Errorf("%q lacks the prefix %q", ErrInvalidRecord, pkgPrefix)
	}
	for _, k := range allKinds {
		if errors.Is(ErrInvalidRecord, k) || errors.Is(k, ErrInvalidRecord) {
			t.Errorf("ErrInvalidRecord and %v are one", k)
		}
	}
}

// memberCases hold a value of every member type, written as DynamoDB
// JSON.
var memberCases = []struct {
	name string
	json string
	want types.AttributeValue
}{
	{"S", `{"S":"x"}`, &types.AttributeValueMemberS{Value: "x"}},
	{"S empty", `{"S":""}`, &types.AttributeValueMemberS{Value: ""}},
	{"S escaped", `{"S":"\u00e9\n\"\\\/\ud83d\ude00"}`, &types.AttributeValueMemberS{Value: "é\n\"\\/😀"}},
	{"S UTF-8", `{"S":"naïve 😀"}`, &types.AttributeValueMemberS{Value: "naïve 😀"}},
	{"N", `{"N":"1"}`, &types.AttributeValueMemberN{Value: "1"}},
	{"N kept as written", `{"N":"-1.50e+06"}`, &types.AttributeValueMemberN{Value: "-1.50e+06"}},
	{"N 38 digits", `{"N":"` + digits38 + `"}`, &types.AttributeValueMemberN{Value: digits38}},
	{"N least", `{"N":"1e-130"}`, &types.AttributeValueMemberN{Value: "1e-130"}},
	{"B", `{"B":"AAEqQQ=="}`, &types.AttributeValueMemberB{Value: []byte{0, 1, 42, 65}}},
	{"B empty", `{"B":""}`, &types.AttributeValueMemberB{Value: []byte{}}},
	{"BOOL true", `{"BOOL":true}`, &types.AttributeValueMemberBOOL{Value: true}},
	{"BOOL false", `{"BOOL":false}`, &types.AttributeValueMemberBOOL{Value: false}},
	{"NULL", `{"NULL":true}`, &types.AttributeValueMemberNULL{Value: true}},
	{"M", `{"M":{"a":{"S":"x"},"b":{"N":"2"}}}`, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": &types.AttributeValueMemberS{Value: "x"}, "b": &types.AttributeValueMemberN{Value: "2"}}}},
	{"M empty", `{"M":{}}`, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}},
	{"L", `{"L":[{"S":"x"},{"NULL":true},{"L":[]}]}`, &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberL{Value: []types.AttributeValue{}}}}},
	{"L empty", `{"L":[]}`, &types.AttributeValueMemberL{Value: []types.AttributeValue{}}},
	{"SS", `{"SS":["a","b"]}`, &types.AttributeValueMemberSS{Value: []string{"a", "b"}}},
	{"NS", `{"NS":["1","1.5","-2e3"]}`, &types.AttributeValueMemberNS{Value: []string{"1", "1.5", "-2e3"}}},
	{"BS", `{"BS":["AAEqQQ==","QSoBAA=="]}`, &types.AttributeValueMemberBS{Value: [][]byte{{0, 1, 42, 65}, {65, 42, 1, 0}}}},
	{"nested", `{"M":{"l":{"L":[{"M":{"ns":{"NS":["7"]},"bs":{"BS":["AA=="]},"ss":{"SS":["z"]}}},{"B":"AQ=="},{"BOOL":false}]}}}`,
		&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"ns": &types.AttributeValueMemberNS{Value: []string{"7"}},
				"bs": &types.AttributeValueMemberBS{Value: [][]byte{{0}}},
				"ss": &types.AttributeValueMemberSS{Value: []string{"z"}},
			}},
			&types.AttributeValueMemberB{Value: []byte{1}},
			&types.AttributeValueMemberBOOL{Value: false},
		}}}}},
	{"white space", " {\n\t\"S\" : \"x\"\r\n} ", &types.AttributeValueMemberS{Value: "x"}},
}

// TestAttributeValueMembers decodes a value of each member type from its
// JSON and from the streams client's type, and writes it back to JSON
// and decodes it again.
func TestAttributeValueMembers(t *testing.T) {
	for _, tt := range memberCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AttributeValueFromJSON([]byte(tt.json))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("AttributeValueFromJSON(%s) = %#v, %v; want %#v", tt.json, got, err, tt.want)
			}
			back := attrJSON(got)
			again, err := AttributeValueFromJSON([]byte(back))
			if err != nil || !reflect.DeepEqual(again, tt.want) {
				t.Errorf("written back as %s, decoded again as %#v, %v", back, again, err)
			}
			conv, err := fromStreamsValue(toStreams(tt.want), 0)
			if err != nil || !reflect.DeepEqual(conv, tt.want) {
				t.Errorf("from the streams client's type: %#v, %v; want %#v", conv, err, tt.want)
			}
		})
	}
}

// TestAttributeValueRefused: a value that is not DynamoDB's is an error
// that names its part, never the value.
func TestAttributeValueRefused(t *testing.T) {
	const secret = "s3cr3t"
	for _, tt := range []struct {
		name, json, want string
	}{
		{"two members", `{"S":"` + secret + `","N":"1"}`, "more than one member"},
		{"one type twice", `{"S":"` + secret + `","S":"x"}`, "more than one member"},
		{"no member", `{}`, "no member"},
		{"not an object", `"` + secret + `"`, "not an object"},
		{"array", `[{"S":"x"}]`, "not an object"},
		{"unknown type", `{"X":"` + secret + `"}`, `"X" is no DynamoDB type`},
		{"long unknown type", `{"` + secret + `-type":"x"}`, "no DynamoDB type"},
		{"type in lower case", `{"s":"x"}`, `"s" is no DynamoDB type`},
		{"S number", `{"S":5}`, "S is not a string"},
		{"S null", `{"S":null}`, "S is not a string"},
		{"N JSON number", `{"N":5}`, "N is not a string"},
		{"N 1e999", `{"N":"1e999"}`, "not a number DynamoDB stores"},
		{"N 39 digits", `{"N":"` + thirtyNine + `"}`, "not a number DynamoDB stores"},
		{"N text", `{"N":"` + secret + `"}`, "not a number DynamoDB stores"},
		{"N empty", `{"N":""}`, "not a number DynamoDB stores"},
		{"B not base64", `{"B":"` + secret + `!"}`, "B is not base64"},
		{"B number", `{"B":1}`, "B is not a string"},
		{"BOOL string", `{"BOOL":"true"}`, "BOOL is neither true nor false"},
		{"BOOL null", `{"BOOL":null}`, "BOOL is neither true nor false"},
		{"NULL false", `{"NULL":false}`, "NULL is not true"},
		{"M array", `{"M":[]}`, "M is not an object"},
		{"M name twice", `{"M":{"a":{"S":"` + secret + `"},"a":{"S":"y"}}}`, "a: a name given twice"},
		{"L object", `{"L":{}}`, "L is not an array"},
		{"SS empty", `{"SS":[]}`, "an empty set"},
		{"SS twice", `{"SS":["` + secret + `","` + secret + `"]}`, "holds a string twice"},
		{"SS number", `{"SS":["a",1]}`, "[1]: SS member is not a string"},
		{"NS empty", `{"NS":[]}`, "an empty set"},
		{"NS twice by value", `{"NS":["1","1.0"]}`, "holds a number twice"},
		{"NS zeros", `{"NS":["0","-0e5"]}`, "holds a number twice"},
		{"NS bad number", `{"NS":["1","1e999"]}`, "[1]: not a number DynamoDB stores"},
		{"NS JSON number", `{"NS":[1]}`, "[0]: NS member is not a string"},
		{"BS empty", `{"BS":[]}`, "an empty set"},
		{"BS twice", `{"BS":["AA==","AA=="]}`, "holds a binary value twice"},
		{"BS not base64", `{"BS":["AA==","*"]}`, "[1]: BS member is not base64"},
		{"nested path", `{"M":{"a":{"L":[{"S":"x"},{"M":{"b":{"N":"` + secret + `"}}}]}}}`, "a[1].b: not a number DynamoDB stores"},
		{"nested list path", `{"L":[{"L":[{"S":"x"},{"NULL":false}]}]}`, "[0][1]: NULL is not true"},
		{"33 levels of maps", nested("M", 33, `{"S":"x"}`), "nested deeper than 32 levels"},
		{"33 levels of lists", nested("L", 33, `{"S":"x"}`), "nested deeper than 32 levels"},
		{"10,000 levels", nested("M", 10000, `{"S":"x"}`), "nested deeper than 32 levels"},
		{"malformed", `{"S":"x"`, "malformed JSON"},
		{"malformed deep", nested("L", 10000, `{"S":"x"}`)[1:], "malformed JSON"},
		{"more after", `{"S":"x"} {}`, "malformed JSON"},
		{"empty", ``, "malformed JSON"},
		{"control character", "{\"S\":\"a\tb\"}", "malformed JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			av, err := AttributeValueFromJSON([]byte(tt.json))
			if err == nil {
				t.Fatalf("AttributeValueFromJSON = %#v, want an error", av)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, pkgPrefix) || !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want one holding %q", msg, tt.want)
			}
			if strings.Contains(msg, secret) {
				t.Errorf("error %q holds the value", msg)
			}
		})
	}
}

// TestAttributeValueDepth: maps and lists nest 32 levels deep, from JSON
// and from the streams client's types; a map that holds itself ends at
// the limit.
func TestAttributeValueDepth(t *testing.T) {
	leaf := &types.AttributeValueMemberS{Value: "x"}
	for _, typ := range []string{"M", "L"} {
		want := nestedValue(typ, maxAttrDepth, leaf)
		got, err := AttributeValueFromJSON([]byte(nested(typ, maxAttrDepth, `{"S":"x"}`)))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s of 32 levels: %v", typ, err)
		}
		if _, err := fromStreamsValue(toStreams(want), 0); err != nil {
			t.Errorf("%s of 32 levels from the streams client: %v", typ, err)
		}
		deeper := nestedValue(typ, maxAttrDepth+1, leaf)
		if _, err := fromStreamsValue(toStreams(deeper), 0); err == nil || !strings.Contains(err.Error(), "deeper than 32") {
			t.Errorf("%s of 33 levels from the streams client: %v", typ, err)
		}
	}
	self := &streamstypes.AttributeValueMemberM{Value: map[string]streamstypes.AttributeValue{}}
	self.Value["me"] = self
	if _, err := fromStreamsValue(self, 0); err == nil || !strings.Contains(err.Error(), "deeper than 32") {
		t.Errorf("a map that holds itself: %v", err)
	}
}

// TestJSONLexerMatchesEncodingJSON: the lexer takes as JSON what
// encoding/json does, and decodes strings as it does.
func TestJSONLexerMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`0`, `-0`, `1.5e+3`, `-1E-2`, `01`, `1.`, `.5`, `+1`, `1e`, `1e+`, `--1`, `- 1`, `0x1`, `Infinity`, `NaN`,
		`true`, `false`, `null`, `tru`, `nul`, `True`, `truex`, `"x"`, `"\u00e9"`, `"\uD83D\uDE00"`, `"\ud800"`, `"\x"`, `"\u12"`, `"\u12G4"`,
		"\"a\x01b\"", "\"\xff\xfe\"", "\"a\x7fb\"", `"unterminated`, `"\"`,
		`{}`, `[]`, `{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":1 "b":2}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":[1,{"b":[]}]}`,
		`{"a":{"b":{"c":[[[]]]}}}`, `[[[[`, `]]`, `{"a":1}}`, `[1]]`, ` [ 1 , 2 ] `, "\t{\n}\r", `{"":""}`, "\x00", "[\x00]", "",
		"\xef\xbb\xbf{}", `{"a":"b"}x`, `1 2`,
	} {
		l := jsonLexer{b: []byte(in)}
		err := l.skip()
		if err == nil {
			err = l.end()
		}
		if valid := json.Valid([]byte(in)); (err == nil) != valid {
			t.Errorf("%q: lexer says %v, encoding/json's Valid %v", in, err, valid)
		}
		if len(in) > 0 && in[0] == '"' && json.Valid([]byte(in)) {
			var want string
			_ = json.Unmarshal([]byte(in), &want)
			l := jsonLexer{b: []byte(in)}
			if got, err := l.str(); err != nil || got != want {
				t.Errorf("%q: lexer reads %q, %v; encoding/json %q", in, got, err, want)
			}
		}
	}
}

// TestStreamEventFixture decodes the Lambda event of AWS's documentation:
// an INSERT, a MODIFY and a REMOVE.
func TestStreamEventFixture(t *testing.T) {
	var ev StreamEvent
	if err := json.Unmarshal(readFixture(t, "lambda_dynamodb_event.json"), &ev); err != nil {
		t.Fatal(err)
	}
	const arn = "arn:aws:dynamodb:us-west-2:111122223333:table/TestTable/stream/2015-05-11T21:21:33.291"
	id := map[string]types.AttributeValue{"Id": &types.AttributeValueMemberN{Value: "101"}}
	image := func(msg string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"Id": &types.AttributeValueMemberN{Value: "101"}, "Message": &types.AttributeValueMemberS{Value: msg}}
	}
	created := time.Date(2015, 4, 9, 0, 0, 0, 0, time.UTC) // 1428537600
	want := []StreamRecord{
		{EventID: "1", Op: OpInsert, SequenceNumber: "111", Created: created, Keys: id, NewImage: image("New item!"), ViewType: "NEW_AND_OLD_IMAGES", SizeBytes: 26, Source: arn},
		{EventID: "2", Op: OpModify, SequenceNumber: "222", Created: created, Keys: id, OldImage: image("New item!"), NewImage: image("This item has changed"), ViewType: "NEW_AND_OLD_IMAGES", SizeBytes: 59, Source: arn},
		{EventID: "3", Op: OpRemove, SequenceNumber: "333", Created: created, Keys: id, OldImage: image("This item has changed"), ViewType: "NEW_AND_OLD_IMAGES", SizeBytes: 38, Source: arn},
	}
	checkRecords(t, ev.Records, want)
}

// checkRecords checks that every record was decoded, as want.
func checkRecords(t *testing.T, got []EventRecord, want []StreamRecord) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Err != nil {
			t.Errorf("record %d: %v", i, got[i].Err)
			continue
		}
		g, w := got[i].Record, want[i]
		if g.EventID != w.EventID || g.Op != w.Op || g.SequenceNumber != w.SequenceNumber || !g.Created.Equal(w.Created) || g.Created.Location() != time.UTC ||
			g.ViewType != w.ViewType || g.SizeBytes != w.SizeBytes || g.Expired != w.Expired || g.Source != w.Source {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, g, w)
		}
		for _, m := range []struct {
			name      string
			got, want map[string]types.AttributeValue
		}{{"Keys", g.Keys, w.Keys}, {"OldImage", g.OldImage, w.OldImage}, {"NewImage", g.NewImage, w.NewImage}} {
			if !reflect.DeepEqual(m.got, m.want) {
				t.Errorf("record %d: %s %s, want %s", i, m.name, itemJSON(m.got), itemJSON(m.want))
			}
		}
	}
}

// TestStreamEventTTLFixture: a REMOVE by the time to live is Expired, a
// REMOVE by a write is not; ApproximateCreationDateTime may have a
// fraction.
func TestStreamEventTTLFixture(t *testing.T) {
	var ev StreamEvent
	if err := json.Unmarshal(readFixture(t, "lambda_dynamodb_ttl.json"), &ev); err != nil {
		t.Fatal(err)
	}
	const arn = "arn:aws:dynamodb:us-east-1:123456789012:table/Sessions/stream/2016-12-01T00:00:00.000"
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	want := []StreamRecord{
		{EventID: "c81e728d9d4c2f636f067f89cc14862c", Op: OpRemove, SequenceNumber: "1405400000000002063282832", Created: time.Unix(1480642020, 0),
			Keys:     map[string]types.AttributeValue{"SessionId": s("a1b2c3")},
			OldImage: map[string]types.AttributeValue{"SessionId": s("a1b2c3"), "UserName": s("jane"), "ExpirationTime": &types.AttributeValueMemberN{Value: "1480641000"}},
			ViewType: "NEW_AND_OLD_IMAGES", SizeBytes: 64, Expired: true, Source: arn},
		{EventID: "eccbc87e4b5ce2fe28308fd9f2a7baf3", Op: OpRemove, SequenceNumber: "1405500000000002063282833", Created: time.Unix(1480642021, 5e8),
			Keys:     map[string]types.AttributeValue{"SessionId": s("d4e5f6")},
			OldImage: map[string]types.AttributeValue{"SessionId": s("d4e5f6"), "UserName": s("joe"), "ExpirationTime": &types.AttributeValueMemberN{Value: "1480700000"}},
			ViewType: "NEW_AND_OLD_IMAGES", SizeBytes: 63, Source: arn},
	}
	checkRecords(t, ev.Records, want)
}

// kinesisWant are the records of kinesis_dynamodb_event.json.
func kinesisWant() []StreamRecord {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	key := map[string]types.AttributeValue{"Artist": s("No One You Know"), "SongTitle": s("Call Me Today")}
	song := func(year string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"Artist": s("No One You Know"), "SongTitle": s("Call Me Today"), "Year": n(year)}
	}
	full := song("2015")
	full["Price"] = n("1.98")
	full["Cover"] = &types.AttributeValueMemberB{Value: []byte{0, 1, 42, 65}}
	full["Released"] = &types.AttributeValueMemberBOOL{Value: true}
	full["Label"] = &types.AttributeValueMemberNULL{Value: true}
	full["Genres"] = &types.AttributeValueMemberSS{Value: []string{"Country", "Pop"}}
	full["Charts"] = &types.AttributeValueMemberNS{Value: []string{"3", "17"}}
	full["Samples"] = &types.AttributeValueMemberBS{Value: [][]byte{{0, 1, 42, 65}, {65, 42, 1, 0}}}
	full["Album"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"Title":  s("Somewhat Famous"),
		"Tracks": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("Call Me Today"), n("1")}},
	}}
	return []StreamRecord{
		{EventID: "4b0d4a2c-4f28-4b8e-9a6e-2d8b8b2a7f11", Op: OpInsert, SequenceNumber: "49590338271490256608559692538361571095921575989136588898",
			Created: time.UnixMilli(1606714671542), Keys: key, NewImage: full, SizeBytes: 214, Source: "Music"},
		{EventID: "8f2d6a61-0f3c-4b4f-9d0d-3e1c6b2e7a42", Op: OpModify, SequenceNumber: "49590338271490256608559692540925702759324208523137515618",
			Created: time.UnixMicro(1719039879869591), Keys: key, OldImage: song("2015"), NewImage: song("2016"), SizeBytes: 121, Source: "Music"},
		{EventID: "0d9f7a1e-52c4-4d0b-8e57-6b6f0a9c3d21", Op: OpRemove, SequenceNumber: "49590338271490256608559692541039210312458105743137636370",
			Created: time.UnixMilli(1719082124026), Keys: map[string]types.AttributeValue{"Artist": s("Acme Band"), "SongTitle": s("Happy Day")},
			OldImage:  map[string]types.AttributeValue{"Artist": s("Acme Band"), "SongTitle": s("Happy Day"), "Expires": n("1719080000")},
			SizeBytes: 92, Expired: true, Source: "Music"},
	}
}

// TestKinesisEventFixture decodes the Lambda event of a Kinesis data
// stream fed by DynamoDB: times in milliseconds and microseconds, every
// member type, a removal by the time to live.
func TestKinesisEventFixture(t *testing.T) {
	var ev KinesisEvent
	if err := json.Unmarshal(readFixture(t, "kinesis_dynamodb_event.json"), &ev); err != nil {
		t.Fatal(err)
	}
	checkRecords(t, ev.Records, kinesisWant())
}

// TestRecordFromKinesisFixture decodes the data of a Kinesis record as
// the Kinesis API gives it.
func TestRecordFromKinesisFixture(t *testing.T) {
	const seq = "49590338271490256608559692538361571095921575989136588898"
	rec, err := RecordFromKinesis(readFixture(t, "kinesis_dynamodb_record.json"), seq)
	checkRecords(t, []EventRecord{{Record: rec, Err: err}}, kinesisWant()[:1])
}

// lambdaRecordJSON is the JSON of a record of a Lambda event whose
// eventName, dynamodb members (after Keys) and extra members are given.
func lambdaRecordJSON(seq, eventName, keys, rest string) string {
	return `{"eventID":"id-` + seq + `","eventName":` + eventName + `,"eventSource":"aws:dynamodb","eventSourceARN":"arn:x",` +
		`"dynamodb":{"SequenceNumber":"` + seq + `","SizeBytes":10,"StreamViewType":"NEW_AND_OLD_IMAGES"` + keys + rest + `}}`
}

// TestStreamEventHostileRecords: a record that is not a DynamoDB record
// is decoded with Err set and its identifiers; the others are decoded.
func TestStreamEventHostileRecords(t *testing.T) {
	const k = `,"Keys":{"id":{"S":"k"}}`
	good := func(seq string) string { return lambdaRecordJSON(seq, `"INSERT"`, k, `,"NewImage":{"id":{"S":"k"}}`) }
	hostile := []struct {
		name, json, want string
		noIDs            bool
	}{
		{"wrong member type", lambdaRecordJSON("h1", `"INSERT"`, k, `,"NewImage":{"a":{"S":5}}`), "NewImage: a: S is not a string", false},
		{"two members", lambdaRecordJSON("h2", `"MODIFY"`, k, `,"NewImage":{"a":{"S":"x","N":"1"}}`), "more than one member", false},
		{"missing Keys", lambdaRecordJSON("h3", `"INSERT"`, "", ""), "no Keys", false},
		{"empty Keys", lambdaRecordJSON("h4", `"INSERT"`, `,"Keys":{}`, ""), "no Keys", false},
		{"Keys of a map", lambdaRecordJSON("h5", `"INSERT"`, `,"Keys":{"id":{"M":{}}}`, ""), "not of a key type", false},
		{"unknown eventName", lambdaRecordJSON("h6", `"UPSERT"`, k, ""), `eventName "UPSERT" is no operation`, false},
		{"missing eventName", lambdaRecordJSON("h7", `null`, k, ""), "no eventName", false},
		{"eventName number", lambdaRecordJSON("h8", `1`, k, ""), "eventName: not a string", false},
		{"N 1e999", lambdaRecordJSON("h9", `"INSERT"`, k, `,"NewImage":{"n":{"N":"1e999"}}`), "NewImage: n: not a number DynamoDB stores", false},
		{"N as a JSON number", lambdaRecordJSON("h10", `"INSERT"`, k, `,"NewImage":{"n":{"N":5}}`), "NewImage: n: N is not a string", false},
		{"deep nesting", lambdaRecordJSON("h11", `"INSERT"`, k, `,"NewImage":{"d":`+nested("M", 4000, `{"S":"x"}`)+`}`), "nested deeper than 32 levels", false},
		{"invalid base64", lambdaRecordJSON("h12", `"INSERT"`, k, `,"NewImage":{"b":{"B":"%%%"}}`), "B is not base64", false},
		{"INSERT with OldImage", lambdaRecordJSON("h13", `"INSERT"`, k, `,"OldImage":{"id":{"S":"k"}}`), "an INSERT with an OldImage", false},
		{"REMOVE with NewImage", lambdaRecordJSON("h14", `"REMOVE"`, k, `,"NewImage":{"id":{"S":"k"}}`), "a REMOVE with a NewImage", false},
		{"bad time", lambdaRecordJSON("h15", `"INSERT"`, k, `,"ApproximateCreationDateTime":1e999`), "ApproximateCreationDateTime is not a time", false},
		{"time as a string", lambdaRecordJSON("h16", `"INSERT"`, k, `,"ApproximateCreationDateTime":"1"`), "ApproximateCreationDateTime: not a number", false},
		{"negative size", lambdaRecordJSON("h17", `"INSERT"`, k, `,"SizeBytes":-1`), "SizeBytes is not a size", false},
		{"name twice in Keys", lambdaRecordJSON("h18", `"INSERT"`, `,"Keys":{"id":{"S":"k"},"id":{"S":"j"}}`, ""), "Keys: id: a name given twice", false},
		{"not an object", `["INSERT"]`, "not a JSON object", true},
		{"dynamodb a string", `{"eventID":"id-h20","eventName":"INSERT","dynamodb":"x"}`, "dynamodb: not an object", true},
		{"a Kinesis record of no change", `{"kinesis":{"data":"eyJldmVudElEIjoiaWQtaDIxIiwidGFibGVOYW1lIjoiYXJuOngifQ==","sequenceNumber":"h21"},"eventSource":"aws:kinesis","eventID":"id-h21","eventSourceARN":"arn:x","eventName":"aws:kinesis:record"}`, "no eventName", false},
		{"userIdentity type a number", `{"eventID":"id-h22","eventName":"REMOVE","eventSourceARN":"arn:x","userIdentity":{"type":5},"dynamodb":{"SequenceNumber":"h22","Keys":{"id":{"S":"k"}}}}`, "userIdentity: type: not a string", false},
		{"userIdentity a string", `{"eventID":"id-h23","eventName":"REMOVE","eventSourceARN":"arn:x","userIdentity":"x","dynamodb":{"SequenceNumber":"h23","Keys":{"id":{"S":"k"}}}}`, "userIdentity: not an object", false},
	}
	var records []string
	for i, h := range hostile {
		records = append(records, good(strconv.Itoa(2*i)), h.json)
	}
	records = append(records, good("last"))
	data := []byte(`{"Records":[` + strings.Join(records, ",") + `]}`)
	var ev StreamEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	if len(ev.Records) != len(records) {
		t.Fatalf("%d records, want %d", len(ev.Records), len(records))
	}
	for i, h := range hostile {
		g := ev.Records[2*i]
		if g.Err != nil || g.Record.SequenceNumber != strconv.Itoa(2*i) || g.Record.Op != OpInsert || len(g.Record.NewImage) != 1 {
			t.Errorf("the good record before %s: %+v, %v", h.name, g.Record, g.Err)
		}
		r := ev.Records[2*i+1]
		if r.Err == nil {
			t.Errorf("%s: decoded as %+v", h.name, r.Record)
			continue
		}
		if !errors.Is(r.Err, ErrInvalidRecord) || !strings.Contains(r.Err.Error(), h.want) {
			t.Errorf("%s: error %q, want ErrInvalidRecord and %q", h.name, r.Err, h.want)
		}
		wantSeq := ""
		if !h.noIDs {
			wantSeq = "h" + strconv.Itoa(i+1)
		}
		if r.Record.SequenceNumber != wantSeq || !h.noIDs && (r.Record.EventID != "id-"+wantSeq || r.Record.Source != "arn:x") {
			t.Errorf("%s: kept %+v, want sequence number %q and its event ID", h.name, r.Record, wantSeq)
		}
		if r.Record.Op != 0 || r.Record.Keys != nil || r.Record.NewImage != nil || r.Record.OldImage != nil {
			t.Errorf("%s: kept more than its identifiers: %+v", h.name, r.Record)
		}
	}
	if last := ev.Records[len(ev.Records)-1]; last.Err != nil || last.Record.SequenceNumber != "last" {
		t.Errorf("the last record: %+v, %v", last.Record, last.Err)
	}

	// HandleEvent stops at the first failure and names it.
	var handled []string
	resp, err := HandleEvent(context.Background(), ev.Records, func(_ context.Context, r *StreamRecord) error {
		handled = append(handled, r.SequenceNumber)
		return nil
	})
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "h1" {
		t.Errorf("HandleEvent = %+v, %v; want a failure of h1", resp, err)
	}
	if !slices.Equal(handled, []string{"0"}) {
		t.Errorf("handled %v, want [0]", handled)
	}
}

// TestStreamEventDepth: JSON nested more than 10,000 levels is refused by
// encoding/json before UnmarshalJSON runs; UnmarshalJSON itself keeps the
// batch, and so does a Kinesis event, whose records are base64.
func TestStreamEventDepth(t *testing.T) {
	deep := nested("M", 10000, `{"S":"x"}`)
	good := lambdaRecordJSON("1", `"INSERT"`, `,"Keys":{"id":{"S":"k"}}`, "")
	bad := lambdaRecordJSON("2", `"INSERT"`, `,"Keys":{"id":{"S":"k"}}`, `,"NewImage":{"d":`+deep+`}`)
	data := []byte(`{"Records":[` + good + "," + bad + "," + good + `]}`)
	var ev StreamEvent
	if err := json.Unmarshal(data, &ev); err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Errorf("json.Unmarshal of 20,000 levels: %v, want encoding/json's refusal", err)
	}
	if err := ev.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	checkOneBad(t, ev.Records, 1, "2", "nested deeper than 32 levels")

	var kev KinesisEvent
	kinesisRecord := func(seq, data string) string {
		return `{"kinesis":{"sequenceNumber":"` + seq + `","data":"` + base64.StdEncoding.EncodeToString([]byte(data)) + `"},"eventSource":"aws:kinesis"}`
	}
	kgood := `{"eventID":"e","eventName":"INSERT","tableName":"T","dynamodb":{"Keys":{"id":{"S":"k"}}}}`
	kbad := `{"eventID":"e","eventName":"INSERT","tableName":"T","dynamodb":{"Keys":{"id":{"S":"k"}},"NewImage":{"d":` + deep + `}}}`
	kdata := `{"Records":[` + kinesisRecord("1", kgood) + "," + kinesisRecord("2", kbad) + "," + kinesisRecord("3", kgood) + `]}`
	if err := json.Unmarshal([]byte(kdata), &kev); err != nil {
		t.Fatal(err)
	}
	checkOneBad(t, kev.Records, 1, "2", "nested deeper than 32 levels")
}

// checkOneBad checks that of records only the one at bad failed, with
// sequence number seq and an error holding want.
func checkOneBad(t *testing.T, records []EventRecord, bad int, seq, want string) {
	t.Helper()
	if len(records) != 3 {
		t.Fatalf("%d records, want 3", len(records))
	}
	for i, r := range records {
		if i != bad {
			if r.Err != nil {
				t.Errorf("record %d: %v", i, r.Err)
			}
			continue
		}
		if !errors.Is(r.Err, ErrInvalidRecord) || !strings.Contains(r.Err.Error(), want) || r.Record.SequenceNumber != seq {
			t.Errorf("record %d: %+v, %v; want sequence number %s and %q", i, r.Record, r.Err, seq, want)
		}
	}
}

// TestKinesisEventHostileRecords: a Kinesis record whose data is not a
// DynamoDB record keeps its sequence number.
func TestKinesisEventHostileRecords(t *testing.T) {
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	good := enc(`{"eventID":"e","eventName":"MODIFY","tableName":"T","dynamodb":{"Keys":{"id":{"N":"1"}}}}`)
	for _, tt := range []struct {
		name, kinesis, want string
	}{
		{"data not base64", `{"sequenceNumber":"9","data":"%%%"}`, "kinesis.data is not base64"},
		{"data not JSON", `{"sequenceNumber":"9","data":"` + enc("{oops") + `"}`, "malformed JSON"},
		{"data not an object", `{"sequenceNumber":"9","data":"` + enc(`[1]`) + `"}`, "not a JSON object"},
		{"no data", `{"sequenceNumber":"9"}`, "no kinesis.data"},
		{"data a number", `{"sequenceNumber":"9","data":5}`, "kinesis.data: not a string"},
		{"unknown precision", `{"sequenceNumber":"9","data":"` + enc(`{"eventName":"INSERT","dynamodb":{"Keys":{"id":{"S":"k"}},"ApproximateCreationDateTime":1,"ApproximateCreationDateTimePrecision":"NANOSECOND"}}`) + `"}`, "neither MILLISECOND nor MICROSECOND"},
		{"N 1e999", `{"sequenceNumber":"9","data":"` + enc(`{"eventName":"REMOVE","dynamodb":{"Keys":{"id":{"N":"1e999"}}}}`) + `"}`, "Keys: id: not a number DynamoDB stores"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := `{"Records":[{"kinesis":{"sequenceNumber":"8","data":"` + good + `"}},{"kinesis":` + tt.kinesis + `},{"kinesis":{"sequenceNumber":"10","data":"` + good + `"}}]}`
			var ev KinesisEvent
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatal(err)
			}
			checkOneBad(t, ev.Records, 1, "9", tt.want)
			if ev.Records[0].Record.SequenceNumber != "8" || ev.Records[2].Record.Op != OpModify || ev.Records[2].Record.Source != "T" {
				t.Errorf("the good records: %+v", ev.Records)
			}
		})
	}
	// A DynamoDB stream's event decoded as a Kinesis event says so.
	var ev KinesisEvent
	if err := json.Unmarshal(readFixture(t, "lambda_dynamodb_event.json"), &ev); err != nil {
		t.Fatal(err)
	}
	if len(ev.Records) != 3 || ev.Records[0].Err == nil || !strings.Contains(ev.Records[0].Err.Error(), "decode its event as a StreamEvent") {
		t.Errorf("a DynamoDB stream's event as a Kinesis event: %+v", ev.Records)
	}
}

// TestStreamEventNotAnEvent: only JSON that is no event fails as a whole.
func TestStreamEventNotAnEvent(t *testing.T) {
	for _, in := range []string{`{"Records":[`, `{"Records":[{}]`, `[]`, `"x"`, `{"Records":{}}`, `{"Records":"x"}`, `{"Records":[{"a":}]}`, `{"Records":[]} x`, ``} {
		var ev StreamEvent
		err := ev.UnmarshalJSON([]byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), pkgPrefix+"stream event: ") {
			t.Errorf("UnmarshalJSON(%q) = %v, want an error", in, err)
		}
		var kev KinesisEvent
		if err := kev.UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("KinesisEvent.UnmarshalJSON(%q) = nil, want an error", in)
		}
	}
	for in, want := range map[string]int{`{}`: 0, `{"Records":null}`: 0, `{"Records":[]}`: 0, `{"records":[{}]}`: 0, `{"Records":[1],"Records":[{},{}]}`: 2, ` {"Other":[{"x":[1,{}]}],"Records":[{}]} `: 1} {
		var ev StreamEvent
		if err := json.Unmarshal([]byte(in), &ev); err != nil || len(ev.Records) != want {
			t.Errorf("Unmarshal(%q): %d records, %v; want %d", in, len(ev.Records), err, want)
		}
		for _, r := range ev.Records {
			if !errors.Is(r.Err, ErrInvalidRecord) {
				t.Errorf("Unmarshal(%q): a record %+v", in, r)
			}
		}
	}
	ev := StreamEvent{Records: make([]EventRecord, 1)}
	if err := json.Unmarshal([]byte(`null`), &ev); err != nil || len(ev.Records) != 1 {
		t.Errorf("null: %v, %d records; want the event as it was", err, len(ev.Records))
	}
}

func TestEpochTime(t *testing.T) {
	for _, tt := range []struct {
		text   string
		places int
		want   time.Time
		ok     bool
	}{
		{"1428537600", 9, time.Unix(1428537600, 0), true},
		{"1480642021.5", 9, time.Unix(1480642021, 5e8), true},
		{"1480642021.123456789999", 9, time.Unix(1480642021, 123456789), true},
		{"1.4285376e9", 9, time.Unix(1428537600, 0), true},
		{"1606714671542", 6, time.UnixMilli(1606714671542), true},
		{"1719039879869591", 3, time.UnixMicro(1719039879869591), true},
		{"0", 9, time.Unix(0, 0), true},
		{"-1", 9, time.Unix(-1, 0), true},
		{"9223372036.854775807", 9, time.Unix(0, 1<<63-1), true},
		{"9223372036.854775808", 9, time.Time{}, false},
		{"1e20", 9, time.Time{}, false},
		{"1e999", 9, time.Time{}, false},
		{"x", 9, time.Time{}, false},
	} {
		got, ok := epochTime(tt.text, tt.places)
		if ok != tt.ok || !got.Equal(tt.want) || ok && got.Location() != time.UTC {
			t.Errorf("epochTime(%q, %d) = %v, %v; want %v, %v", tt.text, tt.places, got, ok, tt.want, tt.ok)
		}
	}
}

// streamsRecord is a record of the Streams API built in Go.
func streamsRecord(seq string, op streamstypes.OperationType, keys, oldImage, newImage map[string]streamstypes.AttributeValue) streamstypes.Record {
	return streamstypes.Record{
		EventID:   aws.String("ev-" + seq),
		EventName: op,
		Dynamodb: &streamstypes.StreamRecord{
			Keys: keys, OldImage: oldImage, NewImage: newImage,
			SequenceNumber: aws.String(seq), SizeBytes: aws.Int64(42),
			StreamViewType:              streamstypes.StreamViewTypeNewAndOldImages,
			ApproximateCreationDateTime: aws.Time(time.Date(2024, 5, 6, 7, 8, 9, 0, time.FixedZone("x", 3600))),
		},
	}
}

// TestRecordFromStreams converts records of the Streams API with nested
// values.
func TestRecordFromStreams(t *testing.T) {
	keys := map[string]streamstypes.AttributeValue{"pk": &streamstypes.AttributeValueMemberS{Value: "p"}, "sk": &streamstypes.AttributeValueMemberN{Value: "7"}}
	image := map[string]streamstypes.AttributeValue{
		"pk": &streamstypes.AttributeValueMemberS{Value: "p"},
		"sk": &streamstypes.AttributeValueMemberN{Value: "7"},
		"doc": &streamstypes.AttributeValueMemberM{Value: map[string]streamstypes.AttributeValue{
			"list": &streamstypes.AttributeValueMemberL{Value: []streamstypes.AttributeValue{
				&streamstypes.AttributeValueMemberM{Value: map[string]streamstypes.AttributeValue{
					"ss": &streamstypes.AttributeValueMemberSS{Value: []string{"a", "b"}},
					"ns": &streamstypes.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
					"bs": &streamstypes.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
				}},
				&streamstypes.AttributeValueMemberB{Value: []byte("bin")},
				&streamstypes.AttributeValueMemberBOOL{Value: true},
				&streamstypes.AttributeValueMemberNULL{Value: true},
			}},
		}},
	}
	wantImage := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "p"},
		"sk": &types.AttributeValueMemberN{Value: "7"},
		"doc": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{
				&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
					"ss": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
					"ns": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
					"bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
				}},
				&types.AttributeValueMemberB{Value: []byte("bin")},
				&types.AttributeValueMemberBOOL{Value: true},
				&types.AttributeValueMemberNULL{Value: true},
			}},
		}},
	}
	wantKeys := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "p"}, "sk": &types.AttributeValueMemberN{Value: "7"}}
	created := time.Date(2024, 5, 6, 6, 8, 9, 0, time.UTC)

	ttl := streamsRecord("3", streamstypes.OperationTypeRemove, keys, image, nil)
	ttl.UserIdentity = &streamstypes.Identity{Type: aws.String("Service"), PrincipalId: aws.String("dynamodb.amazonaws.com")}
	notTTL := streamsRecord("4", streamstypes.OperationTypeModify, keys, image, image)
	notTTL.UserIdentity = ttl.UserIdentity // the identity of the time to live on a MODIFY: not Expired
	in := []streamstypes.Record{
		streamsRecord("1", streamstypes.OperationTypeInsert, keys, nil, image),
		streamsRecord("2", streamstypes.OperationTypeModify, keys, image, image),
		ttl, notTTL,
	}
	got, err := RecordsFromStreams(in)
	if err != nil {
		t.Fatal(err)
	}
	var events []EventRecord
	for _, r := range got {
		events = append(events, EventRecord{Record: r})
	}
	base := StreamRecord{Created: created, Keys: wantKeys, ViewType: "NEW_AND_OLD_IMAGES", SizeBytes: 42}
	with := func(seq string, op StreamOp, old, new map[string]types.AttributeValue, expired bool) StreamRecord {
		r := base
		r.EventID, r.SequenceNumber, r.Op, r.OldImage, r.NewImage, r.Expired = "ev-"+seq, seq, op, old, new, expired
		return r
	}
	checkRecords(t, events, []StreamRecord{
		with("1", OpInsert, nil, wantImage, false),
		with("2", OpModify, wantImage, wantImage, false),
		with("3", OpRemove, wantImage, nil, true),
		with("4", OpModify, wantImage, wantImage, false),
	})
}

// TestRecordsFromStreamsRefused: the records that can't be converted are
// named by position; the others are converted.
func TestRecordsFromStreamsRefused(t *testing.T) {
	ok := map[string]streamstypes.AttributeValue{"id": &streamstypes.AttributeValueMemberS{Value: "k"}}
	bad := func(v streamstypes.AttributeValue) map[string]streamstypes.AttributeValue {
		return map[string]streamstypes.AttributeValue{"id": &streamstypes.AttributeValueMemberS{Value: "k"}, "bad": &streamstypes.AttributeValueMemberM{Value: map[string]streamstypes.AttributeValue{"v": v}}}
	}
	noDynamodb := streamstypes.Record{EventID: aws.String("ev-x"), EventName: streamstypes.OperationTypeInsert}
	var nilS *streamstypes.AttributeValueMemberS
	cases := []struct {
		rec  streamstypes.Record
		want string
	}{
		{streamsRecord("b1", "UPSERT", ok, nil, nil), `eventName "UPSERT" is no operation`},
		{streamsRecord("b2", "", ok, nil, nil), "no eventName"},
		{noDynamodb, "no Keys"},
		{streamsRecord("b4", streamstypes.OperationTypeInsert, nil, nil, ok), "no Keys"},
		{streamsRecord("b5", streamstypes.OperationTypeInsert, ok, nil, bad(&streamstypes.AttributeValueMemberN{Value: "1e999"})), "NewImage: bad.v: not a number DynamoDB stores"},
		{streamsRecord("b6", streamstypes.OperationTypeModify, ok, bad(&streamstypes.AttributeValueMemberNS{Value: []string{"1", "1.00"}}), nil), "OldImage: bad.v: a set that holds a number twice"},
		{streamsRecord("b7", streamstypes.OperationTypeModify, ok, nil, bad(&streamstypes.AttributeValueMemberSS{})), "bad.v: an empty set"},
		{streamsRecord("b8", streamstypes.OperationTypeModify, ok, nil, bad(&streamstypes.AttributeValueMemberNULL{Value: false})), "bad.v: a NULL that is not true"},
		{streamsRecord("b9", streamstypes.OperationTypeModify, ok, nil, bad(nil)), "bad.v: no value"},
		{streamsRecord("b10", streamstypes.OperationTypeModify, ok, nil, bad(nilS)), "bad.v: no value"},
		{streamsRecord("b11", streamstypes.OperationTypeModify, ok, nil, bad(&streamstypes.UnknownUnionMember{Tag: "X"})), "bad.v: a value of no DynamoDB type"},
		{streamsRecord("b12", streamstypes.OperationTypeModify, ok, nil, bad(&streamstypes.AttributeValueMemberL{Value: []streamstypes.AttributeValue{&streamstypes.AttributeValueMemberBS{Value: [][]byte{{1}, {1}}}}})), "bad.v[0]: a set that holds a binary value twice"},
		{streamsRecord("b13", streamstypes.OperationTypeInsert, ok, ok, nil), "an INSERT with an OldImage"},
		{streamsRecord("b14", streamstypes.OperationTypeRemove, ok, nil, ok), "a REMOVE with a NewImage"},
		{streamsRecord("b15", streamstypes.OperationTypeRemove, map[string]streamstypes.AttributeValue{"id": &streamstypes.AttributeValueMemberBOOL{}}, nil, nil), "Keys: id: not of a key type"},
	}
	var in []streamstypes.Record
	for i, c := range cases {
		in = append(in, streamsRecord("g"+strconv.Itoa(i), streamstypes.OperationTypeInsert, ok, nil, ok), c.rec)
	}
	got, err := RecordsFromStreams(in)
	if len(got) != len(cases) {
		t.Fatalf("%d records converted, want %d", len(got), len(cases))
	}
	for i, r := range got {
		if r.SequenceNumber != "g"+strconv.Itoa(i) {
			t.Errorf("record %d converted: %+v", i, r)
		}
	}
	var re *RecordsError
	if !errors.As(err, &re) || len(re.Records) != len(cases) {
		t.Fatalf("error %v, want a RecordsError of %d records", err, len(cases))
	}
	if !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("errors.Is(%v, ErrInvalidRecord) = false", err)
	}
	var first *RecordError
	if !errors.As(err, &first) || first.Position != 1 {
		t.Errorf("errors.As(*RecordError) = %+v", first)
	}
	for i, c := range cases {
		r := re.Records[i]
		wantSeq := ""
		if c.rec.Dynamodb != nil {
			wantSeq = *c.rec.Dynamodb.SequenceNumber
		}
		if r.Position != 2*i+1 || r.SequenceNumber != wantSeq || r.EventID != *c.rec.EventID || !errors.Is(r.Err, ErrInvalidRecord) || !strings.Contains(r.Err.Error(), c.want) {
			t.Errorf("case %d: %+v (%v), want position %d and %q", i, r, r.Err, 2*i+1, c.want)
		}
		if single, err := RecordFromStreams(c.rec); err == nil || single.SequenceNumber != wantSeq || single.Keys != nil {
			t.Errorf("RecordFromStreams of case %d = %+v, %v", i, single, err)
		}
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, pkgPrefix+strconv.Itoa(len(cases))+" stream records can't be decoded: record 1 (sequence number b1, event ev-b1): invalid stream record: eventName") ||
		!strings.Contains(msg, "; record 5 (event ev-x): invalid stream record: no Keys") || strings.Count(msg, pkgPrefix) != 1 {
		t.Errorf("message %q", msg)
	}
}

func TestRecordErrorMessage(t *testing.T) {
	cause := errors.New("handler failed")
	for _, tt := range []struct {
		err  RecordError
		want string
	}{
		{RecordError{Position: 2, SequenceNumber: "111", EventID: "e", Err: cause}, pkgPrefix + "stream record 2 (sequence number 111, event e): handler failed"},
		{RecordError{Position: 0, EventID: "e", Err: invalid("no Keys", nil)}, pkgPrefix + "stream record 0 (event e): invalid stream record: no Keys"},
		{RecordError{Position: 1}, pkgPrefix + "stream record 1"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	re := &RecordsError{Records: []RecordError{{Position: 3, SequenceNumber: "9", Err: invalid("no Keys", nil)}}}
	if got, want := re.Error(), pkgPrefix+"1 stream record can't be decoded: record 3 (sequence number 9): invalid stream record: no Keys"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestHandleRecords(t *testing.T) {
	records := []StreamRecord{{SequenceNumber: "1"}, {SequenceNumber: "2", EventID: "e2"}, {SequenceNumber: "3"}}
	fail := errors.New("no")
	var seen []string
	err := HandleRecords(context.Background(), records, func(_ context.Context, r *StreamRecord) error {
		seen = append(seen, r.SequenceNumber)
		if r.SequenceNumber == "2" {
			return fail
		}
		return nil
	})
	var re *RecordError
	if !errors.As(err, &re) || re.Position != 1 || re.SequenceNumber != "2" || re.EventID != "e2" || !errors.Is(err, fail) || errors.Is(err, ErrInvalidRecord) {
		t.Errorf("HandleRecords = %v, want the failure of record 1", err)
	}
	if !slices.Equal(seen, []string{"1", "2"}) {
		t.Errorf("handled %v, want 1 and 2", seen)
	}
	if err := HandleRecords(context.Background(), records, func(context.Context, *StreamRecord) error { return nil }); err != nil {
		t.Errorf("HandleRecords = %v, want nil", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err = HandleRecords(ctx, records, func(_ context.Context, r *StreamRecord) error {
		if r.SequenceNumber == "1" {
			cancel()
		}
		return nil
	})
	if !errors.As(err, &re) || re.Position != 1 || !errors.Is(err, context.Canceled) {
		t.Errorf("HandleRecords once ctx is done = %v, want record 1 and context.Canceled", err)
	}
	if err := HandleRecords(context.Background(), records, nil); err == nil {
		t.Error("HandleRecords without a handler: nil")
	}
}

func TestHandleEvent(t *testing.T) {
	ok := func(_ context.Context, r *StreamRecord) error { return nil }
	resp, err := HandleEvent(context.Background(), []EventRecord{{Record: StreamRecord{SequenceNumber: "1"}}}, ok)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(resp); string(b) != `{"batchItemFailures":[]}` {
		t.Errorf("the response of a batch handled: %s", b)
	}
	resp, err = HandleEvent(context.Background(), nil, ok)
	if err != nil || resp == nil || resp.BatchItemFailures == nil || len(resp.BatchItemFailures) != 0 {
		t.Errorf("an empty batch: %+v, %v", resp, err)
	}

	fail := errors.New("no")
	records := []EventRecord{{Record: StreamRecord{SequenceNumber: "1"}}, {Record: StreamRecord{SequenceNumber: "2"}}, {Record: StreamRecord{SequenceNumber: "3"}}}
	var seen []string
	resp, err = HandleEvent(context.Background(), records, func(_ context.Context, r *StreamRecord) error {
		seen = append(seen, r.SequenceNumber)
		if r.SequenceNumber == "2" {
			return fail
		}
		return nil
	})
	if b, _ := json.Marshal(resp); err != nil || string(b) != `{"batchItemFailures":[{"itemIdentifier":"2"}]}` {
		t.Errorf("a handler's failure: %s, %v", b, err)
	}
	if !slices.Equal(seen, []string{"1", "2"}) {
		t.Errorf("handled %v, want 1 and 2", seen)
	}

	// A record that could not be decoded fails without being handled.
	records[0].Err = invalid("no Keys", nil)
	seen = nil
	resp, err = HandleEvent(context.Background(), records, func(_ context.Context, r *StreamRecord) error {
		seen = append(seen, r.SequenceNumber)
		return nil
	})
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "1" || len(seen) != 0 {
		t.Errorf("an undecoded record: %+v, %v, handled %v", resp, err, seen)
	}

	// A failure without a sequence number fails the batch.
	records = []EventRecord{{Record: StreamRecord{SequenceNumber: "1"}}, {Record: StreamRecord{EventID: "e"}, Err: invalid("no Keys", nil)}}
	resp, err = HandleEvent(context.Background(), records, ok)
	var re *RecordError
	if resp != nil || !errors.As(err, &re) || re.Position != 1 || re.EventID != "e" || !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("a failure without a sequence number: %+v, %v", resp, err)
	}

	// Once ctx is done, the next record fails.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resp, err = HandleEvent(ctx, []EventRecord{{Record: StreamRecord{SequenceNumber: "7"}}}, ok)
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "7" {
		t.Errorf("ctx done: %+v, %v", resp, err)
	}
}

// TestStreamEventLambdaStyle decodes an event as aws-lambda-go does (a
// pointer to the event, from the invocation's bytes) and answers it.
func TestStreamEventLambdaStyle(t *testing.T) {
	var ev *StreamEvent
	if err := json.Unmarshal(readFixture(t, "lambda_dynamodb_event.json"), &ev); err != nil || ev == nil {
		t.Fatalf("%v, %v", ev, err)
	}
	resp, err := HandleEvent(context.Background(), ev.Records, func(_ context.Context, r *StreamRecord) error {
		if r.Op == OpRemove {
			return errors.New("not now")
		}
		return nil
	})
	if b, _ := json.Marshal(resp); err != nil || string(b) != `{"batchItemFailures":[{"itemIdentifier":"333"}]}` {
		t.Errorf("response %s, %v", b, err)
	}
}

// TestStreamEventTakesKinesis decodes a Lambda event of a Kinesis data
// stream as a StreamEvent: each record as KinesisEvent decodes it, so a
// consumer's one Lambda function serves either source.
func TestStreamEventTakesKinesis(t *testing.T) {
	data, err := os.ReadFile("testdata/streams/kinesis_dynamodb_event.json")
	if err != nil {
		t.Fatal(err)
	}
	var want KinesisEvent
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	var got StreamEvent
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Records) == 0 || len(got.Records) != len(want.Records) {
		t.Fatalf("%d records, want %d", len(got.Records), len(want.Records))
	}
	for i := range want.Records {
		if got.Records[i].Err != nil || want.Records[i].Err != nil {
			t.Fatalf("record %d: %v, %v", i, got.Records[i].Err, want.Records[i].Err)
		}
		if !reflect.DeepEqual(got.Records[i].Record, want.Records[i].Record) {
			t.Errorf("record %d: %+v, want %+v", i, got.Records[i].Record, want.Records[i].Record)
		}
	}
}
