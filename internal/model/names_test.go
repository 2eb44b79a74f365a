package model

import "testing"

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"customerId":           "CustomerID",
		"game-player-profiles": "GamePlayerProfiles",
		"_type":                "Type",
		"first_name":           "FirstName",
		"GSI1PK":               "GSI1PK",
		"HTTPServer":           "HTTPServer",
		"isbn":                 "ISBN",
		"orderURL":             "OrderURL",
		"ttl":                  "TTL",
		"book":                 "Book",
		"v2Thing":              "V2Thing",
		"1st":                  "",
		"---":                  "",
		"état":                 "État",
	} {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParamName(t *testing.T) {
	for in, want := range map[string]string{
		"CustomerID": "customerID",
		"ID":         "id",
		"URLPath":    "urlPath",
		"Type":       "type_",
		"Range":      "range_",
		"GSI1PK":     "gsi1PK",
		"ISBN":       "isbn",
	} {
		if got := ParamName(in); got != want {
			t.Errorf("ParamName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrefixedGoName(t *testing.T) {
	for in, want := range map[string]string{
		"orders":       "Orders",
		"game-players": "GamePlayers",
		"2shop":        "T2Shop",
		"1byDate":      "T1ByDate",
		"123":          "T123",
		"2024-orders":  "T2024Orders",
		"_2shop":       "T2Shop",
		"9-5x":         "T95x",
		"---":          "",
		"...":          "",
		"v2":           "V2",
	} {
		if got := PrefixedGoName("T", in); got != want {
			t.Errorf("PrefixedGoName(T, %q) = %q, want %q", in, got, want)
		}
	}
}
