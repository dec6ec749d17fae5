//go:build !(linux || darwin || freebsd)

package build

import "strings"

// buildLimited reports whether the go command's output says that a
// compiler or linker ran out of memory.
func buildLimited(out string) bool {
	return strings.Contains(out, "fatal error: runtime: out of memory") || strings.Contains(out, "fatal error: out of memory")
}
