package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// versionText is what `dyngen -version` prints: the module's path and
// version, and the version control revision, time and modified flag and
// the Go version the binary was built with, when the build recorded
// them.
func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dyngen: no build information (built without module support)\n"
	}
	return formatVersion(info)
}

// formatVersion writes the build information of a dyngen binary. A
// module version of "(devel)" (or none) means the binary was built from
// a source tree, not from a published version: the revision, when
// recorded, tells which.
func formatVersion(info *debug.BuildInfo) string {
	var b strings.Builder
	path, version := info.Main.Path, info.Main.Version
	if path == "" {
		path = "github.com/dyngen/dyngen"
	}
	if version == "" || version == "(devel)" {
		version = "(devel): built from a source tree"
	}
	fmt.Fprintf(&b, "dyngen %s\n", version)
	fmt.Fprintf(&b, "module %s\n", path)
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		line := "revision " + rev
		if t := settings["vcs.time"]; t != "" {
			line += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			line += ", with uncommitted changes"
		}
		fmt.Fprintln(&b, line)
	}
	if info.GoVersion != "" {
		fmt.Fprintf(&b, "built with %s\n", info.GoVersion)
	}
	return b.String()
}
