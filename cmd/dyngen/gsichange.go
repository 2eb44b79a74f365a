package main

import (
	"os"
	"path/filepath"

	"github.com/dyngen/dyngen/internal/model"
)

// maxCommitted is the largest committed output read for the comparison of
// its tables with the spec's (output.TableChanges); a larger file is not
// compared.
const maxCommitted = 16 << 20

// committedOutputs returns what generator.GenerateOver reads the outputs
// of an earlier generation in dir with: the bytes of the output file
// name, when it is a plain file name and dir holds a regular file of
// that name (not a link), nil otherwise.
func committedOutputs(dir string) func(name string) []byte {
	return func(name string) []byte {
		if !model.IsOutputFileName(name) {
			return nil
		}
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCommitted {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		return data
	}
}
