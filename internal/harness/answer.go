package harness

import "strings"

// Answer normalizes a quiz answer: surrounding space trimmed, upper case.
func Answer(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
