package golang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	dynrt "github.com/dyngen/dyngen/generator/runtime"
)

// TestRuntimeVersion: a package compiles against the runtime of its
// generator's module, and does not against a runtime that serves no
// code of its version, too new for it (its version below MinVersion) or
// too old (above MaxVersion): the compiler names the line of the check.
func TestRuntimeVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("compiling generated code is skipped in -short mode")
	}
	p := planOf(t, "spec.yaml", []byte(`version: 1
package: versioned
tables:
  Notes: {partitionKey: PK}
entities:
  Note:
    attributes: {id: string, text: string}
    keys:
      primary: {pk: "NOTE#{id}"}
patterns:
  GetNote: {get: Note}
`))
	for _, tc := range []struct {
		version int
		ok      bool
	}{
		{dynrt.GenVersion, true},
		{dynrt.MinVersion - 1, false},
		{dynrt.MaxVersion + 1, false},
	} {
		t.Run(strconv.Itoa(tc.version), func(t *testing.T) {
			files, err := packageFor(p, "spec.yaml", tc.version)
			if err != nil {
				t.Fatal(err)
			}
			// Inside the module, so that the runtime is this module's.
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			dir, err := os.MkdirTemp("testdata", "version-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			for _, f := range files {
				if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := exec.Command("go", "build", "./"+filepath.ToSlash(dir)).CombinedOutput()
			switch {
			case tc.ok && err != nil:
				t.Fatalf("the package of version %d does not compile: %v\n%s", tc.version, err, out)
			case !tc.ok && err == nil:
				t.Fatalf("the package of version %d compiles against a runtime that serves %d to %d", tc.version, dynrt.MinVersion, dynrt.MaxVersion)
			case !tc.ok && !strings.Contains(string(out), "EnforceVersion"):
				t.Fatalf("the package of version %d fails, but not at its version check:\n%s", tc.version, out)
			}
		})
	}
}
