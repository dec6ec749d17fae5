//go:build linux || darwin || freebsd

package build

import "strings"

// buildLimited reports whether the go command's output says that a
// compiler or linker ran into the build's memory or file size limit.
func buildLimited(out string) bool {
	if strings.Contains(out, "fatal error: runtime: out of memory") || strings.Contains(out, "fatal error: out of memory") || strings.Contains(out, "signal: killed") ||
		strings.Contains(out, "file too large") || strings.Contains(out, "signal: file size limit exceeded") {
		return true
	}
	// Near the memory limit a tool may also die of a fault in its own
	// runtime instead of reporting the memory it lacked: seen under load,
	// the compiler of a constant that doubles to 16 GiB ended with SIGSEGV
	// at address 0 in the collector. The runtime's report begins a line;
	// the learner's text can only follow a file's position.
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, "SIGSEGV: segmentation violation") || strings.HasPrefix(line, "unexpected fault address") {
			return true
		}
	}
	return false
}
