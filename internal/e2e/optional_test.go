package e2e

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// rawItem reads an item as DynamoDB stores it.
func rawItem(t *testing.T, s *Store, raw *dynamodb.Client, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := raw.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: &s.mainTable, Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk},
		"SK": &types.AttributeValueMemberS{Value: sk},
	}})
	must(t, err)
	return out.Item
}

func repoIDs(rs []Repo) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.RepoID)
	}
	return out
}

// TestOptionalZeroValues: an optional scalar given its zero value (false,
// 0, "") is stored, read back and indexed; only an absent one (nil) is
// left out of the item and out of the index its key is built from.
func TestOptionalZeroValues(t *testing.T) {
	t.Parallel()
	s, raw := newStore(t, nil)
	ctx := t.Context()
	seen := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	zero := &Repo{OwnerID: "o", RepoID: "zero", Public: new(false), Stars: new(int64(0)), Humidity: new(0.0), Topic: new(""), Level: new(RepoLevelLow), SeenAt: &seen, Kind: RepoKindCode}
	must(t, s.CreateRepo(ctx, zero))
	must(t, s.CreateRepo(ctx, &Repo{OwnerID: "o", RepoID: "absent", Kind: RepoKindCode}))
	must(t, s.CreateRepo(ctx, &Repo{OwnerID: "o", RepoID: "public", Public: new(true), Kind: RepoKindCode}))

	item := rawItem(t, s, raw, "OWNER#o", "REPO#zero")
	for name, want := range map[string]types.AttributeValue{
		"public":   &types.AttributeValueMemberBOOL{Value: false},
		"stars":    &types.AttributeValueMemberN{Value: "0"},
		"humidity": &types.AttributeValueMemberN{Value: "0"},
		"topic":    &types.AttributeValueMemberS{Value: ""},
		"GSI1PK":   &types.AttributeValueMemberS{Value: "PUBLIC#false"},
	} {
		if got := item[name]; !avEqual(got, want) {
			t.Errorf("stored %s = %#v, want %#v", name, got, want)
		}
	}
	absent := rawItem(t, s, raw, "OWNER#o", "REPO#absent")
	for _, name := range []string{"public", "stars", "humidity", "topic", "level", "seenAt", "GSI1PK", "GSI1SK"} {
		if v, ok := absent[name]; ok {
			t.Errorf("an absent optional value is stored: %s = %#v", name, v)
		}
	}

	got, err := s.GetRepo(ctx, RepoKey{OwnerID: "o", RepoID: "zero"})
	must(t, err)
	if got.Public == nil || *got.Public || got.Stars == nil || *got.Stars != 0 || got.Humidity == nil || *got.Humidity != 0 ||
		got.Topic == nil || *got.Topic != "" || got.Level == nil || *got.Level != RepoLevelLow || got.SeenAt == nil || !got.SeenAt.Equal(seen) {
		t.Errorf("GetRepo of the zero values = %+v", got)
	}
	got, err = s.GetRepo(ctx, RepoKey{OwnerID: "o", RepoID: "absent"})
	must(t, err)
	if got.Public != nil || got.Stars != nil || got.Humidity != nil || got.Topic != nil || got.Level != nil || got.SeenAt != nil {
		t.Errorf("GetRepo of the absent values = %+v", got)
	}

	// The private repositories: the one whose public is false, not the
	// one with no visibility.
	res, err := s.ReposByVisibility(ctx, false, Page{})
	must(t, err)
	if ids := repoIDs(res.Items); len(ids) != 1 || ids[0] != "zero" {
		t.Errorf("ReposByVisibility(false) = %q, want [zero]", ids)
	}
	res, err = s.ReposByVisibility(ctx, true, Page{})
	must(t, err)
	if ids := repoIDs(res.Items); len(ids) != 1 || ids[0] != "public" {
		t.Errorf("ReposByVisibility(true) = %q, want [public]", ids)
	}

	// An update: nil removes the attribute and the index key built from
	// it; a pointer to a zero value sets it.
	upd, err := s.SetRepoVisibility(ctx, SetRepoVisibilityParams{OwnerID: "o", RepoID: "public", Public: nil, Stars: new(int64(0)), Humidity: nil})
	must(t, err)
	if upd.Public != nil || upd.Stars == nil || *upd.Stars != 0 || upd.Humidity != nil {
		t.Errorf("SetRepoVisibility(nil, 0, nil) = %+v", upd)
	}
	if item := rawItem(t, s, raw, "OWNER#o", "REPO#public"); item["GSI1PK"] != nil || item["GSI1SK"] != nil || item["public"] != nil {
		t.Errorf("the update left public or its index key: %v", item)
	}
	res, err = s.ReposByVisibility(ctx, true, Page{})
	must(t, err)
	if len(res.Items) != 0 {
		t.Errorf("ReposByVisibility(true) after public was removed = %q", repoIDs(res.Items))
	}
	upd, err = s.SetRepoVisibility(ctx, SetRepoVisibilityParams{OwnerID: "o", RepoID: "absent", Public: new(false), Stars: nil, Humidity: new(-0.5)})
	must(t, err)
	if upd.Public == nil || *upd.Public || upd.Humidity == nil || *upd.Humidity != -0.5 {
		t.Errorf("SetRepoVisibility(false, nil, -0.5) = %+v", upd)
	}
	res, err = s.ReposByVisibility(ctx, false, Page{})
	must(t, err)
	if ids := repoIDs(res.Items); len(ids) != 2 {
		t.Errorf("ReposByVisibility(false) after the update = %q, want absent and zero", ids)
	}
}

// TestNullAndDefaults: a stored NULL reads as an absent optional value,
// and an item written before an attribute with a default existed reads
// the default (a NULL too).
func TestNullAndDefaults(t *testing.T) {
	t.Parallel()
	s, raw := newStore(t, nil)
	ctx := t.Context()
	null := &types.AttributeValueMemberNULL{Value: true}
	_, err := raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.mainTable, Item: map[string]types.AttributeValue{
		"PK":      &types.AttributeValueMemberS{Value: "OWNER#o"},
		"SK":      &types.AttributeValueMemberS{Value: "REPO#old"},
		"_type":   &types.AttributeValueMemberS{Value: "Repo"},
		"ownerId": &types.AttributeValueMemberS{Value: "o"},
		"repoId":  &types.AttributeValueMemberS{Value: "old"},
		"public":  null,
		"stars":   null,
		"topic":   null,
		"level":   null,
		"rank":    null,
	}})
	must(t, err)
	got, err := s.GetRepo(ctx, RepoKey{OwnerID: "o", RepoID: "old"})
	must(t, err)
	if got.Public != nil || got.Stars != nil || got.Topic != nil || got.Level != nil {
		t.Errorf("NULL read as a value: %+v", got)
	}
	want := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if got.License != "none" || got.Rank != 3 || got.Kind != RepoKindCode || !got.Since.Equal(want) {
		t.Errorf("defaults read as license %q, rank %d, kind %q, since %s", got.License, got.Rank, got.Kind, got.Since)
	}
	// A stored value wins over the default, a zero too.
	must(t, s.CreateRepo(ctx, &Repo{OwnerID: "o", RepoID: "new", License: "", Rank: 0, Kind: RepoKindDocs, Since: want.AddDate(1, 0, 0)}))
	got, err = s.GetRepo(ctx, RepoKey{OwnerID: "o", RepoID: "new"})
	must(t, err)
	if got.License != "" || got.Rank != 0 || got.Kind != RepoKindDocs || !got.Since.Equal(want.AddDate(1, 0, 0)) {
		t.Errorf("stored values read as license %q, rank %d, kind %q, since %s", got.License, got.Rank, got.Kind, got.Since)
	}
	// A required attribute with no default stays required.
	_, err = raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.mainTable, Item: map[string]types.AttributeValue{
		"PK":      &types.AttributeValueMemberS{Value: "OWNER#o"},
		"SK":      &types.AttributeValueMemberS{Value: "REPO#noid"},
		"_type":   &types.AttributeValueMemberS{Value: "Repo"},
		"ownerId": &types.AttributeValueMemberS{Value: "o"},
	}})
	must(t, err)
	if _, err := s.GetRepo(ctx, RepoKey{OwnerID: "o", RepoID: "noid"}); !errors.Is(err, ErrInvalidItem) {
		t.Errorf("GetRepo of an item without repoId: %v, want ErrInvalidItem", err)
	}
}

// TestZeroTimeToLive: a time to live set to the zero time is refused
// before any call (stored, it would be epoch second -62135596800 and the
// item would never expire), by a put and by an update.
func TestZeroTimeToLive(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	w := newWidget("o", "ttl")
	w.ExpiresAt = new(time.Time{})
	var ie *ItemError
	if err := s.CreateWidget(ctx, w); !errors.As(err, &ie) || ie.Attr != "expiresAt" {
		t.Errorf("CreateWidget with a zero time to live: %v, want an ItemError on expiresAt", err)
	}
	if _, err := s.GetWidget(ctx, WidgetKey{OwnerID: "o", WidgetID: "ttl"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("the refused widget was written: %v", err)
	}
	w.ExpiresAt = nil
	must(t, s.CreateWidget(ctx, w))
	p := editWidgetParams(w)
	p.ExpiresAt = new(time.Time{})
	if _, err := s.EditWidget(ctx, p); !errors.As(err, &ie) || ie.Attr != "expiresAt" {
		t.Errorf("EditWidget with a zero time to live: %v, want an ItemError on expiresAt", err)
	}
}

// editWidgetParams are EditWidget's inputs that change nothing of w but
// its version's condition.
func editWidgetParams(w *Widget) EditWidgetParams {
	return EditWidgetParams{
		OwnerID: w.OwnerID, WidgetID: w.WidgetID, Name: w.Name, Price: w.Price, Tags: w.Tags,
		Attrs: w.Attrs, Extra: w.Extra, ExpiresAt: w.ExpiresAt, Count: 0, Labels: []string{"x"}, Sizes: []int64{1},
		Version: w.Version,
	}
}

// avEqual compares two scalar attribute values.
func avEqual(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberBOOL:
		b, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && a.Value == b.Value
	}
	return false
}

// TestOptionalEmptyStringInKey: a present empty optional string is a value
// in a key too, as DynamoDB allows: "TOPIC#{topic}" holds literal text, so
// its key is "TOPIC#", never empty. It is stored, indexed, queried and
// read back from the key's text as "", apart from the items with no topic
// (in no key) and from those of another topic.
func TestOptionalEmptyStringInKey(t *testing.T) {
	t.Parallel()
	s, raw := newStore(t, nil)
	ctx := t.Context()
	must(t, s.CreateRepo(ctx, &Repo{OwnerID: "e", RepoID: "empty", Topic: new(""), Kind: RepoKindCode}))
	must(t, s.CreateRepo(ctx, &Repo{OwnerID: "e", RepoID: "none", Kind: RepoKindCode}))
	must(t, s.CreateRepo(ctx, &Repo{OwnerID: "e", RepoID: "go", Topic: new("go"), Kind: RepoKindCode}))

	item := rawItem(t, s, raw, "OWNER#e", "REPO#empty")
	for name, want := range map[string]types.AttributeValue{
		"topic":  &types.AttributeValueMemberS{Value: ""},
		"GSI2PK": &types.AttributeValueMemberS{Value: "TOPIC#"},
		"GSI2SK": &types.AttributeValueMemberS{Value: "REPO#e#empty"},
	} {
		if got := item[name]; !avEqual(got, want) {
			t.Errorf("stored %s = %#v, want %#v", name, got, want)
		}
	}
	if v, ok := rawItem(t, s, raw, "OWNER#e", "REPO#none")["GSI2PK"]; ok {
		t.Errorf("a repository with no topic has a ByKeys key: %#v", v)
	}
	got, err := s.GetRepo(ctx, RepoKey{OwnerID: "e", RepoID: "empty"})
	must(t, err)
	if got.Topic == nil || *got.Topic != "" {
		t.Errorf("GetRepo's topic = %v, want a pointer to \"\"", got.Topic)
	}

	byTopic := func(topic string) []ReposByTopicItem {
		t.Helper()
		res, err := s.ReposByTopic(ctx, topic, Page{})
		must(t, err)
		return res.Items
	}
	// Read back from the keys: the empty topic is a pointer to "".
	if items := byTopic(""); len(items) != 1 || items[0].RepoID != "empty" || items[0].Topic == nil || *items[0].Topic != "" {
		t.Errorf("ReposByTopic(\"\") = %+v, want the repository empty, topic \"\"", items)
	}
	if items := byTopic("go"); len(items) != 1 || items[0].RepoID != "go" {
		t.Errorf("ReposByTopic(go) = %+v, want go", items)
	}

	// An update moves an item to and from the empty topic, and nil takes
	// it out of the index.
	upd, err := s.SetRepoTopic(ctx, SetRepoTopicParams{OwnerID: "e", RepoID: "go", Topic: new("")})
	must(t, err)
	if upd.Topic == nil || *upd.Topic != "" {
		t.Errorf("SetRepoTopic(\"\") = %+v", upd)
	}
	if items := byTopic(""); len(items) != 2 {
		t.Errorf("ReposByTopic(\"\") after the update = %+v, want empty and go", items)
	}
	_, err = s.SetRepoTopic(ctx, SetRepoTopicParams{OwnerID: "e", RepoID: "empty", Topic: nil})
	must(t, err)
	if items := byTopic(""); len(items) != 1 || items[0].RepoID != "go" {
		t.Errorf("ReposByTopic(\"\") after removing a topic = %+v, want go", items)
	}
}
