package main

import (
	"io"
	"path/filepath"

	"github.com/dyngen/dyngen/internal/model"
)

// committedOutputs returns what generator.GenerateOver reads the outputs
// of an earlier generation in dir with: the bytes of the output file
// name, when it is a plain file name and dir holds a regular file of
// that name (not a link), nil otherwise.
func committedOutputs(dir string) func(name string) []byte {
	return func(name string) []byte {
		if !model.IsOutputFileName(name) {
			return nil
		}
		// Opened as the writer opens files: a link is not followed, a
		// named pipe does not block, and the type is checked on the
		// file opened, not on the name before.
		f, size, err := openRegular(filepath.Join(dir, name))
		if err != nil {
			return nil
		}
		defer f.Close()
		if size > maxLock {
			return nil
		}
		data, err := io.ReadAll(io.LimitReader(f, size))
		if err != nil {
			return nil
		}
		return data
	}
}
