package harness

import "embed"

// Source holds the harness's own source files, which the checker copies
// into every temporary module it builds. The pattern takes every file, so
// none can be forgotten; go build ignores the tests among them.
//
//go:embed *.go guard/*.go
var Source embed.FS
