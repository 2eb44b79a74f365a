package runtime

// pkgPrefix starts every error message; the generated package declares it
// with its own name.
const pkgPrefix = "runtime: "
