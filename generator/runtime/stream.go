package runtime

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streamstypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// The stream records of a table arrive three ways: from the DynamoDB
// Streams API (GetRecords of the dynamodbstreams client, RecordFromStreams),
// in the events Lambda sends a function for a DynamoDB stream (StreamEvent)
// and, for a table that streams to Kinesis Data Streams, in the records of
// the Kinesis data stream (KinesisEvent, RecordFromKinesis). Each becomes
// a StreamRecord, whose images hold the attribute values of the
// service/dynamodb/types package, as the item decoders read them. A record
// that can't be decoded is an error of its own (ErrInvalidRecord): the
// other records of its batch are decoded all the same.

// ErrInvalidRecord is the error of a stream record that can't be decoded:
// its JSON or its values are not those of a DynamoDB stream record (a
// missing or unknown eventName, no Keys, an attribute value of no type, a
// number DynamoDB does not store, nesting deeper than DynamoDB's 32
// levels). Its message tells which part is wrong, never the values.
var ErrInvalidRecord = errors.New(pkgPrefix + "invalid stream record")

// StreamOp is the operation a stream record tells of.
type StreamOp uint8

// The operations of a stream record, as eventName names them.
const (
	// OpInsert is the write of an item where there was none.
	OpInsert StreamOp = iota + 1
	// OpModify is a change of an item that was there.
	OpModify
	// OpRemove is the deletion of an item, by a write or by the table's
	// time to live (see StreamRecord.Expired).
	OpRemove
)

// String returns the operation as eventName names it: "INSERT", "MODIFY"
// or "REMOVE".
func (op StreamOp) String() string {
	switch op {
	case OpInsert:
		return "INSERT"
	case OpModify:
		return "MODIFY"
	case OpRemove:
		return "REMOVE"
	}
	return "StreamOp(" + strconv.Itoa(int(op)) + ")"
}

// opNamed is the operation eventName names, and whether it names one.
func opNamed(name string) (StreamOp, bool) {
	switch name {
	case "INSERT":
		return OpInsert, true
	case "MODIFY":
		return OpModify, true
	case "REMOVE":
		return OpRemove, true
	}
	return 0, false
}

// StreamRecord is one change of a table's item, as its stream tells it.
type StreamRecord struct {
	// EventID is the record's eventID, unique to it.
	EventID string
	// Op is the operation of the record.
	Op StreamOp
	// SequenceNumber orders the records of the stream's shard: that of
	// the DynamoDB stream, or, for a record read from Kinesis, that of
	// the Kinesis record. Lambda's batch responses name a record by it
	// (see HandleEvent).
	SequenceNumber string
	// Created is the record's ApproximateCreationDateTime, in UTC, or the
	// zero time when the record does not give it.
	Created time.Time
	// Keys holds the item's primary key attributes.
	Keys map[string]types.AttributeValue
	// OldImage is the item before the change and NewImage the item after
	// it, each nil when the record does not carry it: the stream's view
	// type leaves it out, or there is none (the OldImage of an INSERT,
	// the NewImage of a REMOVE).
	OldImage, NewImage map[string]types.AttributeValue
	// ViewType is the stream's StreamViewType (KEYS_ONLY, NEW_IMAGE,
	// OLD_IMAGE or NEW_AND_OLD_IMAGES), or "" where the source does not
	// give it (Kinesis).
	ViewType string
	// SizeBytes is the size of the record, as the stream gives it.
	SizeBytes int64
	// Expired is set on a REMOVE that DynamoDB's time to live made: the
	// record's userIdentity is of type "Service" and principal
	// "dynamodb.amazonaws.com". It is never set on another operation.
	Expired bool
	// Source is where the record comes from: the eventSourceARN of a
	// Lambda event's record (the stream's ARN), the tableName of a
	// Kinesis record, "" for a record of the Streams API.
	Source string
}

// RecordError is the error of one stream record that could not be
// decoded or handled. It wraps Err, which wraps ErrInvalidRecord when the
// record could not be decoded, or is the handler's error.
type RecordError struct {
	// Position is the record's place in its batch, from 0.
	Position int
	// SequenceNumber and EventID identify the record, when it gave them.
	SequenceNumber, EventID string
	// Err tells why the record failed.
	Err error
}

// Error names the record by its position and identifiers, then tells
// why it failed.
func (e *RecordError) Error() string {
	var b strings.Builder
	b.WriteString(pkgPrefix + "stream record " + strconv.Itoa(e.Position))
	e.writeIDs(&b)
	if e.Err != nil {
		b.WriteString(": " + strings.TrimPrefix(e.Err.Error(), pkgPrefix))
	}
	return b.String()
}

// writeIDs writes the identifiers of the record, in parentheses, when it
// has any.
func (e *RecordError) writeIDs(b *strings.Builder) {
	switch {
	case e.SequenceNumber != "" && e.EventID != "":
		b.WriteString(" (sequence number " + e.SequenceNumber + ", event " + e.EventID + ")")
	case e.SequenceNumber != "":
		b.WriteString(" (sequence number " + e.SequenceNumber + ")")
	case e.EventID != "":
		b.WriteString(" (event " + e.EventID + ")")
	}
}

// Unwrap returns Err.
func (e *RecordError) Unwrap() error { return e.Err }

// RecordsError is the error of a batch of stream records some of which
// could not be decoded: the result holds every other record. Records
// lists those left out, in the order of the batch. Like DecodeError for
// the items of a page, it wraps each one's error, so that errors.Is finds
// ErrInvalidRecord and errors.As the first RecordError.
type RecordsError struct {
	Records []RecordError
}

// Error counts the records left out, then names each one and tells why
// it could not be decoded.
func (e *RecordsError) Error() string {
	var b strings.Builder
	b.WriteString(pkgPrefix)
	if len(e.Records) == 1 {
		b.WriteString("1 stream record can't be decoded")
	} else {
		b.WriteString(strconv.Itoa(len(e.Records)) + " stream records can't be decoded")
	}
	for i := range e.Records {
		r := &e.Records[i]
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString("record " + strconv.Itoa(r.Position))
		r.writeIDs(&b)
		if r.Err != nil {
			b.WriteString(": " + strings.TrimPrefix(r.Err.Error(), pkgPrefix))
		}
	}
	return b.String()
}

// Unwrap returns ErrInvalidRecord, then the RecordError of every record
// left out (each of which wraps its cause).
func (e *RecordsError) Unwrap() []error {
	out := make([]error, 0, 1+len(e.Records))
	out = append(out, ErrInvalidRecord)
	for i := range e.Records {
		out = append(out, &e.Records[i])
	}
	return out
}

// invalidRecord is the error of a record that can't be decoded: it wraps
// ErrInvalidRecord, and its reason names the part of the record that is
// wrong.
type invalidRecord struct {
	reason string
}

// Error is ErrInvalidRecord's message, then the reason.
func (e *invalidRecord) Error() string { return ErrInvalidRecord.Error() + ": " + e.reason }

// Unwrap returns ErrInvalidRecord.
func (e *invalidRecord) Unwrap() error { return ErrInvalidRecord }

// invalid is the error of a record whose part where is wrong, for reason
// (an error of the part's value, or nil); where is "" for the record as a
// whole.
func invalid(where string, reason error) error {
	switch {
	case reason == nil:
		return &invalidRecord{where}
	case where == "":
		return &invalidRecord{reason.Error()}
	}
	return &invalidRecord{where + ": " + reason.Error()}
}

// valueError tells which part of an attribute value is wrong, and why.
// Its message names the part, never a value.
type valueError struct {
	// path names the part from the outside in: the names of maps'
	// members, joined by dots, and the positions of lists' and sets'
	// elements in brackets (a.b[2].c); "" for the value itself.
	path   string
	reason string
}

// Error names the part of the value, when it is not the whole, then
// tells what is wrong with it.
func (e *valueError) Error() string {
	if e.path == "" {
		return e.reason
	}
	return e.path + ": " + e.reason
}

// inMember places err, the error of a value, in the member name of the
// map that holds the value.
func inMember(err error, name string) error {
	if ve, ok := err.(*valueError); ok {
		switch {
		case ve.path == "":
			ve.path = name
		case ve.path[0] == '[':
			ve.path = name + ve.path
		default:
			ve.path = name + "." + ve.path
		}
	}
	return err
}

// inElement places err, the error of a value, at position i of the list
// or set that holds the value.
func inElement(err error, i int) error {
	if ve, ok := err.(*valueError); ok {
		at := "[" + strconv.Itoa(i) + "]"
		switch {
		case ve.path == "" || ve.path[0] == '[':
			ve.path = at + ve.path
		default:
			ve.path = at + "." + ve.path
		}
	}
	return err
}

// maxAttrDepth is how deep DynamoDB nests the maps and lists of a
// document: a map or list at the top of an attribute is at level 1, and
// none is deeper than level 32.
const maxAttrDepth = 32

// errNoValue is the error of a nil attribute value.
func errNoValue() error { return &valueError{reason: "no value"} }

// errTooDeep is the error of a map or list nested deeper than
// maxAttrDepth.
func errTooDeep() error {
	return &valueError{reason: "nested deeper than " + strconv.Itoa(maxAttrDepth) + " levels"}
}

// The checks of values that are the same for every source.

// checkNumberValue tells whether s is a number DynamoDB stores.
func checkNumberValue(s string) error {
	if _, ok := parseNumber(s); !ok {
		return &valueError{reason: "not a number DynamoDB stores"}
	}
	return nil
}

// checkStringSet tells whether ss is a string set: not empty, no string
// twice.
func checkStringSet(ss []string) error {
	if len(ss) == 0 {
		return &valueError{reason: "an empty set"}
	}
	if len(ss) < 2 {
		return nil
	}
	sorted := slices.Clone(ss)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return &valueError{reason: "a set that holds a string twice"}
		}
	}
	return nil
}

// checkNumberSet tells whether ns is a number set: not empty, every
// member a number DynamoDB stores, no number twice (compared by value:
// "1" and "1.0" are one number).
func checkNumberSet(ns []string) error {
	if len(ns) == 0 {
		return &valueError{reason: "an empty set"}
	}
	xs := make([]decimalNumber, len(ns))
	for i, s := range ns {
		x, ok := parseNumber(s)
		if !ok {
			return inElement(&valueError{reason: "not a number DynamoDB stores"}, i)
		}
		xs[i] = x
	}
	slices.SortFunc(xs, func(a, b decimalNumber) int { return a.compare(&b) })
	for i := 1; i < len(xs); i++ {
		if xs[i].compare(&xs[i-1]) == 0 {
			return &valueError{reason: "a set that holds a number twice"}
		}
	}
	return nil
}

// checkBinarySet tells whether bs is a binary set: not empty, no value
// twice.
func checkBinarySet(bs [][]byte) error {
	if len(bs) == 0 {
		return &valueError{reason: "an empty set"}
	}
	if len(bs) < 2 {
		return nil
	}
	sorted := slices.Clone(bs)
	slices.SortFunc(sorted, bytes.Compare)
	for i := 1; i < len(sorted); i++ {
		if bytes.Equal(sorted[i], sorted[i-1]) {
			return &valueError{reason: "a set that holds a binary value twice"}
		}
	}
	return nil
}

// checkRecord tells whether rec, decoded from any source, is a stream
// record: its keys present, of the key types, and its images those its
// operation can carry.
func checkRecord(rec *StreamRecord) error {
	if len(rec.Keys) == 0 {
		return invalid("no Keys", nil)
	}
	for name, av := range rec.Keys {
		switch av.(type) {
		case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberB:
		default:
			return invalid("Keys", inMember(&valueError{reason: "not of a key type (S, N or B)"}, name))
		}
	}
	switch {
	case rec.Op == OpInsert && rec.OldImage != nil:
		return invalid("an INSERT with an OldImage", nil)
	case rec.Op == OpRemove && rec.NewImage != nil:
		return invalid("a REMOVE with a NewImage", nil)
	}
	return nil
}

// ttlIdentity reports whether the identity of a record, of type typ and
// principal principal, is that of DynamoDB's time to live.
func ttlIdentity(typ, principal string) bool {
	return typ == "Service" && principal == "dynamodb.amazonaws.com"
}

// identified keeps of rec what identifies it: EventID, SequenceNumber and
// Source. It is the record an error returns.
func identified(rec StreamRecord) StreamRecord {
	return StreamRecord{EventID: rec.EventID, SequenceNumber: rec.SequenceNumber, Source: rec.Source}
}

// RecordFromStreams converts a record of the DynamoDB Streams API (as
// the dynamodbstreams client's GetRecords returns it) to a StreamRecord.
// Its attribute values are of the streams client's own types: each is
// converted to the dynamodb package's, down to the members of nested
// maps and lists; byte slices are shared, not copied. A record that is
// not a stream record (see ErrInvalidRecord) returns an error wrapping
// ErrInvalidRecord, and a StreamRecord that holds what identifies it
// (EventID, SequenceNumber) when it gives them.
func RecordFromStreams(r streamstypes.Record) (StreamRecord, error) {
	var rec StreamRecord
	if r.EventID != nil {
		rec.EventID = *r.EventID
	}
	d := r.Dynamodb
	if d != nil && d.SequenceNumber != nil {
		rec.SequenceNumber = *d.SequenceNumber
	}
	op, ok := opNamed(string(r.EventName))
	if !ok {
		return identified(rec), invalid(eventNameReason(string(r.EventName)), nil)
	}
	rec.Op = op
	if d == nil {
		return identified(rec), invalid("no Keys", nil)
	}
	var err error
	if rec.Keys, err = fromStreamsItem(d.Keys); err != nil {
		return identified(rec), invalid("Keys", err)
	}
	if rec.OldImage, err = fromStreamsItem(d.OldImage); err != nil {
		return identified(rec), invalid("OldImage", err)
	}
	if rec.NewImage, err = fromStreamsItem(d.NewImage); err != nil {
		return identified(rec), invalid("NewImage", err)
	}
	if d.ApproximateCreationDateTime != nil {
		rec.Created = d.ApproximateCreationDateTime.UTC()
	}
	if d.SizeBytes != nil {
		rec.SizeBytes = *d.SizeBytes
	}
	rec.ViewType = string(d.StreamViewType)
	if id := r.UserIdentity; id != nil && id.Type != nil && id.PrincipalId != nil {
		rec.Expired = op == OpRemove && ttlIdentity(*id.Type, *id.PrincipalId)
	}
	if err := checkRecord(&rec); err != nil {
		return identified(rec), err
	}
	return rec, nil
}

// eventNameReason says why eventName names no operation.
func eventNameReason(name string) string {
	switch {
	case name == "":
		return "no eventName"
	case len(name) <= 32:
		return "eventName " + strconv.Quote(name) + " is no operation (INSERT, MODIFY or REMOVE)"
	}
	return "eventName is no operation (INSERT, MODIFY or REMOVE)"
}

// RecordsFromStreams converts the records of the DynamoDB Streams API to
// StreamRecords, in order (see RecordFromStreams). When some can't be
// converted, it returns the others and a *RecordsError naming each one
// left out by its position in rs.
func RecordsFromStreams(rs []streamstypes.Record) ([]StreamRecord, error) {
	out := make([]StreamRecord, 0, len(rs))
	var failed []RecordError
	for i, r := range rs {
		rec, err := RecordFromStreams(r)
		if err != nil {
			failed = append(failed, RecordError{Position: i, SequenceNumber: rec.SequenceNumber, EventID: rec.EventID, Err: err})
			continue
		}
		out = append(out, rec)
	}
	if len(failed) > 0 {
		return out, &RecordsError{Records: failed}
	}
	return out, nil
}

// fromStreamsItem converts the attribute values of an item (its keys or
// an image) of the streams client to those of the dynamodb package: nil
// for nil.
func fromStreamsItem(m map[string]streamstypes.AttributeValue) (map[string]types.AttributeValue, error) {
	if m == nil {
		return nil, nil
	}
	return fromStreamsMap(m, 0)
}

// fromStreamsMap converts the members of a map at depth (the number of
// maps and lists it is in).
func fromStreamsMap(m map[string]streamstypes.AttributeValue, depth int) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(m))
	for name, v := range m {
		av, err := fromStreamsValue(v, depth)
		if err != nil {
			return nil, inMember(err, name)
		}
		out[name] = av
	}
	return out, nil
}

// fromStreamsValue converts one attribute value of the streams client to
// the dynamodb package's type, checking it as a value of the JSON is
// checked (AttributeValueFromJSON); depth is the number of maps and lists
// it is in. The depth also ends a map that holds itself.
func fromStreamsValue(v streamstypes.AttributeValue, depth int) (types.AttributeValue, error) {
	switch v := v.(type) {
	case *streamstypes.AttributeValueMemberS:
		if v == nil {
			return nil, errNoValue()
		}
		return &types.AttributeValueMemberS{Value: v.Value}, nil
	case *streamstypes.AttributeValueMemberN:
		if v == nil {
			return nil, errNoValue()
		}
		if err := checkNumberValue(v.Value); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberN{Value: v.Value}, nil
	case *streamstypes.AttributeValueMemberB:
		if v == nil {
			return nil, errNoValue()
		}
		b := v.Value
		if b == nil {
			b = []byte{}
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case *streamstypes.AttributeValueMemberBOOL:
		if v == nil {
			return nil, errNoValue()
		}
		return &types.AttributeValueMemberBOOL{Value: v.Value}, nil
	case *streamstypes.AttributeValueMemberNULL:
		if v == nil {
			return nil, errNoValue()
		}
		if !v.Value {
			return nil, &valueError{reason: "a NULL that is not true"}
		}
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case *streamstypes.AttributeValueMemberM:
		if v == nil {
			return nil, errNoValue()
		}
		if depth >= maxAttrDepth {
			return nil, errTooDeep()
		}
		m, err := fromStreamsMap(v.Value, depth+1)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	case *streamstypes.AttributeValueMemberL:
		if v == nil {
			return nil, errNoValue()
		}
		if depth >= maxAttrDepth {
			return nil, errTooDeep()
		}
		l := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			av, err := fromStreamsValue(e, depth+1)
			if err != nil {
				return nil, inElement(err, i)
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case *streamstypes.AttributeValueMemberSS:
		if v == nil {
			return nil, errNoValue()
		}
		if err := checkStringSet(v.Value); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberSS{Value: v.Value}, nil
	case *streamstypes.AttributeValueMemberNS:
		if v == nil {
			return nil, errNoValue()
		}
		if err := checkNumberSet(v.Value); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberNS{Value: v.Value}, nil
	case *streamstypes.AttributeValueMemberBS:
		if v == nil {
			return nil, errNoValue()
		}
		if err := checkBinarySet(v.Value); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberBS{Value: v.Value}, nil
	case nil:
		return nil, errNoValue()
	}
	return nil, &valueError{reason: "a value of no DynamoDB type"}
}

// BatchResponse is a Lambda function's partial batch response, for an
// event source mapping with ReportBatchItemFailures: Lambda retries the
// batch from the first record it names.
type BatchResponse struct {
	BatchItemFailures []BatchItemFailure `json:"batchItemFailures"`
}

// BatchItemFailure names a record of the batch that failed, by its
// sequence number.
type BatchItemFailure struct {
	ItemIdentifier string `json:"itemIdentifier"`
}

// HandleRecords calls handle with each record, in order. It stops at the
// first record whose handle returns an error, or before any record once
// ctx is done, and returns a *RecordError for that record (its position,
// its identifiers, and the error, or ctx's). It returns nil when every
// record was handled.
func HandleRecords(ctx context.Context, records []StreamRecord, handle func(context.Context, *StreamRecord) error) error {
	if handle == nil {
		return errors.New(pkgPrefix + "HandleRecords: no handler")
	}
	for i := range records {
		rec := &records[i]
		err := ctx.Err()
		if err == nil {
			err = handle(ctx, rec)
		}
		if err != nil {
			return &RecordError{Position: i, SequenceNumber: rec.SequenceNumber, EventID: rec.EventID, Err: err}
		}
	}
	return nil
}

// HandleEvent is HandleRecords for the records of a Lambda event
// (StreamEvent or KinesisEvent), for a function whose event source
// mapping reports batch item failures (ReportBatchItemFailures). It calls
// handle with each record in order, and stops at the first that failed:
// one that could not be decoded (its Err is set), one whose handle
// returns an error, or the next once ctx is done. Its response then names
// that record's sequence number, from which Lambda retries the batch: the
// records before it are done, and it and those after it are sent again.
// The response does not hold the error: handle logs its own. A failed
// record without a sequence number can't be named: HandleEvent returns
// its *RecordError instead, and Lambda retries the whole batch. When every
// record was handled, the response names none (its BatchItemFailures is
// empty, not nil, so that it is written as []).
//
// A record that can't be decoded fails each time it is sent: its shard
// moves on once the mapping's retries (MaximumRetryAttempts,
// MaximumRecordAgeInSeconds) give it up.
func HandleEvent(ctx context.Context, records []EventRecord, handle func(context.Context, *StreamRecord) error) (*BatchResponse, error) {
	if handle == nil {
		return nil, errors.New(pkgPrefix + "HandleEvent: no handler")
	}
	for i := range records {
		er := &records[i]
		err := er.Err
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			err = handle(ctx, &er.Record)
		}
		if err == nil {
			continue
		}
		if er.Record.SequenceNumber == "" {
			return nil, &RecordError{Position: i, EventID: er.Record.EventID, Err: err}
		}
		return &BatchResponse{BatchItemFailures: []BatchItemFailure{{ItemIdentifier: er.Record.SequenceNumber}}}, nil
	}
	return &BatchResponse{BatchItemFailures: []BatchItemFailure{}}, nil
}
