package generator

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/plan"
)

// TestRequestsAsPlanned calls every method of the packages generated from
// the golden cases, the examples, the integration spec and the specs of
// testdata/requests with a client that records what it is sent, and
// checks that each request is the one the plan reports (and `dyngen plan`
// prints): the same expressions, the same names, the same value
// placeholders. It then checks DynamoDB's rules on every request, also
// one whose optional values are all zero: every placeholder an
// expression uses is given, every one given is used, and no map is
// empty. The client changes everything it is given, as a careless
// wrapper may: no later request may hold what it changed.
func TestRequestsAsPlanned(t *testing.T) {
	if testing.Short() {
		t.Skip("compiling generated code is skipped in -short mode")
	}
	specs := map[string][]byte{}
	goldens, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range goldens {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "spec.yaml" {
				specs["golden-"+strings.TrimSuffix(filepath.Base(file), ".txtar")] = f.Data
			}
		}
	}
	others, _ := filepath.Glob("../example/*/spec.yaml")
	others = append(others, "../internal/e2e/spec.yaml")
	more, _ := filepath.Glob("testdata/requests/*.yaml")
	for _, file := range append(others, more...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(file))
		if strings.HasPrefix(file, "testdata/requests/") {
			name = "requests-" + strings.TrimSuffix(filepath.Base(file), ".yaml")
		}
		specs[name] = data
	}
	if len(specs) < 10 {
		t.Fatalf("only %d specs found", len(specs))
	}
	names := make([]string, 0, len(specs))
	for name := range specs {
		names = append(names, name)
	}
	slices.Sort(names)

	root, err := os.MkdirTemp("testdata", "requests-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	// Each package gets the recorder as a file of its own (zz_requests.go,
	// DumpRequests), and one test package calls them all: one test binary
	// to build and link, not one per package.
	plans := map[string]*plan.Plan{}
	var driver bytes.Buffer
	driver.WriteString("package all_test\n\nimport (\n\t\"testing\"\n\n")
	var runs []string
	for _, name := range names {
		res := Check(name+".yaml", specs[name])
		files, diags := Generate(name+".yaml", name+".yaml", specs[name])
		if diags.HasErrors() {
			t.Errorf("%s: %v", name, diags.Err())
			continue
		}
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		src, err := recorderTest(name, res.Plan)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "zz_requests.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		plans[name] = res.Plan
		alias := fmt.Sprintf("p%d", len(runs))
		fmt.Fprintf(&driver, "\t%s %q\n", alias, "github.com/dyngen/dyngen/generator/"+filepath.ToSlash(dir))
		runs = append(runs, fmt.Sprintf("\tt.Run(%q, %s.DumpRequests)\n", name, alias))
	}
	driver.WriteString(")\n\nfunc TestDumpRequests(t *testing.T) {\n" + strings.Join(runs, "") + "}\n")
	all := filepath.Join(root, "all")
	if err := os.Mkdir(all, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(all, "all_test.go"), driver.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// go vet checks the committed examples and the golden cases; here the
	// packages are only built and run.
	cmd := exec.Command("go", "test", "-count=1", "-vet=off", "-run", "^TestDumpRequests$", "-v", "./"+filepath.ToSlash(all))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test of the generated packages: %v\n%s", err, out)
	}
	got := map[string]map[string]sentRequest{} // package -> pattern/variant -> request
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "REQUEST ")
		if !ok {
			continue
		}
		var r sentRequest
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if got[r.Package] == nil {
			got[r.Package] = map[string]sentRequest{}
		}
		got[r.Package][r.Pattern+"/"+r.Variant] = r
	}
	checked := 0
	for name, p := range plans {
		// Requests are recorded under the case's name: two cases may
		// generate packages of one name.
		pkg := name
		for _, pp := range p.Patterns {
			// A transaction sends its steps' requests, each checked as a
			// call of its own would be.
			calls := []struct {
				name string
				req  *plan.Request
			}{{pp.Pattern.Name, pp.Request}}
			if u := pp.Unique; u != nil && u.Claim != nil {
				// A get by a unique value reads the claim first.
				calls = append(calls, struct {
					name string
					req  *plan.Request
				}{pp.Pattern.Name + " claim", u.Claim.Request})
			}
			if pp.Tx != nil {
				calls = calls[:0]
				for _, s := range pp.Tx.Steps {
					calls = append(calls, struct {
						name string
						req  *plan.Request
					}{s.Plan.Pattern.Name, s.Plan.Request})
				}
			}
			for _, call := range calls {
				for _, variant := range []string{"given", "zero"} {
					r, ok := got[pkg][call.name+"/"+variant]
					if !ok {
						t.Errorf("%s: %s (%s) sent no request", name, call.name, variant)
						continue
					}
					checked++
					for _, what := range r.Shared {
						t.Errorf("%s: %s (%s values): the request holds %s, which the client changed in an earlier request", name, call.name, variant, what)
					}
					for _, problem := range dynamoRules(r) {
						t.Errorf("%s: %s (%s values): %s", name, call.name, variant, problem)
					}
					if variant == "given" {
						for _, problem := range asPlanned(call.req, r) {
							t.Errorf("%s: %s: %s", name, call.name, problem)
						}
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d requests checked", checked)
	}
}

// sentRequest is what the recording client saw of one request.
type sentRequest struct {
	Package, Pattern, Variant                                    string
	KeyCondition, Filter, Condition, Update, Projection          string
	Names                                                        map[string]string
	NamesNil                                                     bool
	Values                                                       []string
	ValuesNil                                                    bool
	IndexName                                                    string
	HasKeyCondition, HasFilter, HasCondition, HasUpdate, HasProj bool
	Limit                                                        int32
	Descending                                                   bool
	Shared                                                       []string
}

var placeholderRE = regexp.MustCompile(`[#:][A-Za-z0-9_]+`)

// dynamoRules checks what DynamoDB checks of a request's placeholders.
func dynamoRules(r sentRequest) []string {
	var problems []string
	usedNames, usedValues := map[string]bool{}, map[string]bool{}
	for _, e := range []string{r.KeyCondition, r.Filter, r.Condition, r.Update, r.Projection} {
		for _, ph := range placeholderRE.FindAllString(e, -1) {
			if ph[0] == '#' {
				usedNames[ph] = true
			} else {
				usedValues[ph] = true
			}
		}
	}
	for ph := range usedNames {
		if _, ok := r.Names[ph]; !ok {
			problems = append(problems, "expression uses "+ph+", which ExpressionAttributeNames does not define")
		}
	}
	for ph := range r.Names {
		if !usedNames[ph] {
			problems = append(problems, "ExpressionAttributeNames defines "+ph+", which no expression uses")
		}
	}
	for ph := range usedValues {
		if !slices.Contains(r.Values, ph) {
			problems = append(problems, "expression uses "+ph+", which ExpressionAttributeValues does not define")
		}
	}
	for _, ph := range r.Values {
		if !usedValues[ph] {
			problems = append(problems, "ExpressionAttributeValues defines "+ph+", which no expression uses")
		}
	}
	if !r.NamesNil && len(r.Names) == 0 {
		problems = append(problems, "ExpressionAttributeNames is empty (DynamoDB refuses it)")
	}
	if !r.ValuesNil && len(r.Values) == 0 {
		problems = append(problems, "ExpressionAttributeValues is empty (DynamoDB refuses it)")
	}
	for _, e := range []struct {
		has  bool
		text string
		what string
	}{{r.HasKeyCondition, r.KeyCondition, "KeyConditionExpression"}, {r.HasFilter, r.Filter, "FilterExpression"}, {r.HasCondition, r.Condition, "ConditionExpression"}, {r.HasUpdate, r.Update, "UpdateExpression"}, {r.HasProj, r.Projection, "ProjectionExpression"}} {
		if e.has && e.text == "" {
			problems = append(problems, e.what+" is empty")
		}
	}
	slices.Sort(problems)
	return problems
}

// asPlanned compares a request sent with every value given with the
// plan's.
func asPlanned(req *plan.Request, r sentRequest) []string {
	var problems []string
	cmp := func(what, planned, sent string) {
		if planned != sent {
			problems = append(problems, fmt.Sprintf("%s: plan %q, code sends %q", what, planned, sent))
		}
	}
	cmp("KeyConditionExpression", req.KeyCondition, r.KeyCondition)
	cmp("FilterExpression", req.Filter, r.Filter)
	// The harness's item read holds every attribute: each part of Held
	// is sent as Present, with its value.
	cmp("ConditionExpression", req.FullCondition(), r.Condition)
	cmp("ProjectionExpression", req.Projection, r.Projection)
	update := ""
	if req.Update != nil {
		update = req.Update.Expression()
	}
	cmp("UpdateExpression", update, r.Update)
	if req.Limit > 0 && int32(req.Limit) != r.Limit {
		problems = append(problems, fmt.Sprintf("Limit: plan %d, code sends %d", req.Limit, r.Limit))
	}
	// A page of a query, called with the zero Page: the pattern's limit.
	if req.KeyCondition != "" && req.Limit == 0 && int32(req.PageLimit) != r.Limit {
		problems = append(problems, fmt.Sprintf("Limit of a page: plan %d, code sends %d", req.PageLimit, r.Limit))
	}
	if req.Descending != r.Descending {
		problems = append(problems, fmt.Sprintf("ScanIndexForward false: plan %v, code sends %v", req.Descending, r.Descending))
	}
	names := map[string]string{}
	for _, n := range req.Names {
		names[n.Placeholder] = n.Stored
		if n.Key != nil {
			// The name is the key of a map's entry the call gives.
			names[n.Placeholder] = mapKeyGiven
		}
	}
	if len(names) != len(r.Names) || !mapsEqual(names, r.Names) {
		problems = append(problems, fmt.Sprintf("names: plan %v, code sends %v", names, r.Names))
	}
	var values []string
	for _, v := range req.Values {
		values = append(values, v.Placeholder)
	}
	for _, h := range req.Held {
		values = append(values, h.Value)
	}
	slices.Sort(values)
	sent := slices.Clone(r.Values)
	slices.Sort(sent)
	if !slices.Equal(values, sent) {
		problems = append(problems, fmt.Sprintf("values: plan %v, code sends %v", values, sent))
	}
	return problems
}

func mapsEqual(a, b map[string]string) bool {
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// recorderTest writes a test file for the generated package of p: a
// client that records each request, and a test that calls every
// pattern's method twice, with every value given and with every optional
// value zero, and prints each request as a REQUEST line of JSON.
func recorderTest(name string, p *plan.Plan) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", p.Model.Package)
	b.WriteString(`import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

var _ = time.Now
var _ types.AttributeValue

type sentRequest struct {
	Package, Pattern, Variant                                    string
	KeyCondition, Filter, Condition, Update, Projection          string
	Names                                                        map[string]string
	NamesNil                                                     bool
	Values                                                       []string
	ValuesNil                                                    bool
	IndexName                                                    string
	HasKeyCondition, HasFilter, HasCondition, HasUpdate, HasProj bool
	Limit                                                        int32
	Descending                                                   bool
	Shared                                                       []string
}

type recorder struct {
	got []sentRequest
	// item is the item the next GetItem answers, or nil for none.
	item map[string]types.AttributeValue
}

// mutated marks what a client changed in a request it was given: a later
// request that holds it shares memory with an earlier one.
const mutated = "changed by the client"

// shared lists what a request holds that a client changed in an earlier
// one, then changes all of it, as a careless client wrapper may.
func shared(strs []*string, maps []map[string]string, avs []map[string]types.AttributeValue, limit *int32) []string {
	var out []string
	for _, p := range strs {
		if p != nil {
			if *p == mutated {
				out = append(out, "an expression or index name")
			}
			*p = mutated
		}
	}
	for _, m := range maps {
		for k, v := range m {
			if v == mutated {
				out = append(out, "the name of "+k)
			}
			m[k] = mutated
		}
	}
	for _, m := range avs {
		for k, v := range m {
			switch v := v.(type) {
			case *types.AttributeValueMemberS:
				if v.Value == mutated {
					out = append(out, "the value of "+k)
				}
				v.Value = mutated
			case *types.AttributeValueMemberN:
				if v.Value == mutated {
					out = append(out, "the value of "+k)
				}
				v.Value = mutated
			case *types.AttributeValueMemberB:
				if string(v.Value) == mutated {
					out = append(out, "the value of "+k)
				}
				v.Value = []byte(mutated)
			case *types.AttributeValueMemberBOOL:
				// Only the key's own values are checked for sharing;
				// a BOOL operand is changed all the same.
				v.Value = !v.Value
			}
		}
	}
	if limit != nil {
		if *limit == -7 {
			out = append(out, "the limit")
		}
		*limit = -7
	}
	return out
}

func (r *recorder) add(kc, f, c, u, pr *string, names map[string]string, values map[string]types.AttributeValue, index *string) {
	s := sentRequest{
		KeyCondition: aws.ToString(kc), Filter: aws.ToString(f), Condition: aws.ToString(c), Update: aws.ToString(u), Projection: aws.ToString(pr),
		HasKeyCondition: kc != nil, HasFilter: f != nil, HasCondition: c != nil, HasUpdate: u != nil, HasProj: pr != nil,
		NamesNil: names == nil, ValuesNil: values == nil, IndexName: aws.ToString(index),
	}
	if names != nil {
		s.Names = map[string]string{}
		for k, v := range names {
			s.Names[k] = v
		}
	}
	for k := range values {
		s.Values = append(s.Values, k)
	}
	r.got = append(r.got, s)
}

// change records what a request shares with earlier ones, then changes
// all it holds.
func (r *recorder) change(strs []*string, maps []map[string]string, avs []map[string]types.AttributeValue, limit *int32) {
	last := &r.got[len(r.got)-1]
	last.Shared = append(last.Shared, shared(strs, maps, avs, limit)...)
}

func (r *recorder) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	r.add(nil, nil, nil, nil, in.ProjectionExpression, in.ExpressionAttributeNames, nil, nil)
	r.change([]*string{in.ProjectionExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.Key}, nil)
	item := r.item
	r.item = nil
	return &dynamodb.GetItemOutput{Item: item}, nil
}

func (r *recorder) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r.add(in.KeyConditionExpression, in.FilterExpression, nil, nil, in.ProjectionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues, in.IndexName)
	last := &r.got[len(r.got)-1]
	last.Limit = aws.ToInt32(in.Limit)
	last.Descending = in.ScanIndexForward != nil && !*in.ScanIndexForward
	// The generated code sets ScanIndexForward only to false and
	// ConsistentRead only to true: the other value is a client's change.
	if in.ScanIndexForward != nil {
		if *in.ScanIndexForward {
			last.Shared = append(last.Shared, "ScanIndexForward")
		}
		*in.ScanIndexForward = true
	}
	if in.ConsistentRead != nil {
		if !*in.ConsistentRead {
			last.Shared = append(last.Shared, "ConsistentRead")
		}
		*in.ConsistentRead = false
	}
	r.change([]*string{in.KeyConditionExpression, in.FilterExpression, in.ProjectionExpression, in.IndexName, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues}, in.Limit)
	return &dynamodb.QueryOutput{}, nil
}

func (r *recorder) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	r.add(nil, nil, in.ConditionExpression, nil, nil, in.ExpressionAttributeNames, in.ExpressionAttributeValues, nil)
	r.change([]*string{in.ConditionExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues, in.Item}, nil)
	return &dynamodb.PutItemOutput{}, nil
}

func (r *recorder) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	r.add(nil, nil, in.ConditionExpression, in.UpdateExpression, nil, in.ExpressionAttributeNames, in.ExpressionAttributeValues, nil)
	r.change([]*string{in.ConditionExpression, in.UpdateExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues, in.Key}, nil)
	return &dynamodb.UpdateItemOutput{}, nil
}

func (r *recorder) DeleteItem(_ context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	r.add(nil, nil, in.ConditionExpression, nil, nil, in.ExpressionAttributeNames, in.ExpressionAttributeValues, nil)
	r.change([]*string{in.ConditionExpression, in.TableName}, []map[string]string{in.ExpressionAttributeNames}, []map[string]types.AttributeValue{in.ExpressionAttributeValues, in.Key}, nil)
	return &dynamodb.DeleteItemOutput{}, nil
}

func (r *recorder) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	for _, ka := range in.RequestItems {
		r.add(nil, nil, nil, nil, ka.ProjectionExpression, ka.ExpressionAttributeNames, nil, nil)
		r.change([]*string{ka.ProjectionExpression}, []map[string]string{ka.ExpressionAttributeNames}, ka.Keys, nil)
	}
	return &dynamodb.BatchGetItemOutput{}, nil
}

func (r *recorder) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	r.add(nil, nil, nil, nil, nil, nil, nil, nil)
	return &dynamodb.BatchWriteItemOutput{}, nil
}

func (r *recorder) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		switch {
		case it.Put != nil:
			x := it.Put
			r.add(nil, nil, x.ConditionExpression, nil, nil, x.ExpressionAttributeNames, x.ExpressionAttributeValues, nil)
			r.change([]*string{x.ConditionExpression, x.TableName}, []map[string]string{x.ExpressionAttributeNames}, []map[string]types.AttributeValue{x.ExpressionAttributeValues, x.Item}, nil)
		case it.Update != nil:
			x := it.Update
			r.add(nil, nil, x.ConditionExpression, x.UpdateExpression, nil, x.ExpressionAttributeNames, x.ExpressionAttributeValues, nil)
			r.change([]*string{x.ConditionExpression, x.UpdateExpression, x.TableName}, []map[string]string{x.ExpressionAttributeNames}, []map[string]types.AttributeValue{x.ExpressionAttributeValues, x.Key}, nil)
		case it.Delete != nil:
			x := it.Delete
			r.add(nil, nil, x.ConditionExpression, nil, nil, x.ExpressionAttributeNames, x.ExpressionAttributeValues, nil)
			r.change([]*string{x.ConditionExpression, x.TableName}, []map[string]string{x.ExpressionAttributeNames}, []map[string]types.AttributeValue{x.ExpressionAttributeValues, x.Key}, nil)
		case it.ConditionCheck != nil:
			x := it.ConditionCheck
			r.add(nil, nil, x.ConditionExpression, nil, nil, x.ExpressionAttributeNames, x.ExpressionAttributeValues, nil)
			r.change([]*string{x.ConditionExpression, x.TableName}, []map[string]string{x.ExpressionAttributeNames}, []map[string]types.AttributeValue{x.ExpressionAttributeValues, x.Key}, nil)
		default:
			r.add(nil, nil, nil, nil, nil, nil, nil, nil)
		}
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

func (r *recorder) TransactGetItems(_ context.Context, in *dynamodb.TransactGetItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	for _, it := range in.TransactItems {
		x := it.Get
		r.add(nil, nil, nil, nil, x.ProjectionExpression, x.ExpressionAttributeNames, nil, nil)
		r.change([]*string{x.ProjectionExpression, x.TableName}, []map[string]string{x.ExpressionAttributeNames}, []map[string]types.AttributeValue{x.Key}, nil)
	}
	return &dynamodb.TransactGetItemsOutput{}, nil
}

// rec and store serve every call of the test: a request may share
// nothing with an earlier one, through the package or the Store.
var rec = &recorder{}
var store = New(rec)

func record(t *testing.T, pattern, variant string, call func(s *Store) error) {
	before := len(rec.got)
	err := call(store)
	if len(rec.got) == before {
		t.Errorf("%s (%s) sent nothing: %v", pattern, variant, err)
		return
	}
	r := rec.got[before]
	r.Package, r.Pattern, r.Variant = `)
	b.WriteString(strconv.Quote(name))
	b.WriteString(`, pattern, variant
	line, _ := json.Marshal(r)
	fmt.Printf("REQUEST %s\n", line)
}

// recordSteps prints every request a transaction sent, one per step.
func recordSteps(t *testing.T, pattern, variant string, call func(s *Store) error) {
	before := len(rec.got)
	err := call(store)
	if len(rec.got) == before {
		t.Errorf("%s (%s) sent nothing: %v", pattern, variant, err)
		return
	}
	for i, r := range rec.got[before:] {
		r.Package, r.Pattern, r.Variant = `)
	b.WriteString(strconv.Quote(name))
	b.WriteString(`, fmt.Sprintf("%s step %d", pattern, i+1), variant
		line, _ := json.Marshal(r)
		fmt.Printf("REQUEST %s\n", line)
	}
}

// marshaler is an item of the generated package.
type marshaler interface {
	MarshalItem() (map[string]types.AttributeValue, error)
}

// recordUnique prints the requests of a write of an entity with unique
// values after its GetItem (when reads), which answers old (no item when
// old is nil): the steps it sends, by their numbers in sent (from 0).
func recordUnique(t *testing.T, pattern, variant string, reads bool, old marshaler, sent []int, call func(s *Store) error) {
	skip := 0
	if reads {
		skip = 1
	}
	if old != nil {
		item, err := old.MarshalItem()
		if err != nil {
			t.Fatalf("%s: %v", pattern, err)
		}
		rec.item = item
	}
	before := len(rec.got)
	err := call(store)
	if len(rec.got) != before+skip+len(sent) {
		t.Errorf("%s (%s) sent %d requests, want %d: %v", pattern, variant, len(rec.got)-before, skip+len(sent), err)
		return
	}
	for i, r := range rec.got[before+skip:] {
		r.Package, r.Pattern, r.Variant = `)
	b.WriteString(strconv.Quote(name))
	b.WriteString(`, fmt.Sprintf("%s step %d", pattern, sent[i]+1), variant
		line, _ := json.Marshal(r)
		fmt.Printf("REQUEST %s\n", line)
	}
}

// recordLookup prints the requests of a get by a unique value: the
// GetItem of the claim, which answers claim, then the item's.
func recordLookup(t *testing.T, pattern, variant string, claim marshaler, call func(s *Store) error) {
	item, err := claim.MarshalItem()
	if err != nil {
		t.Fatalf("%s: %v", pattern, err)
	}
	rec.item = item
	before := len(rec.got)
	err = call(store)
	if len(rec.got) != before+2 {
		t.Errorf("%s (%s) sent %d requests, want 2: %v", pattern, variant, len(rec.got)-before, err)
		return
	}
	for i, name := range []string{pattern + " claim", pattern} {
		r := rec.got[before+i]
		r.Package, r.Pattern, r.Variant = `)
	b.WriteString(strconv.Quote(name))
	b.WriteString(`, name, variant
		line, _ := json.Marshal(r)
		fmt.Printf("REQUEST %s\n", line)
	}
}

// DumpRequests calls every method of the package, each with given values
// and with zero values, and prints what it sent.
func DumpRequests(t *testing.T) {
	ctx := context.Background()
	_ = ctx // a package of no pattern calls nothing
`)
	for _, pp := range p.Patterns {
		for _, zero := range []bool{false, true} {
			variant := "given"
			if zero {
				variant = "zero"
			}
			if pp.Unique != nil && pp.Unique.Claim != nil {
				claim := pp.Unique.Claim.Pattern.Entity()
				fmt.Fprintf(&b, "\trecordLookup(t, %q, %q, &%s, func(s *Store) error {\n\t\t_, err := s.%s(ctx, %s)\n\t\treturn err\n\t})\n", pp.Pattern.Name, variant, entityValue(claim), pp.Pattern.GoName, strings.Join(callArgs(pp, zero), ", "))
				continue
			}
			if pp.Tx != nil && pp.Unique != nil {
				// Over an item read, every step but a put's create and the
				// put of a copy over itself (the old item's values differ
				// from the new ones: the copy moves), and the write over a
				// set read empty (the set read holds one element, and the
				// set written another: one release and one take each); a
				// put over no item sends its create, the claims and the
				// copies.
				var over, absent []string
				replace := map[int]bool{} // the steps sent when a copy's key stays
				if pr := pp.Unique.Present; pr != nil {
					for _, mv := range pr.Copies {
						replace[mv.Replace] = true
					}
				}
				for i, s := range pp.Tx.Steps {
					if s.Step.Role != model.AbsentStep && s.Step.Role != model.AbsentCountStep && !replace[i] && s.Step.Role != model.EmptyStep {
						over = append(over, strconv.Itoa(i))
					}
					if s.Step.Role == model.AbsentStep || s.Step.Role == model.TakeStep || s.Step.Role == model.AbsentCountStep || s.Step.Role == model.EachPutStep {
						absent = append(absent, strconv.Itoa(i))
					}
				}
				call := fmt.Sprintf("func(s *Store) error {\n\t\terr := s.%s(ctx, %s)\n\t\treturn err\n\t})\n", pp.Pattern.GoName, strings.Join(callArgs(pp, zero), ", "))
				old := "nil"
				if pp.Unique.Read != nil {
					old = "&" + oldValue(pp.Pattern.Entity(), pp.Pattern)
				}
				fmt.Fprintf(&b, "\trecordUnique(t, %q, %q, %t, %s, []int{%s}, %s", pp.Pattern.Name, variant, pp.Unique.Read != nil, old, strings.Join(over, ", "), call)
				if e := pp.Unique.Present; e != nil && e.Empty != nil {
					// Over an item whose set was read empty: the write
					// conditioned on the set absent, and the taking of
					// the one element written (none for a delete).
					sent := []string{strconv.Itoa(e.Empty.Empty)}
					if pp.Pattern.Op != model.OpDelete {
						for i, s := range pp.Tx.Steps {
							// An element item is put for the element
							// written; an update that keeps the set
							// read empty puts none.
							if s.Step.Role == model.TakeStep || s.Step.Role == model.EachPutStep && (pp.Pattern.Op == model.OpPut || slices.Contains(pp.Pattern.SetAttrs(), e.Empty.Attr)) {
								sent = append(sent, strconv.Itoa(i))
							}
						}
					}
					fmt.Fprintf(&b, "\trecordUnique(t, %q, %q, true, &%s, []int{%s}, %s", pp.Pattern.Name, variant, oldValueWith(pp.Pattern.Entity(), pp.Pattern, e.Empty.Attr), strings.Join(sent, ", "), call)
				}
				if pp.Pattern.Op == model.OpPut && len(pp.Unique.Absent.Steps) > 0 {
					fmt.Fprintf(&b, "\trecordUnique(t, %q, %q, true, nil, []int{%s}, %s", pp.Pattern.Name, variant, strings.Join(absent, ", "), call)
				}
				if len(replace) > 0 {
					// Over an item of the same copy keys: the put of each
					// copy over itself, or the update of each copy.
					same := []string{"0"}
					for i, s := range pp.Tx.Steps {
						if replace[i] || s.Step.Role == model.UpdateCopyStep {
							same = append(same, strconv.Itoa(i))
						}
					}
					fmt.Fprintf(&b, "\trecordUnique(t, %q, %q, true, &%s, []int{%s}, %s", pp.Pattern.Name, variant, entityValue(pp.Pattern.Entity()), strings.Join(same, ", "), call)
				}
				continue
			}
			if pp.Tx != nil {
				results := "_, err"
				if pp.Call == plan.TransactWriteItems {
					results = "err"
				}
				fmt.Fprintf(&b, "\trecordSteps(t, %q, %q, func(s *Store) error {\n\t\t%s := s.%s(ctx, %s)\n\t\treturn err\n\t})\n", pp.Pattern.Name, variant, results, pp.Pattern.GoName, txValue(pp, zero))
				continue
			}
			args := callArgs(pp, zero)
			results := "_, err"
			switch {
			case pp.Form == plan.FormManyAll:
				results = "err"
			case pp.Pattern.Op == model.OpPut, pp.Pattern.Op == model.OpCreate, pp.Pattern.Op == model.OpDelete, pp.Pattern.Op == model.OpBatchPut, pp.Pattern.Op == model.OpBatchDelete:
				results = "err"
			}
			fmt.Fprintf(&b, "\trecord(t, %q, %q, func(s *Store) error {\n\t\t%s := s.%s(ctx", pp.Pattern.Name, variant, results, pp.Pattern.GoName)
			for _, a := range args {
				b.WriteString(", " + a)
			}
			b.WriteString(")\n\t\treturn err\n\t})\n")
		}
	}
	b.WriteString("}\n")
	return []byte(b.String()), nil
}

// callArgs are the arguments of a call of the pattern's method after
// ctx, every one given a valid value.
func callArgs(pp *plan.Pattern, zero bool) []string {
	var args, fields []string
	for _, prm := range pp.Params {
		if prm.Field == "" {
			args = append(args, paramValue(pp, prm, zero))
			continue
		}
		if len(fields) == 0 {
			args = append(args, "") // the struct, where its first field stands
		}
		fields = append(fields, prm.Field+": "+paramValue(pp, prm, zero))
	}
	for i, a := range args {
		if a == "" {
			args[i] = pp.Struct.Type + "{" + strings.Join(fields, ", ") + "}"
		}
	}
	return args
}

// copyKeyAttr reports whether a is an attribute of the key of a copy of
// e, which the old item holds another value of: the copy moves.
func copyKeyAttr(e *model.Entity, a *model.Attribute) bool {
	for _, c := range e.Copies {
		if slices.Contains(c.KeyAttrs(), a) {
			return true
		}
	}
	return false
}

// eachAttr reports whether a is the set or a listed attribute of an
// entry of items per element of e, which the old item holds another
// value of: the elements move, and every element's item is rewritten.
func eachAttr(e *model.Entity, a *model.Attribute) bool {
	for _, ea := range e.Each {
		if slices.Contains(ea.Read(), a) {
			return true
		}
	}
	return false
}

// oldValue is entityValue with every unique value, every group of a
// count, every set and listed attribute of items per element another
// than the calls give: the item a write reads before it
// moves its claims and counts.
func oldValue(e *model.Entity, p *model.Pattern) string { return oldValueWith(e, p, nil) }

// oldValueWith is oldValue with set empty (nil), unless empty is nil.
func oldValueWith(e *model.Entity, p *model.Pattern, empty *model.Attribute) string {
	var fields []string
	for _, a := range e.Attributes {
		if a == empty {
			continue // its zero value: nil
		}
		v := attrValueExpr(e, a)
		if len(e.UniquesWith(a)) > 0 || copyKeyAttr(e, a) || eachAttr(e, a) {
			switch a.Type {
			case model.String:
				v = `"w"`
			case model.Int:
				v = "(" + v + ") + 1"
			case model.StringSet:
				// One element released, one taken.
				v = `[]string{"w"}`
			case model.IntSet:
				v = "[]int64{8}"
			case model.Enum:
				if len(a.Values) > 1 {
					v = model.EnumType(e, a) + "(" + strconv.Quote(a.Values[1]) + ")"
				}
			}
		}
		if slices.ContainsFunc(e.Counts, func(c *model.Count) bool { return c.By == a }) || eachAttr(e, a) && (a.Type == model.Enum || a.Type == model.Bool) {
			switch g := oldGroup(a, p); {
			case a.Type == model.Bool:
				v = g
			case g != "":
				v = model.EnumType(e, a) + "(" + strconv.Quote(g) + ")"
			}
		}
		if a.StoredForm().Pointer {
			v = pointerExpr(e, a)
		}
		fields = append(fields, a.GoName+": "+v)
	}
	return e.GoName + "{" + strings.Join(fields, ", ") + "}"
}

// oldGroup is the group of a count (attribute a) the item oldValue
// gives write p, as the spec writes it: neither the first value, which
// the calls give, nor the constant p sets (when it sets one, the calls
// give none: any other), so that the count moves; "" when the enum has
// no such value.
func oldGroup(a *model.Attribute, p *model.Pattern) string {
	set := ""
	if sc := p.SetConst(a); sc != nil {
		set = sc.Const.Text
	}
	if a.Type == model.Bool {
		if set == "false" {
			return "true"
		}
		return "false"
	}
	values := a.Values[1:]
	if set != "" {
		// The calls give no value: any but the constant.
		values = a.Values
	}
	for _, v := range values {
		if v != set {
			return v
		}
	}
	return ""
}

// paramValue is a Go expression of a valid value for a parameter; zero
// gives the optional values an update sets their zero value, and the
// sets it removes elements from none.
func paramValue(pp *plan.Pattern, p *plan.Param, zero bool) string {
	e := pp.Pattern.Entity()
	switch p.Role {
	case plan.ParamPage:
		return "Page{}"
	case plan.ParamItem:
		return "&" + entityValue(e)
	case plan.ParamItems:
		return "[]" + e.GoName + "{" + entityValue(e) + "}"
	case plan.ParamKeys:
		if pp.Many != nil && len(pp.Inputs) == 1 {
			// A write over many keys of a key of one attribute.
			return pp.GoType(p) + "{" + attrValueExpr(e, pp.Inputs[0]) + "}"
		}
		var fields []string
		for _, a := range e.PrimaryKey().Attrs() {
			fields = append(fields, a.GoName+": "+attrValueExpr(e, a))
		}
		return "[]" + e.KeyType() + "{{" + strings.Join(fields, ", ") + "}}"
	case plan.ParamCond:
		a := p.Cond.Attr
		if p.Cond.Op == model.OpContains {
			switch a.Type {
			case model.Strings, model.StringSet:
				return `"v"`
			case model.IntSet:
				return "7"
			}
		}
		if p.Cond.Op == model.OpBeginsWith && a.Type == model.Path {
			return `[]string{"p"}`
		}
		return attrValueExpr(e, a)
	case plan.ParamSet:
		switch {
		case p.Pointer && zero:
			return "nil"
		case p.Pointer:
			return pointerExpr(e, p.Attr)
		case zero && p.Attr.Optional && !eachAttr(e, p.Attr):
			// A set with items per element keeps its value: set to
			// none, it would put no element item.
			return zeroValueExpr(e, p.Attr)
		}
	case plan.ParamElems:
		// No elements to remove: the request sends no DELETE for them.
		if zero {
			return "nil"
		}
	case plan.ParamMapKey:
		return strconv.Quote(mapKeyGiven)
	}
	return attrValueExpr(e, p.Attr)
}

// txValue is the struct of a transaction's inputs, every one given a
// valid value, each string a value of its own so that steps whose keys
// take different inputs address different items.
func txValue(pp *plan.Pattern, zero bool) string {
	var fields []string
	for i, in := range pp.Tx.Inputs {
		if in.Item != nil {
			e := in.Item.Entity()
			var vals []string
			for j, a := range e.Attributes {
				// Each item's values of their own: two items of one
				// entity, and their claims, address items of their own.
				v := distinctValue(e, a, j+1000*i)
				if a.Type == model.Enum {
					v = distinctValue(e, a, i)
				}
				if a.StoredForm().Pointer {
					v = pointerExpr(e, a)
				}
				vals = append(vals, a.GoName+": "+v)
			}
			fields = append(fields, in.Field+": &"+e.GoName+"{"+strings.Join(vals, ", ")+"}")
			continue
		}
		for _, s := range pp.Tx.Steps {
			j := slices.IndexFunc(s.Args, func(a *plan.Arg) bool { return a.Input == in })
			if j < 0 {
				continue
			}
			q := s.Plan.Params[j]
			v := paramValue(s.Plan, q, zero)
			if q.Role == plan.ParamKey {
				v = distinctValue(s.Step.Entity(), q.Attr, 100+i)
			}
			fields = append(fields, in.Field+": "+v)
			break
		}
	}
	return pp.Struct.Type + "{" + strings.Join(fields, ", ") + "}"
}

// distinctValue is attrValueExpr, but a value of its own for each i: a
// string where the attribute's length allows, a path (a move between two
// categories takes the old one as an input of its own), an int or a float
// without a maximum.
func distinctValue(e *model.Entity, a *model.Attribute, i int) string {
	switch {
	case a.Type == model.String && (a.MaxLength == 0 || a.MaxLength >= 5):
		return strconv.Quote(fmt.Sprintf("v%d", i))
	case a.Type == model.Path:
		return fmt.Sprintf(`[]string{"p", "v%d"}`, i)
	case a.Type == model.Enum:
		return model.EnumType(e, a) + "(" + strconv.Quote(a.Values[i%len(a.Values)]) + ")"
	case (a.Type == model.Int || a.Type == model.Float) && a.Max == nil:
		return "(" + attrValueExpr(e, a) + ") + " + strconv.Itoa(i)
	}
	return attrValueExpr(e, a)
}

// pointerExpr is a pointer to a valid value of a, an optional scalar.
func pointerExpr(e *model.Entity, a *model.Attribute) string {
	v := attrValueExpr(e, a)
	if a.Type == model.Int {
		v = "int64(" + v + ")"
	}
	return "new(" + v + ")"
}

// entityValue is a composite literal of an item of e with every
// attribute given a valid value.
func entityValue(e *model.Entity) string { return valueExpr(e, e.GoName, e.Attributes) }

// valueExpr is a composite literal of type typ whose fields are attrs (of
// entity e, nil for an object's), each given a valid value.
func valueExpr(e *model.Entity, typ string, attrs []*model.Attribute) string {
	var fields []string
	for _, a := range attrs {
		v := attrValueExpr(e, a)
		if a.StoredForm().Pointer {
			v = pointerExpr(e, a)
		}
		fields = append(fields, a.GoName+": "+v)
	}
	return typ + "{" + strings.Join(fields, ", ") + "}"
}

// attrValueExpr is a Go expression of a valid, non-zero value of a: in
// its bounds, one character long where a string's length is bounded,
// free of every separator, an enum's first value.
func attrValueExpr(e *model.Entity, a *model.Attribute) string {
	switch a.Type {
	case model.String:
		return `"v"`
	case model.Int:
		switch {
		case a.Min != nil:
			return strconv.FormatInt(a.Min.Int, 10)
		case a.Max != nil:
			return strconv.FormatInt(a.Max.Int, 10)
		}
		return "7"
	case model.Float:
		switch {
		case a.Min != nil:
			return strconv.FormatFloat(a.Min.Float, 'g', -1, 64)
		case a.Max != nil:
			return strconv.FormatFloat(a.Max.Float, 'g', -1, 64)
		}
		return "1.5"
	case model.Bool:
		return "true"
	case model.Time:
		return "time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)"
	case model.Bytes:
		return `[]byte("b")`
	case model.Strings, model.StringSet:
		return `[]string{"v"}`
	case model.Path:
		return `[]string{"p", "q"}`
	case model.IntSet:
		return "[]int64{7}"
	case model.Map:
		return `map[string]string{"k": "v"}`
	case model.Enum:
		return model.EnumType(e, a) + "(" + strconv.Quote(a.Values[0]) + ")"
	case model.Document:
		return `&types.AttributeValueMemberS{Value: "d"}`
	case model.Object:
		return objectValueExpr(a.Of)
	case model.Objects:
		return "[]" + a.Of.GoName + "{" + objectValueExpr(a.Of) + "}"
	}
	return "nil"
}

// mapKeyGiven is the key of a map's entry every call gives, which the
// request sends as a name's value.
const mapKeyGiven = "key.{1}"

// objectValueExpr is a composite literal of object type o with every
// field given a valid value.
func objectValueExpr(o *model.ObjectType) string { return valueExpr(nil, o.GoName, o.Fields) }

// zeroValueExpr is the Go zero value of a's type.
func zeroValueExpr(e *model.Entity, a *model.Attribute) string {
	switch a.Type {
	case model.String:
		return `""`
	case model.Int, model.Float:
		return "0"
	case model.Bool:
		return "false"
	case model.Time:
		return "time.Time{}"
	case model.Enum:
		return model.EnumType(e, a) + `("")`
	case model.Object:
		return a.Of.GoName + "{}"
	}
	return "nil"
}
