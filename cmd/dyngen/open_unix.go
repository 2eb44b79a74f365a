//go:build unix

package main

import (
	"errors"
	"syscall"
)

// openFlags open a file without following a link, and a named pipe
// without waiting for a writer.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// isLinkError reports whether opening with openFlags failed because the
// file is a link.
func isLinkError(err error) bool {
	return errors.Is(err, syscall.ELOOP)
}
