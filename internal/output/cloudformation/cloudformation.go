package cloudformation

import (
	"fmt"

	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/templates"
)

// The CloudFormation template, as templates/cloudformation.yaml.tmpl
// prints it. Every string from the spec is already a quoted scalar
// (yamlString); the logical IDs are those of ids.go, alphanumeric (Check
// refuses any other).
type (
	cfTemplate struct {
		Header    []string
		Billing   string // the default billing mode
		Tables    []cfTable
		Consumers []cfConsumer
		Policy    *cfPolicy // nil when the template holds no IAM policy
	}
	// cfConsumer is the event source mapping of a consumer with lambda:,
	// and the parameter of its function.
	cfConsumer struct {
		IDs         ConsumerIDs
		FunctionDoc string
		// Table is the logical ID of the resource of the consumer's
		// table, whose stream the mapping reads.
		Table            string
		StartingPosition string
		BatchSize        int64 // 0 for Lambda's default
		// Filters are the patterns of its filters (plan.Consumer.Filters).
		Filters []string
	}
	// cfPolicy is the AWS::IAM::ManagedPolicy of the IAM output's
	// statements on the stack's tables.
	cfPolicy struct {
		IDs PolicyIDs
		// Document is the policy document as indented JSON, which YAML
		// reads as a flow mapping, a line each, in printable ASCII.
		Document []string
	}
	// cfGetAtt and cfSub are the intrinsic functions that write the ARN
	// of a table and of its index in the policy.
	cfGetAtt struct {
		GetAtt [2]string `json:"Fn::GetAtt"`
	}
	cfSub struct {
		Sub string `json:"Fn::Sub"`
	}
	cfTable struct {
		IDs        TableIDs
		Name       string // the spec's table name: the name parameter's default
		Doc        cfTableDocs
		Attributes []cfAttribute
		Key        []cfKey
		Global     []cfIndex
		Local      []cfIndex
		TTL        string // "" when the table has none
		Stream     string // the stream's view type, "" when the table has none
		// DependsOn is the logical ID of the table with secondary
		// indexes made before this one, when this one has any.
		DependsOn string
	}
	// cfTableDocs are the descriptions of a table's parameters and
	// outputs.
	cfTableDocs struct {
		Name, Billing, Read, Write, PointInTimeRecovery, DeletionProtection, NameOutput, ArnOutput string
	}
	cfAttribute struct {
		Name, Type string
	}
	cfKey struct {
		Name, Type string
	}
	cfIndex struct {
		IDs        IndexIDs // of a global index
		Name       string
		Key        []cfKey
		Projection string
		NonKey     []string
		CapDoc     [2]string // the descriptions of the capacity parameters of a global index
	}
)

// Render renders the CloudFormation template of the tables: an
// AWS::DynamoDB::Table per table, printed from plan.TableDef, with
// parameters for what differs between deployments (physical name,
// billing, capacities, point-in-time recovery, deletion protection) and
// the name and ARN of each table as outputs; an
// AWS::Lambda::EventSourceMapping per consumer with lambda:, with a
// parameter of its function.
func Render(p *plan.Plan, o *model.Output, src format.Source) ([]format.File, error) {
	data := cfTemplate{Header: format.HashHeader(src), Billing: plan.Billing}
	// DynamoDB limits how many tables with secondary indexes may be
	// created at once, and CloudFormation creates tables in parallel: as
	// its documentation asks, each such table depends on the one before.
	indexed := ""
	for _, d := range p.Tables {
		t := cfTable{
			IDs:  TableIDsOf(d.Table),
			Name: format.YAMLString(d.Table.Name),
			Key:  cfKeys(d.Key),
		}
		name := d.Table.Name
		t.Doc = cfTableDocs{
			Name:                format.YAMLString("The physical name of table " + name + "."),
			Billing:             format.YAMLString("The billing mode of table " + name + ": PAY_PER_REQUEST (on demand) or PROVISIONED (with the capacities of its parameters)."),
			Read:                format.YAMLString("Read capacity units of table " + name + " when it is provisioned."),
			Write:               format.YAMLString("Write capacity units of table " + name + " when it is provisioned."),
			PointInTimeRecovery: format.YAMLString("Whether point-in-time recovery of table " + name + " is on."),
			DeletionProtection:  format.YAMLString("Whether deletion protection of table " + name + " is on: the table can't be deleted while it is."),
			NameOutput:          format.YAMLString("The physical name of table " + name + "."),
			ArnOutput:           format.YAMLString("The ARN of table " + name + "."),
		}
		for _, a := range d.Attributes {
			t.Attributes = append(t.Attributes, cfAttribute{format.YAMLString(a.Name), format.YAMLString(string(a.Type))})
		}
		for _, ix := range d.Global {
			c := cfIndexOf(ix)
			c.IDs = IndexIDsOf(ix)
			for i, what := range []string{"Read", "Write"} {
				c.CapDoc[i] = format.YAMLString(fmt.Sprintf("%s capacity units of index %s of table %s when the table is provisioned; 0 for the table's.", what, ix.Name, d.Table.Name))
			}
			t.Global = append(t.Global, c)
		}
		for _, ix := range d.Local {
			t.Local = append(t.Local, cfIndexOf(ix))
		}
		if d.TTL != "" {
			t.TTL = format.YAMLString(d.TTL)
		}
		t.Stream = d.Stream
		if len(d.Global)+len(d.Local) > 0 {
			t.DependsOn = indexed
			indexed = t.IDs.Resource
		}
		data.Tables = append(data.Tables, t)
	}
	data.Consumers = cfConsumers(p)
	if acc := Policy(p); acc != nil {
		doc, err := acc.Document(cfARN, func(s string) string { return s })
		if err != nil {
			return nil, err
		}
		lines, err := format.YAMLJSON(doc)
		if err != nil {
			return nil, err
		}
		data.Policy = &cfPolicy{IDs: PolicyIDsOf(), Document: lines}
	}
	out, err := format.Execute(templates.CloudFormation, data)
	if err != nil {
		return nil, err
	}
	return []format.File{{Name: o.File, Data: out}}, nil
}

// cfConsumers are the event source mappings of the consumers with
// lambda:, in spec order: each reads its table's stream with Lambda's
// partial batch response (the records the function reports failed are
// sent again, not the whole batch), and the filters the plan decided.
func cfConsumers(p *plan.Plan) []cfConsumer {
	var out []cfConsumer
	for _, c := range p.Model.Consumers {
		pc := p.Consumer(c)
		if c.Lambda == nil || pc == nil {
			continue
		}
		cc := cfConsumer{
			IDs:              ConsumerIDsOf(c),
			FunctionDoc:      format.YAMLString("The name or ARN of the Lambda function of consumer " + c.Name + ", which reads the stream of table " + c.Table.Name + "."),
			Table:            ResourceID(c.Table),
			StartingPosition: c.Lambda.StartingPosition,
			BatchSize:        c.Lambda.BatchSize,
		}
		for _, f := range pc.Filters {
			cc.Filters = append(cc.Filters, format.YAMLString(f.Pattern))
		}
		out = append(out, cc)
	}
	return out
}

func cfKeys(ix *model.Index) []cfKey {
	var out []cfKey
	for _, k := range plan.KeySchema(ix) {
		out = append(out, cfKey{format.YAMLString(k.Name), k.Type})
	}
	return out
}

func cfIndexOf(ix *model.Index) cfIndex {
	typ, nonKey := plan.Projection(ix)
	c := cfIndex{Name: format.YAMLString(ix.Name), Key: cfKeys(ix), Projection: typ}
	for _, a := range nonKey {
		c.NonKey = append(c.NonKey, format.YAMLString(a))
	}
	return c
}

// cfARN writes the ARN of a grant's table or index in the template: of
// the table resource, so that the policy names the table whatever
// physical name the stack's parameters give it.
func cfARN(g *iam.Grant) (any, error) {
	id := ResourceID(g.Index.Table)
	if g.Index.IsPrimary() {
		return cfGetAtt{[2]string{id, "Arn"}}, nil
	}
	// DynamoDB's characters of index names, none of which Fn::Sub reads
	// (it reads ${...}).
	if !model.IsDynamoName(g.Index.Name) {
		return nil, fmt.Errorf("index name %q is not a DynamoDB index name", g.Index.Name)
	}
	return cfSub{"${" + id + ".Arn}/index/" + g.Index.Name}, nil
}
