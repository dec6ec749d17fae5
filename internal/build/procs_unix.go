//go:build linux || darwin || freebsd

package build

import "strings"

// buildLimited reports whether the go command's output says that a
// compiler or linker ran into the build's memory or file size limit.
func buildLimited(out string) bool {
	return strings.Contains(out, "fatal error: runtime: out of memory") || strings.Contains(out, "fatal error: out of memory") || strings.Contains(out, "signal: killed") ||
		strings.Contains(out, "file too large") || strings.Contains(out, "signal: file size limit exceeded")
}
