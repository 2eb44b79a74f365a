package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dyngen/dyngen/internal/dynamotest"
	"github.com/dyngen/dyngen/internal/plan"
)

// TestPlainNames checks plan.Plain against DynamoDB Local: the names it
// lets an expression write as they are are accepted so, and the reserved
// words it leaves to placeholders are refused so (which shows that the
// server checks reserved words at all).
func TestPlainNames(t *testing.T) {
	t.Parallel()
	c := dynamotest.Client(t)
	table := dynamotest.CreateTable(t, c, &dynamodb.CreateTableInput{
		TableName:            aws.String("PlainNames"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
	})
	put := func(name string) error {
		_, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{
			TableName:           aws.String(table),
			Item:                map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "x"}},
			ConditionExpression: aws.String("attribute_not_exists(" + name + ")"),
		})
		return err
	}
	for _, name := range []string{"PK", "SK", "GSI1PK", "GSI1SK", "LSI1SK", "GSI20PK", "A1", "b2c", "Name1", "Status9", "Date2", "Key1"} {
		if !plan.Plain(name) {
			t.Errorf("plan.Plain(%q) = false, want true", name)
			continue
		}
		if err := put(name); err != nil {
			t.Errorf("%s written as it is: %v", name, err)
		}
	}
	for _, name := range []string{"name", "NAME", "status", "date", "key", "count", "data", "value", "type", "order", "timestamp", "comment", "user", "year"} {
		if plan.Plain(name) {
			t.Errorf("plan.Plain(%q) = true, want false", name)
		}
		if code := dynamotest.ErrorCode(put(name)); code != "ValidationException" {
			t.Errorf("the reserved word %s written as it is: error code %q, want ValidationException", name, code)
		}
	}
	for _, name := range []string{"_type", "view-count", "1a", "a_1", "Éa1", "", "pk", "sk"} {
		if plan.Plain(name) {
			t.Errorf("plan.Plain(%q) = true, want false", name)
		}
	}
}
