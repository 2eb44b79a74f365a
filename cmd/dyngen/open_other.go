//go:build !unix

package main

// openFlags add nothing where the system has no flags to refuse links and
// not wait on named pipes: the type read from the directory is all the
// check there is.
const openFlags = 0

func isLinkError(error) bool { return false }
