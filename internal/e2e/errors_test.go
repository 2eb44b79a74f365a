package e2e

import (
	"context"
	"errors"
	"iter"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// refusing is a Client whose every call fails with errRefused.
type refusing struct{}

var errRefused = errors.New("refused")

func (refusing) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, errRefused
}

func (refusing) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, errRefused
}

func (refusing) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, errRefused
}

func (refusing) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, errRefused
}

func (refusing) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, errRefused
}

func (refusing) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, errRefused
}

func (refusing) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return nil, errRefused
}

func (refusing) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return nil, errRefused
}

func (refusing) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return nil, errRefused
}

// inputs gives every parameter of a Store method a value of its type,
// the same for every method: a string holds a separator of the keys, an
// int is above Widget's count max, a float is one DynamoDB can't store,
// a time has a five-digit year. Each is distinctive, so that a message
// that holds one is caught.
type inputs struct {
	str    string
	num    int64
	float  float64
	when   time.Time
	cursor Cursor
}

// bad makes methods fail on their keys; badValues, with plain strings,
// on the values they write and on the cursor.
var (
	bad       = inputs{str: "zq#SECRET", num: 1_000_000, float: 1.5, when: time.Unix(0, 0), cursor: ""}
	badValues = inputs{str: "plain", num: 987654321, float: 1e300, when: time.Date(12345, 6, 7, 0, 0, 0, 0, time.UTC), cursor: "SECRETcursor"}
	// secrets are the parts of the values above that no message may hold.
	secrets = []string{"SECRET", "987654321", "1e+300", "1e300", "12345"}
)

// value is a value of type t built from in: structs field by field,
// slices and maps of one element.
func (in inputs) value(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch {
	case t == reflect.TypeFor[context.Context]():
		v.Set(reflect.ValueOf(context.Background()))
	case t == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(in.when))
	case t == reflect.TypeFor[Page]():
		v.Set(reflect.ValueOf(Page{Cursor: in.cursor}))
	case t.Kind() == reflect.String:
		v.SetString(in.str)
	case t.Kind() == reflect.Int64:
		v.SetInt(in.num)
	case t.Kind() == reflect.Float64:
		v.SetFloat(in.float)
	case t.Kind() == reflect.Bool:
		v.SetBool(true)
	case t.Kind() == reflect.Pointer:
		v.Set(in.value(t.Elem()).Addr())
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				v.Field(i).Set(in.value(t.Field(i).Type))
			}
		}
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		v.Set(reflect.Append(v, in.value(t.Elem())))
	case t.Kind() == reflect.Map:
		v.Set(reflect.MakeMap(t))
		v.SetMapIndex(in.value(t.Key()), in.value(t.Elem()))
	}
	return v
}

// storeErrors calls every method of s with values from in and returns
// each one's error (an iterator's first).
func storeErrors(s *Store, in inputs) map[string]error {
	out := map[string]error{}
	sv := reflect.ValueOf(s)
	for i := range sv.NumMethod() {
		m := sv.Type().Method(i)
		if m.Name == "Tables" {
			continue // no call, no error: the tables' definitions
		}
		var args []reflect.Value
		for j := 1; j < m.Type.NumIn(); j++ {
			args = append(args, in.value(m.Type.In(j)))
		}
		res := sv.Method(i).Call(args)
		last := res[len(res)-1].Interface()
		switch r := last.(type) {
		case error:
			out[m.Name] = r
		case nil:
			out[m.Name] = nil
		default:
			// An iterator: its first error.
			seq := reflect.ValueOf(r)
			next, stop := iter.Pull2(func(yield func(any, any) bool) {
				yieldFn := reflect.MakeFunc(seq.Type().In(0), func(a []reflect.Value) []reflect.Value {
					return []reflect.Value{reflect.ValueOf(yield(a[0].Interface(), a[1].Interface()))}
				})
				seq.Call([]reflect.Value{yieldFn})
			})
			_, err, _ := next()
			stop()
			out[m.Name], _ = err.(error)
		}
	}
	return out
}

// TestErrorsNameTheMethod calls every Store method with values it
// refuses (or with a client that refuses every call) and checks that the
// error names the method, keeps its kind reachable, and holds none of
// the values given.
func TestErrorsNameTheMethod(t *testing.T) {
	s := newChecked(t, refusing{})
	kinds := map[error]int{}
	for _, in := range []inputs{bad, badValues} {
		for name, err := range storeErrors(s, in) {
			if err == nil {
				t.Errorf("%s with %+v: no error", name, in)
				continue
			}
			for _, secret := range secrets {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("%s: %q holds the value given, %q", name, err, secret)
				}
			}
			method := strings.TrimSuffix(name, "All")
			if got := methodOf(err); got != method {
				t.Errorf("%s: %v names %q, want %q", name, err, got, method)
			}
			if !strings.Contains(err.Error(), method+": ") {
				t.Errorf("%s: message %q does not name %s", name, err, method)
			}
			for _, k := range []error{ErrInvalidKey, ErrInvalidItem, ErrInvalidCursor, errRefused} {
				if errors.Is(err, k) {
					kinds[k]++
				}
			}
			var ke *KeyError
			var ie *ItemError
			if errors.Is(err, ErrInvalidKey) != errors.As(err, &ke) || errors.Is(err, ErrInvalidItem) != errors.As(err, &ie) {
				t.Errorf("%s: %v: errors.Is and errors.As disagree", name, err)
			}
		}
	}
	// Each kind is met, so the checks above saw each.
	for _, k := range []error{ErrInvalidKey, ErrInvalidItem, ErrInvalidCursor, errRefused} {
		if kinds[k] == 0 {
			t.Errorf("no method failed with %v", k)
		}
	}
	t.Logf("errors by kind: %v", kinds)
}
