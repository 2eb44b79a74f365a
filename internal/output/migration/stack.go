package migration

import (
	"github.com/dyngen/dyngen/internal/output/cloudformation"
	"github.com/dyngen/dyngen/internal/output/format"
	"github.com/dyngen/dyngen/internal/output/iam"
	"github.com/dyngen/dyngen/internal/plan"
	"github.com/dyngen/dyngen/templates"
)

// StackFile is the migration output's CloudFormation stack: the state
// machine that scales a backfill out, and its Lambda function.
const StackFile = "backfill.cfn.yaml"

// The stack, as templates/backfill.cfn.yaml.tmpl prints it. Every string
// from the spec is a quoted scalar (format.YAMLString); the policy and
// the state machine's definition are indented JSON, which YAML reads as
// flow collections.
type (
	stack struct {
		Header     []string
		Package    string
		Tables     []stackTable
		Policy     []string
		Definition []string
	}
	stackTable struct {
		// Param is the parameter of the table's physical name (the
		// tables' stack's), Env the function's environment variable that
		// passes it on (model.Table.TableEnv).
		Param, Env string
		Name, Doc  string
	}
	// sub is CloudFormation's Fn::Sub.
	sub struct {
		Sub string `json:"Fn::Sub"`
	}
)

// tableARN writes a grant's table in the stack: the ARN of the table its
// parameter names. The backfills' grants are all on tables.
func tableARN(g *iam.Grant) (any, error) {
	return sub{"arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${" + cloudformation.TableIDsOf(g.Index.Table).Name + "}"}, nil
}

// renderStack renders the stack of p's backfills.
func renderStack(p *plan.Plan, src format.Source) ([]byte, error) {
	data := stack{Header: format.HashHeader(src), Package: p.Model.Package}
	for _, t := range p.Model.Tables {
		data.Tables = append(data.Tables, stackTable{
			Param: cloudformation.TableIDsOf(t).Name,
			Env:   t.TableEnv(),
			Name:  format.YAMLString(t.Name),
			Doc:   format.YAMLString("The physical name of table " + t.Name + "."),
		})
	}
	doc, err := AccessOf(p).Document(tableARN, func(s string) string { return s })
	if err != nil {
		return nil, err
	}
	if data.Policy, err = format.YAMLJSON(doc); err != nil {
		return nil, err
	}
	if data.Definition, err = format.YAMLJSON(Definition()); err != nil {
		return nil, err
	}
	return format.Execute(templates.Backfill, data)
}

// The state machine's definition, in the Amazon States Language. Its
// input is {"backfill": id, "segments": n, "concurrency": c, "rate": r,
// "pageSize": p} (a page small enough to be read and written within an
// invocation's margin, at the rate);
// a Pass state lists the segments (States.ArrayRange), and a
// Distributed Map runs each: a Task invokes the function with the
// segment (dyngen.SegmentEvent), and a Choice invokes it again with its
// result (dyngen.SegmentResult) until the segment is done, or fails the
// segment when its scan ended with items left open.
type (
	aslMachine struct {
		Comment string         `json:"Comment"`
		StartAt string         `json:"StartAt"`
		States  map[string]any `json:"States"`
	}
	aslPass struct {
		Type       string         `json:"Type"`
		Comment    string         `json:"Comment"`
		Parameters map[string]any `json:"Parameters"`
		ResultPath string         `json:"ResultPath"`
		Next       string         `json:"Next"`
	}
	aslMap struct {
		Type               string         `json:"Type"`
		Comment            string         `json:"Comment"`
		ItemsPath          string         `json:"ItemsPath"`
		MaxConcurrencyPath string         `json:"MaxConcurrencyPath"`
		ItemSelector       map[string]any `json:"ItemSelector"`
		ItemProcessor      aslProcessor   `json:"ItemProcessor"`
		ResultPath         string         `json:"ResultPath"`
		End                bool           `json:"End"`
	}
	aslProcessor struct {
		ProcessorConfig map[string]string `json:"ProcessorConfig"`
		StartAt         string            `json:"StartAt"`
		States          map[string]any    `json:"States"`
	}
	aslTask struct {
		Type       string         `json:"Type"`
		Comment    string         `json:"Comment"`
		Resource   string         `json:"Resource"`
		Parameters map[string]any `json:"Parameters"`
		OutputPath string         `json:"OutputPath"`
		Retry      []aslRetry     `json:"Retry"`
		Next       string         `json:"Next"`
	}
	aslRetry struct {
		ErrorEquals     []string `json:"ErrorEquals"`
		IntervalSeconds int      `json:"IntervalSeconds"`
		MaxAttempts     int      `json:"MaxAttempts"`
		BackoffRate     float64  `json:"BackoffRate"`
	}
	aslChoice struct {
		Type    string           `json:"Type"`
		Choices []map[string]any `json:"Choices"`
		Default string           `json:"Default"`
	}
	aslSucceed struct {
		Type string `json:"Type"`
	}
	aslFail struct {
		Type  string `json:"Type"`
		Error string `json:"Error"`
		Cause string `json:"Cause"`
	}
)

// MaxSegments is the most segments the state machine runs a backfill
// in: States.ArrayRange makes at most 1,000 items.
const MaxSegments = 1000

// Definition is the state machine's definition; its one substitution is
// ${FunctionArn}.
func Definition() any {
	return aslMachine{
		Comment: "Runs a backfill of the lock: each segment of its scan is a Lambda invocation of the backfill program, invoked again until the segment is done.",
		StartAt: "List segments",
		States: map[string]any{
			"List segments": aslPass{
				Type:       "Pass",
				Comment:    "The segments 0 to segments-1.",
				Parameters: map[string]any{"items.$": "States.ArrayRange(0, States.MathAdd($.segments, -1), 1)"},
				ResultPath: "$.list",
				Next:       "Run segments",
			},
			"Run segments": aslMap{
				Type:               "Map",
				Comment:            "One child execution per segment, concurrency at a time.",
				ItemsPath:          "$.list.items",
				MaxConcurrencyPath: "$.concurrency",
				ItemSelector: map[string]any{
					"backfill.$": "$.backfill",
					"segments.$": "$.segments",
					"segment.$":  "$$.Map.Item.Value",
					"rate.$":     "$.rate",
					"pageSize.$": "$.pageSize",
				},
				ItemProcessor: aslProcessor{
					ProcessorConfig: map[string]string{"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"},
					StartAt:         "Run segment",
					States: map[string]any{
						"Run segment": aslTask{
							Type:       "Task",
							Comment:    "Runs the segment from its checkpoint until it is done or the invocation's time is nearly up.",
							Resource:   "arn:aws:states:::lambda:invoke",
							Parameters: map[string]any{"FunctionName": "${FunctionArn}", "Payload.$": "$"},
							OutputPath: "$.Payload",
							Retry: []aslRetry{{
								ErrorEquals:     []string{"Lambda.ServiceException", "Lambda.AWSLambdaException", "Lambda.SdkClientException", "Lambda.TooManyRequestsException"},
								IntervalSeconds: 2, MaxAttempts: 6, BackoffRate: 2,
							}},
							Next: "Segment done?",
						},
						"Segment done?": aslChoice{
							Type: "Choice",
							Choices: []map[string]any{
								{"Variable": "$.done", "BooleanEquals": true, "Next": "Segment done"},
								{"Variable": "$.open", "BooleanEquals": true, "Next": "Segment left items open"},
							},
							Default: "Run segment",
						},
						"Segment done": aslSucceed{Type: "Succeed"},
						"Segment left items open": aslFail{
							Type:  "Fail",
							Error: "dyngen.ItemsLeftOpen",
							Cause: "The segment's scan ended with items it left as they are: in conflict (two items holding one value made unique) or unreadable (the function's log and the run's report name them). Change them, then run the backfill again.",
						},
					},
				},
				ResultPath: "$.results",
				End:        true,
			},
		},
	}
}

// stackFile is the stack as the migration output writes it.
func stackFile(p *plan.Plan, src format.Source) (format.File, error) {
	data, err := renderStack(p, src)
	return format.File{Name: StackFile, Data: data}, err
}
