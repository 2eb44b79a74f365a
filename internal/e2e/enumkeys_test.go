package e2e

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// The collision check counts only an enum's values: Theme's sort key
// THEME#{style} (light, dark) and AdminTheme's THEME#ADMIN never collide.
// A style outside the values would make AdminTheme's key; every key a
// Theme method builds refuses it.

// noCalls is a Client that fails the test on any call.
type noCalls struct{ t *testing.T }

func (c noCalls) fail(method string) error {
	c.t.Errorf("%s was called", method)
	return errors.New("no call expected")
}

func (c noCalls) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, c.fail("GetItem")
}

func (c noCalls) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, c.fail("Query")
}

func (c noCalls) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, c.fail("PutItem")
}

func (c noCalls) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, c.fail("UpdateItem")
}

func (c noCalls) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, c.fail("DeleteItem")
}

func (c noCalls) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, c.fail("BatchGetItem")
}

func (c noCalls) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return nil, c.fail("BatchWriteItem")
}

// themeCalls calls every Theme method with style in its key, or as the
// beginsWith operand of ThemesLike, and returns each one's error.
func themeCalls(ctx context.Context, s *Store, style ThemeStyle) map[string]error {
	theme := &Theme{OwnerID: "o", Style: style, Color: "red"}
	errs := map[string]error{}
	_, errs["GetTheme"] = s.GetTheme(ctx, ThemeKey{OwnerID: "o", Style: style})
	errs["CreateTheme"] = s.CreateTheme(ctx, theme)
	errs["PutTheme"] = s.PutTheme(ctx, theme)
	_, errs["ThemesLike"] = s.ThemesLike(ctx, ThemesLikeParams{OwnerID: "o", Style: style}, Page{})
	_, errs["ThemesFrom"] = s.ThemesFrom(ctx, ThemesFromParams{OwnerID: "o", Style: style}, Page{})
	_, errs["RecolorTheme"] = s.RecolorTheme(ctx, RecolorThemeParams{OwnerID: "o", Style: style, Color: "blue"})
	errs["DeleteTheme"] = s.DeleteTheme(ctx, ThemeKey{OwnerID: "o", Style: style})
	_, errs["GetThemes"] = s.GetThemes(ctx, []ThemeKey{{"o", ThemeStyleDark}, {"o", style}})
	errs["PutThemes"] = s.PutThemes(ctx, []Theme{{OwnerID: "o", Style: ThemeStyleDark, Color: "x"}, *theme})
	errs["DeleteThemes"] = s.DeleteThemes(ctx, []ThemeKey{{"o", ThemeStyleLight}, {"o", style}})
	_, errs["MarshalItem"] = theme.MarshalItem()
	return errs
}

// TestEnumKeysBeforeAnyCall checks that every Theme method refuses a style
// outside light and dark with a KeyError before any call.
func TestEnumKeysBeforeAnyCall(t *testing.T) {
	s := newChecked(t, noCalls{t})
	for _, style := range []ThemeStyle{"ADMIN", "Light", "light ", "x"} {
		for method, err := range themeCalls(t.Context(), s, style) {
			var ke *KeyError
			if !errors.Is(err, ErrInvalidKey) || !errors.As(err, &ke) || ke.Attr != "style" {
				t.Errorf("%s with style %q: %v, want a KeyError on style", method, style, err)
			}
		}
	}
	// A beginsWith operand may be empty or start a value; otherwise it
	// could only read other entities' items.
	for _, prefix := range []ThemeStyle{"AD", "L", "lights", "dark#"} {
		_, err := s.ThemesLike(t.Context(), ThemesLikeParams{OwnerID: "o", Style: prefix}, Page{})
		if !errors.Is(err, ErrInvalidKey) {
			t.Errorf("ThemesLike with prefix %q: %v, want ErrInvalidKey", prefix, err)
		}
	}
}

// TestEnumKeys checks against DynamoDB that a Theme method given the style
// ADMIN, whose key would be AdminTheme's, neither reads nor changes the
// AdminTheme item, while the styles of the enum work.
func TestEnumKeys(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t, nil)
	ctx := t.Context()
	admin := &AdminTheme{OwnerID: "o", Style: "ADMIN", Color: "gold"}
	must(t, s.CreateAdminTheme(ctx, admin))
	must(t, s.CreateTheme(ctx, &Theme{OwnerID: "o", Style: ThemeStyleDark, Color: "black"}))

	for method, err := range themeCalls(ctx, s, "ADMIN") {
		if !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s with style ADMIN: %v, want ErrInvalidKey", method, err)
		}
	}
	for _, prefix := range []ThemeStyle{"A", "AD", "ADMIN"} {
		if res, err := s.ThemesLike(ctx, ThemesLikeParams{OwnerID: "o", Style: prefix}, Page{}); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("ThemesLike with prefix %q: %v, %v; want ErrInvalidKey", prefix, res, err)
		}
	}
	got, err := s.GetAdminTheme(ctx, "o")
	if err != nil || *got != *admin {
		t.Errorf("the AdminTheme after the Theme calls: %+v, %v; want %+v", got, err, admin)
	}

	// The values, and the prefixes of values, work.
	for _, prefix := range []ThemeStyle{"", "d", "dark"} {
		res, err := s.ThemesLike(ctx, ThemesLikeParams{OwnerID: "o", Style: prefix}, Page{})
		must(t, err)
		if len(res.Items) != 1 || res.Items[0].Style != ThemeStyleDark {
			t.Errorf("ThemesLike with prefix %q: %+v, want the dark theme", prefix, res.Items)
		}
	}
	res, err := s.ThemesLike(ctx, ThemesLikeParams{OwnerID: "o", Style: "l"}, Page{})
	must(t, err)
	if len(res.Items) != 0 {
		t.Errorf("ThemesLike with prefix \"l\": %+v, want none", res.Items)
	}
	theme, err := s.GetTheme(ctx, ThemeKey{OwnerID: "o", Style: ThemeStyleDark})
	must(t, err)
	if theme.Color != "black" {
		t.Errorf("GetTheme dark: %+v", theme)
	}
	must(t, s.DeleteTheme(ctx, ThemeKey{OwnerID: "o", Style: ThemeStyleDark}))
	if _, err := s.GetTheme(ctx, ThemeKey{OwnerID: "o", Style: ThemeStyleDark}); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetTheme after DeleteTheme: %v, want ErrNotFound", err)
	}
}

func (c noCalls) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return nil, c.fail("TransactWriteItems")
}

func (c noCalls) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return nil, c.fail("TransactGetItems")
}
