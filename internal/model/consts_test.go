package model

import "testing"

// TestStoredConst checks how a constant of the spec is sent: as the item
// stores the attribute's values.
func TestStoredConst(t *testing.T) {
	for _, tt := range []struct {
		a            *Attribute
		op           CondOp
		text         string
		dynamo, want string
	}{
		{&Attribute{Type: Int}, OpEq, "0x10", "N", "16"},
		{&Attribute{Type: Int}, OpEq, "1_000", "N", "1000"},
		{&Attribute{Type: Float}, OpEq, "1.5e3", "N", "1500"},
		{&Attribute{Type: Float}, OpEq, ".5", "N", "0.5"},
		{&Attribute{Type: Bool}, OpEq, "true", "BOOL", "true"},
		{&Attribute{Type: String}, OpEq, "*/ \"x\"\n", "S", "*/ \"x\"\n"},
		{&Attribute{Type: Enum, Values: []string{"open"}}, OpEq, "open", "S", "open"},
		{&Attribute{Type: Path, Separator: '/'}, OpEq, "a/b", "S", "a/b"},
		{&Attribute{Type: Time}, OpEq, "2024-06-07T08:09:10.5+02:00", "S", "2024-06-07T06:09:10.500000000Z"},
		{&Attribute{Type: Time, Format: Date}, OpEq, "2024-06-07", "S", "2024-06-07"},
		{&Attribute{Type: Time, Format: Unix}, OpEq, "2024-01-02T03:04:05Z", "N", "1704164645"},
		{&Attribute{Type: Time, Format: Unix}, OpEq, "0x10", "N", "16"},
		{&Attribute{Type: Time, Format: UnixMilli}, OpEq, "2024-01-02T03:04:05.006Z", "N", "1704164645006"},
		{&Attribute{Type: Time, TTL: true}, OpEq, "2024-01-02T03:04:05Z", "N", "1704164645"},
		{&Attribute{Type: IntSet}, OpContains, "0x7", "N", "7"},
		{&Attribute{Type: StringSet}, OpContains, "7", "S", "7"},
	} {
		dynamo, got := StoredConst(tt.a, tt.op, tt.text)
		if dynamo != tt.dynamo || got != tt.want {
			t.Errorf("StoredConst(%s, %s, %q) = %s %q, want %s %q", tt.a.Describe(), tt.op, tt.text, dynamo, got, tt.dynamo, tt.want)
		}
	}
}
