package runtime

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The JSON of stream records: the events Lambda sends a function (a
// DynamoDB stream's, a Kinesis data stream's) and the records Kinesis
// Data Streams for DynamoDB writes. It is read here by a reader of its
// own rather than by encoding/json's Unmarshal, so that one wrong record
// spoils no other of its event, member names match exactly, an attribute
// value's members are counted (encoding/json keeps the last of a name
// given twice) and nesting, however deep, costs no stack: values are
// skipped without recursion, and attribute values are decoded
// recursively only to DynamoDB's 32 levels.

// StreamEvent is the event Lambda sends a function for a DynamoDB
// stream, or for a Kinesis data stream a table streams its changes to: a
// record holding kinesis is decoded as KinesisEvent decodes it, so that
// one function serves either source. It decodes itself (UnmarshalJSON),
// so that a handler given to aws-lambda-go's lambda.Start takes it as it
// is:
//
//	lambda.Start(func(ctx context.Context, ev *dyngen.StreamEvent) (*dyngen.BatchResponse, error) {
//		return dyngen.HandleEvent(ctx, ev.Records, handle)
//	})
type StreamEvent struct {
	Records []EventRecord `json:"Records"`
}

// KinesisEvent is the event Lambda sends a function for a Kinesis data
// stream that a table streams its changes to (Kinesis Data Streams for
// DynamoDB). The data of each of its records is the base64 of the JSON
// DynamoDB wrote (see RecordFromKinesis); a record's SequenceNumber is
// that of the Kinesis record (kinesis.sequenceNumber), which Lambda's
// batch responses name. Kinesis Data Streams for DynamoDB may write a
// change more than once, and the changes of an item out of their order:
// a handler that needs them once and in order compares Created, or a
// version the items hold.
type KinesisEvent struct {
	Records []EventRecord `json:"Records"`
}

// EventRecord is one record of an event: decoded, or with Err set to why
// it could not be (an error wrapping ErrInvalidRecord). A record that
// could not be decoded keeps in Record what identifies it (EventID,
// SequenceNumber, Source) as far as it could be read, and nothing else.
type EventRecord struct {
	Record StreamRecord
	Err    error
}

// UnmarshalJSON decodes a Lambda event of a DynamoDB stream. It fails
// only when data is not JSON, not an object, or its Records not an array
// (JSON null leaves ev as it is); a record that is not a DynamoDB stream
// record (a wrong attribute value, a missing or unknown eventName, no
// Keys) is decoded as far as it identifies itself, with Err set, and the
// other records are decoded all the same. encoding/json's Unmarshal
// refuses JSON nested more than 10,000 levels deep before it calls
// UnmarshalJSON.
func (ev *StreamEvent) UnmarshalJSON(data []byte) error {
	if ev == nil {
		return errors.New(pkgPrefix + "stream event: UnmarshalJSON into nil")
	}
	return unmarshalEvent(data, "stream event", anyEventRecord, &ev.Records)
}

// anyEventRecord decodes a record of a Lambda event: of a Kinesis data
// stream when it holds kinesis, else of a DynamoDB stream.
func anyEventRecord(raw []byte) (StreamRecord, error) {
	kinesis := false
	l := jsonLexer{b: raw}
	if l.peek() == '{' {
		_ = l.object(func(name string) error {
			kinesis = kinesis || name == "kinesis"
			return l.skip()
		})
	}
	if kinesis {
		return kinesisEventRecord(raw)
	}
	return lambdaRecord(raw)
}

// UnmarshalJSON decodes a Lambda event of a Kinesis data stream fed by
// DynamoDB, as StreamEvent's UnmarshalJSON does a DynamoDB stream's: only
// JSON that is no event fails; a record whose data is not a DynamoDB
// record is decoded with Err set, keeping its SequenceNumber.
func (ev *KinesisEvent) UnmarshalJSON(data []byte) error {
	if ev == nil {
		return errors.New(pkgPrefix + "Kinesis event: UnmarshalJSON into nil")
	}
	return unmarshalEvent(data, "Kinesis event", kinesisEventRecord, &ev.Records)
}

// unmarshalEvent sets *records to the records of the Lambda event data,
// each decoded with decode, and leaves it as it is for JSON null; what
// names the event in its error.
func unmarshalEvent(data []byte, what string, decode func([]byte) (StreamRecord, error), records *[]EventRecord) error {
	raw, null, err := eventRecords(data)
	if err != nil {
		return errors.New(pkgPrefix + what + ": " + err.Error())
	}
	if !null {
		*records = decodeEventRecords(raw, decode)
	}
	return nil
}

// decodeEventRecords decodes the JSON of each record with decode.
func decodeEventRecords(records [][]byte, decode func([]byte) (StreamRecord, error)) []EventRecord {
	out := make([]EventRecord, len(records))
	for i, raw := range records {
		out[i].Record, out[i].Err = decode(raw)
	}
	return out
}

// eventRecords reads the JSON of a Lambda event: the JSON of each element
// of its Records, in order (the last Records, if there are more). null
// reports that data is JSON null. The whole of data is read, so that JSON
// malformed anywhere is an error.
func eventRecords(data []byte) (records [][]byte, null bool, err error) {
	l := jsonLexer{b: data}
	switch l.peek() {
	case '{':
	case 'n':
		if err := l.lit("null"); err != nil {
			return nil, false, err
		}
		return nil, true, l.end()
	default:
		if err := l.skip(); err != nil {
			return nil, false, err
		}
		if err := l.end(); err != nil {
			return nil, false, err
		}
		return nil, false, errors.New("not a JSON object")
	}
	err = l.object(func(name string) error {
		if name != "Records" {
			return l.skip()
		}
		records = nil
		switch l.peek() {
		case '[':
			return l.array(func(int) error {
				raw, err := l.raw()
				records = append(records, raw)
				return err
			})
		case 'n':
			return l.lit("null")
		}
		if err := l.skip(); err != nil {
			return err
		}
		return errors.New("Records is not an array")
	})
	if err == nil {
		err = l.end()
	}
	if err != nil {
		return nil, false, err
	}
	return records, false, nil
}

// lambdaRecord decodes a record of a Lambda event of a DynamoDB stream.
func lambdaRecord(raw []byte) (StreamRecord, error) {
	return decodeRecord(raw, lambdaFormat)
}

// kinesisEventRecord decodes a record of a Lambda event of a Kinesis data
// stream: its kinesis.data holds the base64 of the DynamoDB record.
func kinesisEventRecord(raw []byte) (StreamRecord, error) {
	if l := (jsonLexer{b: raw}); l.peek() != '{' {
		return StreamRecord{}, invalid("not a JSON object", nil)
	}
	m, err := members(raw, "kinesis", "eventSource")
	if err != nil {
		return StreamRecord{}, invalid("", err)
	}
	kinesis, source := m[0], m[1]
	var data, seq []byte
	if present(kinesis) {
		k, err := members(kinesis, "data", "sequenceNumber")
		if err != nil {
			return StreamRecord{}, invalid("kinesis", err)
		}
		data, seq = k[0], k[1]
	}
	var rec StreamRecord
	if rec.SequenceNumber, err = jsonString(seq); err != nil {
		return StreamRecord{}, invalid("kinesis.sequenceNumber", err)
	}
	if !present(data) {
		if s, _ := jsonString(source); s == "aws:dynamodb" {
			return rec, invalid("no kinesis.data: a record of a DynamoDB stream (decode its event as a StreamEvent)", nil)
		}
		return rec, invalid("no kinesis.data", nil)
	}
	text, err := jsonString(data)
	if err != nil {
		return rec, invalid("kinesis.data", err)
	}
	b, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return rec, invalid("kinesis.data is not base64", nil)
	}
	return RecordFromKinesis(b, rec.SequenceNumber)
}

// RecordFromKinesis decodes the data of a Kinesis record that Kinesis
// Data Streams for DynamoDB wrote (the JSON of a DynamoDB change, as the
// Kinesis API's GetRecords returns it: not base64) with the Kinesis
// record's sequence number. Its ApproximateCreationDateTime counts
// milliseconds, or microseconds when its
// ApproximateCreationDateTimePrecision is MICROSECOND. Data that is not
// such a record returns an error wrapping ErrInvalidRecord, and a
// StreamRecord holding sequenceNumber and what else identifies it as far
// as it could be read.
func RecordFromKinesis(data []byte, sequenceNumber string) (StreamRecord, error) {
	rec, err := decodeRecord(data, kinesisFormat)
	rec.SequenceNumber = sequenceNumber
	return rec, err
}

// recordFormat is the JSON a record is written in.
type recordFormat uint8

const (
	// lambdaFormat: a record of a Lambda event for a DynamoDB stream;
	// ApproximateCreationDateTime counts seconds.
	lambdaFormat recordFormat = iota
	// kinesisFormat: the data of a Kinesis record of Kinesis Data
	// Streams for DynamoDB; ApproximateCreationDateTime counts
	// milliseconds or microseconds, and there is no SequenceNumber or
	// StreamViewType.
	kinesisFormat
)

// recordJSON holds the members of a record's JSON that are read, each as
// its JSON text; nil when absent.
type recordJSON struct {
	eventID, eventName, eventSource, source, userIdentity, dynamodb []byte
	// The members of dynamodb.
	created, precision, keys, newImage, oldImage, sequenceNumber, sizeBytes, viewType []byte
}

// decodeRecord decodes the JSON of a record written in format f. A record
// that can't be decoded returns an error wrapping ErrInvalidRecord, and
// what identifies it as far as it could be read.
func decodeRecord(raw []byte, f recordFormat) (StreamRecord, error) {
	var j recordJSON
	l := jsonLexer{b: raw}
	if l.peek() != '{' {
		if err := l.skip(); err != nil {
			return StreamRecord{}, invalid("", err)
		}
		return StreamRecord{}, invalid("not a JSON object", nil)
	}
	sourceName := "eventSourceARN"
	if f == kinesisFormat {
		sourceName = "tableName"
	}
	err := l.object(func(name string) error {
		var dst *[]byte
		switch name {
		case "eventID":
			dst = &j.eventID
		case "eventName":
			dst = &j.eventName
		case "eventSource":
			dst = &j.eventSource
		case sourceName:
			dst = &j.source
		case "userIdentity":
			dst = &j.userIdentity
		case "dynamodb":
			dst = &j.dynamodb
		default:
			return l.skip()
		}
		v, err := l.raw()
		*dst = v
		return err
	})
	if err == nil {
		err = l.end()
	}
	if err != nil {
		return StreamRecord{}, invalid("", err)
	}
	var dynamodbErr error
	if present(j.dynamodb) {
		dynamodbErr = j.readDynamodb()
	}
	// What identifies the record first, so that an error keeps it.
	var rec StreamRecord
	rec.EventID, _ = jsonString(j.eventID)
	rec.Source, _ = jsonString(j.source)
	if f == lambdaFormat {
		rec.SequenceNumber, _ = jsonString(j.sequenceNumber)
	}
	if err := j.decode(&rec, f, dynamodbErr); err != nil {
		return identified(rec), err
	}
	return rec, nil
}

// readDynamodb reads the members of the record's dynamodb.
func (j *recordJSON) readDynamodb() error {
	l := jsonLexer{b: j.dynamodb}
	if l.peek() != '{' {
		return &valueError{reason: "not an object"}
	}
	return l.object(func(name string) error {
		var dst *[]byte
		switch name {
		case "ApproximateCreationDateTime":
			dst = &j.created
		case "ApproximateCreationDateTimePrecision":
			dst = &j.precision
		case "Keys":
			dst = &j.keys
		case "NewImage":
			dst = &j.newImage
		case "OldImage":
			dst = &j.oldImage
		case "SequenceNumber":
			dst = &j.sequenceNumber
		case "SizeBytes":
			dst = &j.sizeBytes
		case "StreamViewType":
			dst = &j.viewType
		default:
			return l.skip()
		}
		v, err := l.raw()
		*dst = v
		return err
	})
}

// decode decodes the members of the record into rec, whose identifiers
// are read already; dynamodbErr is the error of reading dynamodb's.
func (j *recordJSON) decode(rec *StreamRecord, f recordFormat, dynamodbErr error) error {
	name, err := jsonString(j.eventName)
	if err != nil {
		return invalid("eventName", err)
	}
	op, ok := opNamed(name)
	if !ok {
		reason := eventNameReason(name)
		if src, _ := jsonString(j.eventSource); src == "aws:kinesis" && f == lambdaFormat {
			reason += ": a record of a Kinesis data stream (decode its event as a KinesisEvent)"
		}
		return invalid(reason, nil)
	}
	rec.Op = op
	if _, err := jsonString(j.eventID); err != nil {
		return invalid("eventID", err)
	}
	if _, err := jsonString(j.source); err != nil {
		if f == kinesisFormat {
			return invalid("tableName", err)
		}
		return invalid("eventSourceARN", err)
	}
	if dynamodbErr != nil {
		return invalid("dynamodb", dynamodbErr)
	}
	if !present(j.keys) {
		return invalid("no Keys", nil)
	}
	if rec.Keys, err = decodeItem(j.keys); err != nil {
		return invalid("Keys", err)
	}
	if present(j.oldImage) {
		if rec.OldImage, err = decodeItem(j.oldImage); err != nil {
			return invalid("OldImage", err)
		}
	}
	if present(j.newImage) {
		if rec.NewImage, err = decodeItem(j.newImage); err != nil {
			return invalid("NewImage", err)
		}
	}
	if f == lambdaFormat {
		if _, err := jsonString(j.sequenceNumber); err != nil {
			return invalid("SequenceNumber", err)
		}
		if rec.ViewType, err = jsonString(j.viewType); err != nil {
			return invalid("StreamViewType", err)
		}
	}
	if err := j.decodeCreated(rec, f); err != nil {
		return err
	}
	if text, err := jsonNumber(j.sizeBytes); err != nil {
		return invalid("SizeBytes", err)
	} else if text != "" {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil || n < 0 {
			return invalid("SizeBytes is not a size in bytes", nil)
		}
		rec.SizeBytes = n
	}
	ttl, err := ttlUserIdentity(j.userIdentity)
	if err != nil {
		return invalid("userIdentity", err)
	}
	rec.Expired = op == OpRemove && ttl
	return checkRecord(rec)
}

// members reads the members names of the JSON object raw, whole: the
// JSON of each, nil where absent (the last where one is given twice).
func members(raw []byte, names ...string) ([][]byte, error) {
	out := make([][]byte, len(names))
	l := jsonLexer{b: raw}
	if l.peek() != '{' {
		return nil, &valueError{reason: "not an object"}
	}
	err := l.object(func(name string) error {
		i := slices.Index(names, name)
		if i < 0 {
			return l.skip()
		}
		var err error
		out[i], err = l.raw()
		return err
	})
	if err == nil {
		err = l.end()
	}
	return out, err
}

// ttlUserIdentity reports whether raw, the JSON of a record's
// userIdentity (nil when absent), is the identity of DynamoDB's time to
// live.
func ttlUserIdentity(raw []byte) (bool, error) {
	if !present(raw) {
		return false, nil
	}
	m, err := members(raw, "type", "principalId")
	if err != nil {
		return false, err
	}
	typ, principal := m[0], m[1]
	t, err := jsonString(typ)
	if err != nil {
		return false, inMember(err, "type")
	}
	p, err := jsonString(principal)
	if err != nil {
		return false, inMember(err, "principalId")
	}
	return ttlIdentity(t, p), nil
}

// decodeCreated decodes the record's ApproximateCreationDateTime: seconds
// in a Lambda event, milliseconds or (by its precision) microseconds in a
// Kinesis record.
func (j *recordJSON) decodeCreated(rec *StreamRecord, f recordFormat) error {
	text, err := jsonNumber(j.created)
	if err != nil {
		return invalid("ApproximateCreationDateTime", err)
	}
	places := 9 // the digits of nanoseconds in a second
	if f == kinesisFormat {
		precision, err := jsonString(j.precision)
		if err != nil {
			return invalid("ApproximateCreationDateTimePrecision", err)
		}
		switch precision {
		case "", "MILLISECOND":
			places = 6
		case "MICROSECOND":
			places = 3
		default:
			return invalid("ApproximateCreationDateTimePrecision is neither MILLISECOND nor MICROSECOND", nil)
		}
	}
	if text == "" {
		return nil
	}
	t, ok := epochTime(text, places)
	if !ok {
		return invalid("ApproximateCreationDateTime is not a time", nil)
	}
	rec.Created = t
	return nil
}

// epochTime is the time of the number text, a count of units since the
// Unix epoch, a unit being 10^places nanoseconds; fractions of a
// nanosecond are dropped. ok is false when text is no number, or its time
// is out of the range of int64 nanoseconds (the years 1678 to 2262).
func epochTime(text string, places int) (time.Time, bool) {
	x, ok := parseNumber(text)
	if !ok {
		return time.Time{}, false
	}
	// The value is 0.d × 10^exp units: the nanoseconds have exp+places
	// digits before the point.
	whole := x.exp + places
	if x.n == 0 || whole <= 0 {
		return time.Unix(0, 0).UTC(), true
	}
	if whole > 19 {
		return time.Time{}, false
	}
	var ns uint64
	for k := range whole {
		ns *= 10
		if k < x.n {
			ns += uint64(x.d[k] - '0')
		}
	}
	if ns > math.MaxInt64 {
		return time.Time{}, false
	}
	n := int64(ns)
	if x.neg {
		n = -n
	}
	return time.Unix(0, n).UTC(), true
}

// present reports whether raw, the JSON text of a member's value, is
// there: neither nil (the member is absent) nor null.
func present(raw []byte) bool { return raw != nil && string(raw) != "null" }

// jsonString is the string of raw, the JSON text of a value: "" when raw
// is nil (absent) or null.
func jsonString(raw []byte) (string, error) {
	if !present(raw) {
		return "", nil
	}
	l := jsonLexer{b: raw}
	if l.peek() != '"' {
		return "", &valueError{reason: "not a string"}
	}
	return l.str()
}

// jsonNumber is the text of the number raw, the JSON text of a value: ""
// when raw is nil (absent) or null.
func jsonNumber(raw []byte) (string, error) {
	if !present(raw) {
		return "", nil
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return "", &valueError{reason: "not a number"}
	}
	return string(raw), nil
}

// decodeItem decodes the DynamoDB JSON of an item's attributes (a
// record's Keys or image): an object whose members are attribute values,
// no name given twice.
func decodeItem(raw []byte) (map[string]types.AttributeValue, error) {
	l := jsonLexer{b: raw}
	if l.peek() != '{' {
		return nil, &valueError{reason: "not an object"}
	}
	return l.attrMap(0)
}

// AttributeValueFromJSON decodes the DynamoDB JSON of one attribute value,
// as DynamoDB Streams and the DynamoDB API write it: an object of exactly
// one member, whose name is the value's type: {"S":"x"}, {"N":"1"},
// {"B":"<base64>"}, {"BOOL":true}, {"NULL":true}, {"M":{"name":<value>,
// ...}}, {"L":[<value>, ...]}, {"SS":["x", ...]}, {"NS":["1", ...]},
// {"BS":["<base64>", ...]}. A number is a JSON string holding a number
// DynamoDB stores, kept as it is written; a set is not empty and holds no
// member twice (numbers compared by value); NULL is true; a map names no
// member twice; maps and lists nest 32 levels deep at most. An error's
// message names the part of the value that is wrong, never the value.
func AttributeValueFromJSON(data []byte) (types.AttributeValue, error) {
	// The syntax first, all of it without recursion, so that malformed
	// JSON is told as such however deep it is.
	l := jsonLexer{b: data}
	err := l.skip()
	if err == nil {
		err = l.end()
	}
	if err == nil {
		l = jsonLexer{b: data}
		var av types.AttributeValue
		if av, err = l.attr(0); err == nil {
			return av, nil
		}
	}
	return nil, errors.New(pkgPrefix + "attribute value JSON: " + err.Error())
}

// attr reads the DynamoDB JSON of one attribute value; depth is the
// number of maps and lists it is in.
func (l *jsonLexer) attr(depth int) (types.AttributeValue, error) {
	if l.peek() != '{' {
		return nil, &valueError{reason: "not an object of one member, the value's type"}
	}
	l.i++
	switch l.peek() {
	case '"':
	case '}':
		return nil, &valueError{reason: "an object of no member, where the value's type is"}
	default:
		return nil, l.fail("expected a member name")
	}
	typ, err := l.str()
	if err != nil {
		return nil, err
	}
	if l.peek() != ':' {
		return nil, l.fail("expected :")
	}
	l.i++
	av, err := l.typed(typ, depth)
	if err != nil {
		return nil, err
	}
	switch l.peek() {
	case '}':
		l.i++
		return av, nil
	case ',':
		return nil, &valueError{reason: "an object of more than one member, where the value's type is"}
	}
	return nil, l.fail("expected , or }")
}

// typed reads the value of type typ, at depth.
func (l *jsonLexer) typed(typ string, depth int) (types.AttributeValue, error) {
	switch typ {
	case "S":
		s, err := l.stringOf(typ)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberS{Value: s}, nil
	case "N":
		s, err := l.stringOf(typ)
		if err != nil {
			return nil, err
		}
		if err := checkNumberValue(s); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberN{Value: s}, nil
	case "B":
		b, err := l.binaryOf(typ)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case "BOOL":
		switch l.peek() {
		case 't':
			return &types.AttributeValueMemberBOOL{Value: true}, l.lit("true")
		case 'f':
			return &types.AttributeValueMemberBOOL{Value: false}, l.lit("false")
		}
		return nil, &valueError{reason: "BOOL is neither true nor false"}
	case "NULL":
		if l.peek() == 't' {
			return &types.AttributeValueMemberNULL{Value: true}, l.lit("true")
		}
		return nil, &valueError{reason: "NULL is not true"}
	case "M":
		if l.peek() != '{' {
			return nil, &valueError{reason: "M is not an object"}
		}
		if depth >= maxAttrDepth {
			return nil, errTooDeep()
		}
		m, err := l.attrMap(depth + 1)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	case "L":
		if l.peek() != '[' {
			return nil, &valueError{reason: "L is not an array"}
		}
		if depth >= maxAttrDepth {
			return nil, errTooDeep()
		}
		list := []types.AttributeValue{}
		err := l.array(func(i int) error {
			av, err := l.attr(depth + 1)
			if err != nil {
				return inElement(err, i)
			}
			list = append(list, av)
			return nil
		})
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberL{Value: list}, nil
	case "SS", "NS":
		if l.peek() != '[' {
			return nil, &valueError{reason: typ + " is not an array"}
		}
		ss := []string{}
		err := l.array(func(i int) error {
			s, err := l.stringOf(typ + " member")
			if err != nil {
				return inElement(err, i)
			}
			ss = append(ss, s)
			return nil
		})
		if err != nil {
			return nil, err
		}
		if typ == "SS" {
			if err := checkStringSet(ss); err != nil {
				return nil, err
			}
			return &types.AttributeValueMemberSS{Value: ss}, nil
		}
		if err := checkNumberSet(ss); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberNS{Value: ss}, nil
	case "BS":
		if l.peek() != '[' {
			return nil, &valueError{reason: "BS is not an array"}
		}
		bs := [][]byte{}
		err := l.array(func(i int) error {
			b, err := l.binaryOf("BS member")
			if err != nil {
				return inElement(err, i)
			}
			bs = append(bs, b)
			return nil
		})
		if err != nil {
			return nil, err
		}
		if err := checkBinarySet(bs); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	}
	if len(typ) <= 8 {
		return nil, &valueError{reason: strconv.Quote(typ) + " is no DynamoDB type"}
	}
	return nil, &valueError{reason: "a member that is no DynamoDB type"}
}

// attrMap reads an object whose members are attribute values at depth,
// no name given twice.
func (l *jsonLexer) attrMap(depth int) (map[string]types.AttributeValue, error) {
	m := make(map[string]types.AttributeValue)
	err := l.object(func(name string) error {
		if _, dup := m[name]; dup {
			return inMember(&valueError{reason: "a name given twice"}, name)
		}
		av, err := l.attr(depth)
		if err != nil {
			return inMember(err, name)
		}
		m[name] = av
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// stringOf reads a string, the value of what.
func (l *jsonLexer) stringOf(what string) (string, error) {
	if l.peek() != '"' {
		return "", &valueError{reason: what + " is not a string"}
	}
	return l.str()
}

// binaryOf reads a string holding the base64 of binary data, the value
// of what.
func (l *jsonLexer) binaryOf(what string) ([]byte, error) {
	s, err := l.stringOf(what)
	if err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, &valueError{reason: what + " is not base64"}
	}
	return b, nil
}

// jsonLexer reads JSON text: b, from position i. skip moves past a value
// of any depth without recursion, so that hostile nesting costs the
// length of the text, not the stack.
type jsonLexer struct {
	b []byte
	i int
}

// syntaxError is JSON that is malformed at offset.
type syntaxError struct {
	offset int
	msg    string
}

// Error tells where the JSON is malformed, and how.
func (e *syntaxError) Error() string {
	return "malformed JSON at offset " + strconv.Itoa(e.offset) + ": " + e.msg
}

// fail is the syntax error msg at the lexer's position.
func (l *jsonLexer) fail(msg string) error {
	if l.i >= len(l.b) {
		msg = "unexpected end (" + msg + ")"
	}
	return &syntaxError{offset: l.i, msg: msg}
}

// ws moves past white space.
func (l *jsonLexer) ws() {
	for l.i < len(l.b) {
		switch l.b[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

// peek moves past white space and returns the next byte, or 0 at the end
// of the text. A NUL byte of the text is never valid where peek is
// called, and no caller accepts 0, so the two are never mistaken.
func (l *jsonLexer) peek() byte {
	l.ws()
	if l.i < len(l.b) {
		return l.b[l.i]
	}
	return 0
}

// end reports an error unless only white space is left.
func (l *jsonLexer) end() error {
	l.ws()
	if l.i != len(l.b) {
		return l.fail("more after the value")
	}
	return nil
}

// lit moves past the literal word (true, false or null).
func (l *jsonLexer) lit(word string) error {
	l.ws()
	if len(l.b)-l.i < len(word) || string(l.b[l.i:l.i+len(word)]) != word {
		return l.fail("expected " + word)
	}
	l.i += len(word)
	return nil
}

// scanString moves past the string at l.i, reporting whether it holds an
// escape and whether all its bytes are ASCII.
func (l *jsonLexer) scanString() (escaped, ascii bool, err error) {
	ascii = true
	l.i++ // the opening quote
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch {
		case c == '"':
			l.i++
			return escaped, ascii, nil
		case c == '\\':
			escaped = true
			l.i++
			if l.i >= len(l.b) {
				return false, false, l.fail("unterminated string")
			}
			switch l.b[l.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				l.i++
			case 'u':
				l.i++
				for range 4 {
					if l.i >= len(l.b) || !isHex(l.b[l.i]) {
						return false, false, l.fail("bad \\u escape")
					}
					l.i++
				}
			default:
				return false, false, l.fail("bad escape")
			}
		case c < 0x20:
			return false, false, l.fail("control character in string")
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			l.i++
		}
	}
	return false, false, l.fail("unterminated string")
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isDigit reports whether c is a decimal digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// str reads the string at l.i, as encoding/json decodes it (escapes
// resolved, bytes that are not UTF-8 and lone surrogates replaced by
// U+FFFD).
func (l *jsonLexer) str() (string, error) {
	l.ws()
	start := l.i
	escaped, ascii, err := l.scanString()
	if err != nil {
		return "", err
	}
	body := l.b[start+1 : l.i-1]
	if !escaped && (ascii || utf8.Valid(body)) {
		return string(body), nil
	}
	var s string
	if err := json.Unmarshal(l.b[start:l.i], &s); err != nil {
		return "", &syntaxError{offset: start, msg: "bad string"}
	}
	return s, nil
}

// number moves past the number at l.i.
func (l *jsonLexer) number() error {
	b, i := l.b, l.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		l.i = i
		return l.fail("bad number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			l.i = i
			return l.fail("bad number")
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			l.i = i
			return l.fail("bad number")
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	l.i = i
	return nil
}

// scalar moves past the string, number or literal at l.i.
func (l *jsonLexer) scalar() error {
	c := l.peek()
	switch {
	case l.i >= len(l.b):
		return l.fail("expected a value")
	case c == '"':
		_, _, err := l.scanString()
		return err
	case c == 't':
		return l.lit("true")
	case c == 'f':
		return l.lit("false")
	case c == 'n':
		return l.lit("null")
	case c == '-' || isDigit(c):
		return l.number()
	}
	return l.fail("unexpected character")
}

// name moves past a member's name and its colon.
func (l *jsonLexer) name() error {
	if l.peek() != '"' {
		return l.fail("expected a member name")
	}
	if _, _, err := l.scanString(); err != nil {
		return err
	}
	if l.peek() != ':' {
		return l.fail("expected :")
	}
	l.i++
	return nil
}

// skip moves past the value at l.i, checking its syntax, however deep it
// nests: the containers open are on a stack of its own, not the call
// stack.
func (l *jsonLexer) skip() error {
	var open []byte // the closing byte of each container open
	for {
		// A value.
		switch l.peek() {
		case '{':
			l.i++
			if l.peek() == '}' {
				l.i++
				break
			}
			open = append(open, '}')
			if err := l.name(); err != nil {
				return err
			}
			continue
		case '[':
			l.i++
			if l.peek() == ']' {
				l.i++
				break
			}
			open = append(open, ']')
			continue
		default:
			if err := l.scalar(); err != nil {
				return err
			}
		}
		// After a value: close the containers that end here, then go on
		// to the next member or element, or return when none is open.
		for {
			if len(open) == 0 {
				return nil
			}
			closing := open[len(open)-1]
			c := l.peek()
			if c == closing {
				l.i++
				open = open[:len(open)-1]
				continue
			}
			if c != ',' {
				return l.fail("expected , or " + string(closing))
			}
			l.i++
			if closing == '}' {
				if err := l.name(); err != nil {
					return err
				}
			}
			break
		}
	}
}

// raw moves past the value at l.i and returns its JSON text.
func (l *jsonLexer) raw() ([]byte, error) {
	l.ws()
	start := l.i
	if err := l.skip(); err != nil {
		return nil, err
	}
	return l.b[start:l.i], nil
}

// object reads the object at l.i, calling member with the name of each of
// its members, in order; member reads the value.
func (l *jsonLexer) object(member func(name string) error) error {
	if l.peek() != '{' {
		return l.fail("expected {")
	}
	l.i++
	if l.peek() == '}' {
		l.i++
		return nil
	}
	for {
		if l.peek() != '"' {
			return l.fail("expected a member name")
		}
		name, err := l.str()
		if err != nil {
			return err
		}
		if l.peek() != ':' {
			return l.fail("expected :")
		}
		l.i++
		if err := member(name); err != nil {
			return err
		}
		switch l.peek() {
		case ',':
			l.i++
		case '}':
			l.i++
			return nil
		default:
			return l.fail("expected , or }")
		}
	}
}

// array reads the array at l.i, calling elem with the position of each
// of its elements, in order; elem reads the element.
func (l *jsonLexer) array(elem func(i int) error) error {
	if l.peek() != '[' {
		return l.fail("expected [")
	}
	l.i++
	if l.peek() == ']' {
		l.i++
		return nil
	}
	for i := 0; ; i++ {
		if err := elem(i); err != nil {
			return err
		}
		switch l.peek() {
		case ',':
			l.i++
		case ']':
			l.i++
			return nil
		default:
			return l.fail("expected , or ]")
		}
	}
}
