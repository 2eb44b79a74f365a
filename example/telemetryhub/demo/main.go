// Command demo runs every access pattern of the telemetryhub model against
// a DynamoDB server (DynamoDB Local) and prints what each returns.
//
//	DYNAMODB_ENDPOINT=http://127.0.0.1:8000 go run ./example/telemetryhub/demo
//
// It creates the model's table under a unique name and deletes it at the end.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/dyngen/dyngen/example/telemetryhub"
)

func main() {
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" {
		fmt.Fprintln(os.Stderr, "demo: DYNAMODB_ENDPOINT is not set; point it at DynamoDB Local, e.g.\n"+
			"  scripts/dynamodb-local run go run ./example/telemetryhub/demo")
		os.Exit(2)
	}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		// DynamoDB Local checks no signature: dummy credentials do.
		Credentials: credentials.NewStaticCredentialsProvider("demo", "demo", ""),
		// DynamoDB Local's responses make the CRC32 check warn.
		DisableValidateResponseChecksum: true,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, client, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// run creates the tables, runs every pattern on a little data, prints what
// each returns to out, and deletes the tables.
func run(ctx context.Context, client *dynamodb.Client, out io.Writer) (err error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	suffix := hex.EncodeToString(b[:])
	s := telemetryhub.New(client, telemetryhub.WithTelemetryHubTable("TelemetryHub-demo-"+suffix))
	for _, table := range s.Tables() {
		name, cerr := createTable(ctx, client, table)
		if name != "" {
			defer func() { err = errors.Join(err, deleteTable(client, name)) }()
		}
		if cerr != nil {
			return cerr
		}
		fmt.Fprintf(out, "created table %s\n", name)
	}
	return demo(ctx, s, out)
}

func demo(ctx context.Context, s *telemetryhub.Store, out io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	section := func(pattern, what string) { p("\n== %s: %s", pattern, what) }
	memberships := func(ms []telemetryhub.Membership) {
		if len(ms) == 0 {
			p("  (none)")
		}
		for _, m := range ms {
			p("  user %s -> service group %s (granted %s)", m.UserID, m.ServiceGroupID, m.GrantedAt.Format(time.DateOnly))
		}
	}

	acme := telemetryhub.Account{AccountID: "acc-7f3a9c", Name: "Acme Rockets"}
	section("CreateAccount", "an account")
	if err := s.CreateAccount(ctx, &acme); err != nil {
		return err
	}
	p("  %s %q", acme.AccountID, acme.Name)
	err := s.CreateAccount(ctx, &acme)
	p("creating it again: %s", sentinel(err))

	section("CreateUser", "three users of the account")
	created := time.Date(2023, 4, 1, 9, 0, 0, 0, time.UTC)
	users := []telemetryhub.User{
		{AccountID: acme.AccountID, UserID: "usr-0001", FirstName: "Wile E.", LastName: "Coyote", Role: "admin", CreatedAt: created},
		{AccountID: acme.AccountID, UserID: "usr-0002", FirstName: "Road", LastName: "Runner", Role: "viewer", CreatedAt: created.AddDate(0, 0, 1)},
		{AccountID: acme.AccountID, UserID: "usr-0003", FirstName: "Marvin", LastName: "Martian", Role: "developer", CreatedAt: created.AddDate(0, 2, 0)},
	}
	for _, u := range users {
		if err := s.CreateUser(ctx, &u); err != nil {
			return err
		}
		p("  %s", fmtUser(u))
	}

	section("CreateServiceGroup", "two service groups of the account")
	for _, g := range []telemetryhub.ServiceGroup{
		{AccountID: acme.AccountID, ServiceGroupID: "sg-dev-41", Name: "dev"},
		{AccountID: acme.AccountID, ServiceGroupID: "sg-prod-17", Name: "prod"},
	} {
		if err := s.CreateServiceGroup(ctx, &g); err != nil {
			return err
		}
		p("  %s %q", g.ServiceGroupID, g.Name)
	}

	groupMembers := func(id string) (int64, error) {
		for g, err := range s.ServiceGroupsOfAccountAll(ctx, acme.AccountID) {
			if err != nil {
				return 0, err
			}
			if g.ServiceGroupID == id {
				return g.Members, nil
			}
		}
		return 0, fmt.Errorf("no service group %s", id)
	}

	section("GrantServiceGroup", "the admin grants access; each group counts its members, in the same transaction")
	granted := time.Date(2024, 6, 3, 12, 0, 0, 0, time.UTC)
	for _, m := range []telemetryhub.Membership{
		{UserID: "usr-0001", ServiceGroupID: "sg-dev-41", GrantedAt: granted},
		{UserID: "usr-0001", ServiceGroupID: "sg-prod-17", GrantedAt: granted},
		{UserID: "usr-0002", ServiceGroupID: "sg-prod-17", GrantedAt: granted.AddDate(0, 0, 2)},
		{UserID: "usr-0003", ServiceGroupID: "sg-dev-41", GrantedAt: granted.AddDate(0, 1, 0)},
	} {
		if err := s.GrantServiceGroup(ctx, telemetryhub.GrantServiceGroupParams{Membership: &m, AccountID: acme.AccountID}); err != nil {
			return err
		}
		n, err := groupMembers(m.ServiceGroupID)
		if err != nil {
			return err
		}
		p("  user %s -> service group %s (members %d)", m.UserID, m.ServiceGroupID, n)
	}
	again := telemetryhub.Membership{UserID: "usr-0001", ServiceGroupID: "sg-dev-41", GrantedAt: time.Now()}
	err = s.GrantServiceGroup(ctx, telemetryhub.GrantServiceGroupParams{Membership: &again, AccountID: acme.AccountID})
	p("granting usr-0001 sg-dev-41 again: %s", sentinel(err))
	ghost := telemetryhub.Membership{UserID: "usr-9999", ServiceGroupID: "sg-dev-41", GrantedAt: time.Now()}
	err = s.GrantServiceGroup(ctx, telemetryhub.GrantServiceGroupParams{Membership: &ghost, AccountID: acme.AccountID})
	p("granting a user who does not exist: %s", sentinel(err))
	nogroup := telemetryhub.Membership{UserID: "usr-0003", ServiceGroupID: "sg-none-00", GrantedAt: time.Now()}
	err = s.GrantServiceGroup(ctx, telemetryhub.GrantServiceGroupParams{Membership: &nogroup, AccountID: acme.AccountID})
	p("granting a group that does not exist: %s", sentinel(err))

	section("GetAccount", acme.AccountID)
	a, err := s.GetAccount(ctx, acme.AccountID)
	if err != nil {
		return err
	}
	p("  %s %q", a.AccountID, a.Name)

	section("GetUser", "usr-0002 of "+acme.AccountID)
	u, err := s.GetUser(ctx, telemetryhub.UserKey{AccountID: acme.AccountID, UserID: "usr-0002"})
	if err != nil {
		return err
	}
	p("  %s", fmtUser(*u))
	_, err = s.GetUser(ctx, telemetryhub.UserKey{AccountID: acme.AccountID, UserID: "usr-9999"})
	p("usr-9999: %s", sentinel(err))

	section("UsersOfAccount", "PK = account:"+acme.AccountID+", SK begins_with user:")
	for u, err := range s.UsersOfAccountAll(ctx, acme.AccountID) {
		if err != nil {
			return err
		}
		p("  %s", fmtUser(u))
	}

	section("ServiceGroupsOfAccount", "PK = account:"+acme.AccountID+", SK begins_with servicegroup:")
	for g, err := range s.ServiceGroupsOfAccountAll(ctx, acme.AccountID) {
		if err != nil {
			return err
		}
		p("  %s %q, members %d", g.ServiceGroupID, g.Name, g.Members)
	}

	section("AccountData", "everything of the account in one Query")
	data, err := s.AccountData(ctx, acme.AccountID, telemetryhub.Page{})
	if err != nil {
		return err
	}
	for _, a := range data.Accounts {
		p("  account       %s %q", a.AccountID, a.Name)
	}
	for _, u := range data.Users {
		p("  user          %s", fmtUser(u))
	}
	for _, g := range data.ServiceGroups {
		p("  service group %s %q, members %d", g.ServiceGroupID, g.Name, g.Members)
	}

	section("ServiceGroupsOfUser", "the service groups usr-0001 can open (table)")
	sg, err := s.ServiceGroupsOfUser(ctx, "usr-0001", telemetryhub.Page{})
	if err != nil {
		return err
	}
	memberships(sg.Items)

	section("UsersOfServiceGroup", "the users of sg-prod-17 (inverse GSI)")
	ug, err := s.UsersOfServiceGroup(ctx, "sg-prod-17", telemetryhub.Page{})
	if err != nil {
		return err
	}
	memberships(ug.Items)

	section("UserByID", "usr-0003 from its id alone (inverse GSI)")
	ub, err := s.UserByID(ctx, "usr-0003", telemetryhub.Page{})
	if err != nil {
		return err
	}
	for _, u := range ub.Items {
		p("  %s", fmtUser(u))
	}

	section("RevokeServiceGroup", "usr-0001 loses prod; the group counts one member less")
	revoke := telemetryhub.RevokeServiceGroupParams{UserID: "usr-0001", ServiceGroupID: "sg-prod-17", AccountID: acme.AccountID}
	if err := s.RevokeServiceGroup(ctx, revoke); err != nil {
		return err
	}
	err = s.RevokeServiceGroup(ctx, revoke)
	p("revoking it again: %s", sentinel(err))
	n, err := groupMembers("sg-prod-17")
	if err != nil {
		return err
	}
	p("sg-prod-17, members %d:", n)
	ug, err = s.UsersOfServiceGroup(ctx, "sg-prod-17", telemetryhub.Page{})
	if err != nil {
		return err
	}
	memberships(ug.Items)
	return nil
}

func fmtUser(u telemetryhub.User) string {
	return fmt.Sprintf("%s of %s: %s %s, %s, since %s", u.UserID, u.AccountID, u.FirstName, u.LastName, u.Role, u.CreatedAt.Format(time.DateOnly))
}

// sentinel names the step of a transaction that failed, and the error
// sentinel of the package that err wraps.
func sentinel(err error) string {
	var te *telemetryhub.TransactionError
	if errors.As(err, &te) {
		return fmt.Sprintf("step %d (%s): %s", te.Step, te.Action, sentinel(te.Err))
	}
	for _, e := range []struct {
		name string
		err  error
	}{
		{"ErrNotFound", telemetryhub.ErrNotFound},
		{"ErrAlreadyExists", telemetryhub.ErrAlreadyExists},
		{"ErrConditionFailed", telemetryhub.ErrConditionFailed},
		{"ErrInvalidKey", telemetryhub.ErrInvalidKey},
		{"ErrInvalidItem", telemetryhub.ErrInvalidItem},
		{"ErrInvalidCursor", telemetryhub.ErrInvalidCursor},
	} {
		if errors.Is(err, e.err) {
			return "error " + e.name
		}
	}
	if err == nil {
		return "no error"
	}
	return "error: " + err.Error()
}

// createTable creates a table of the Store under the name the Store gave
// it, waits until it is active and turns its time to live on, if the spec
// names an attribute for it. It returns the name even when the wait
// fails, so that the caller can delete the table.
func createTable(ctx context.Context, c *dynamodb.Client, table telemetryhub.Table) (string, error) {
	name := aws.ToString(table.Create.TableName)
	if _, err := c.CreateTable(ctx, table.Create); err != nil {
		return "", fmt.Errorf("create table %s: %w", name, err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, time.Minute); err != nil {
		return name, fmt.Errorf("wait for table %s: %w", name, err)
	}
	if table.TimeToLive != nil {
		if _, err := c.UpdateTimeToLive(ctx, table.TimeToLive); err != nil {
			return name, fmt.Errorf("turn time to live on for table %s: %w", name, err)
		}
	}
	return name, nil
}

// deleteTable deletes a table the demo created, even when ctx has ended.
func deleteTable(c *dynamodb.Client, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		return fmt.Errorf("delete table %s: %w", name, err)
	}
	return nil
}
