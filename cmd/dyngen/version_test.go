package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "520bfa0dff92ac47a80f40544744554ab0b9256e"},
		{Key: "vcs.time", Value: "2026-11-23T13:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	for _, tt := range []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"published", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/dyngen/dyngen", Version: "v1.2.3"}},
			"dyngen v1.2.3\nmodule github.com/dyngen/dyngen\nbuilt with go1.26.0\n"},
		{"devel without vcs", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/dyngen/dyngen", Version: "(devel)"}},
			"dyngen (devel): built from a source tree\nmodule github.com/dyngen/dyngen\nbuilt with go1.26.0\n"},
		{"devel with vcs", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/dyngen/dyngen", Version: "(devel)"}, Settings: vcs},
			"dyngen (devel): built from a source tree\nmodule github.com/dyngen/dyngen\nrevision 520bfa0dff92ac47a80f40544744554ab0b9256e (2026-11-23T13:00:00Z), with uncommitted changes\nbuilt with go1.26.0\n"},
		{"stamped from vcs", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/dyngen/dyngen", Version: "v0.0.0-20261123130000-520bfa0dff92"}, Settings: vcs[:3]},
			"dyngen v0.0.0-20261123130000-520bfa0dff92\nmodule github.com/dyngen/dyngen\nrevision 520bfa0dff92ac47a80f40544744554ab0b9256e (2026-11-23T13:00:00Z)\nbuilt with go1.26.0\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatVersion(&tt.info); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestVersionFlag runs -version in the test binary, whose build
// information Go records too.
func TestVersionFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-version"}, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.HasPrefix(out, "dyngen ") || !strings.Contains(out, "\nbuilt with go") {
		t.Errorf("-version printed:\n%s", out)
	}
}
