package harness

import "embed"

// Source holds the harness's own source files, which the checker copies
// into every temporary module it builds.
//
//go:embed record.go main.go trace.go answer.go guard/guard.go guard/limits_unix.go guard/limits_other.go
var Source embed.FS
