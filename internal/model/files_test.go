package model

import (
	"os/exec"
	"strings"
	"testing"
)

func TestEntityFile(t *testing.T) {
	for _, tt := range []struct{ goName, want string }{
		{"Book", "book.go"},
		{"GamePlayer", "game_player.go"},
		{"HTTPServer", "http_server.go"},
		{"GameWindows", "game_windows_entity.go"},
		{"ServerLinux", "server_linux_entity.go"},
		{"ChipArm64", "chip_arm64_entity.go"},
		{"PlayerJs", "player_js_entity.go"},
		{"LinuxAmd64", "linux_amd64_entity.go"},
		{"UnitTest", "unit_test_entity.go"},
		{"Windows", "windows.go"},
		{"Store", "store_entity.go"},
		{"StoreApi", "store_api_entity.go"},
		{"StoreAPIItem", "store_api_item.go"},
		{"Patterns", "patterns_entity.go"},
		{"PatternsMain", "patterns_main_entity.go"},
		{"DyngenKeys", "dyngen_keys.go"},
		{"Con", "con_entity.go"},
		{"AUX", "aux_entity.go"},
		{"Com1", "com1_entity.go"},
		{"Lpt9", "lpt9_entity.go"},
		{"Console", "console.go"},
	} {
		if got := (&Entity{GoName: tt.goName}).File(); got != tt.want {
			t.Errorf("%s: file %s, want %s", tt.goName, got, tt.want)
		}
	}
}

// TestKnownPlatforms checks the lists of GOOS and GOARCH values against
// the toolchain's: every platform it builds for is known.
func TestKnownPlatforms(t *testing.T) {
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		t.Fatalf("go tool dist list: %v", err)
	}
	for _, line := range strings.Fields(string(out)) {
		goos, goarch, _ := strings.Cut(line, "/")
		if !knownOS[goos] {
			t.Errorf("GOOS %s is not known", goos)
		}
		if !knownArch[goarch] {
			t.Errorf("GOARCH %s is not known", goarch)
		}
	}
}
