package format

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dyngen/dyngen/internal/model"
)

// TestJSONEscapesEveryBidiControl: each character that reorders text,
// U+061C among them (the one outside U+2000 to U+2FFF, which a quick scan
// for the byte E2 would miss), is written as an escape that reads back
// as the string given; text without any is written as it is.
func TestJSONEscapesEveryBidiControl(t *testing.T) {
	var controls []rune
	for r := rune(0); r <= 0x2fff; r++ {
		if model.IsBidiControl(r) {
			controls = append(controls, r)
		}
	}
	if len(controls) != 12 {
		t.Fatalf("%d characters that reorder text, want 12", len(controls))
	}
	for _, r := range controls {
		in := "a" + string(r) + "b→c"
		data, err := JSON(map[string]string{"k": in})
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsRune(string(data), r) {
			t.Errorf("U+%04X written as it is: %s", r, data)
		}
		var back map[string]string
		if err := json.Unmarshal(data, &back); err != nil || back["k"] != in {
			t.Errorf("U+%04X reads back as %q, %v", r, back["k"], err)
		}
	}
	data, err := JSON(map[string]string{"k": "a→b"})
	if err != nil || !strings.Contains(string(data), "a→b") {
		t.Errorf("text without a control: %s, %v", data, err)
	}
}
