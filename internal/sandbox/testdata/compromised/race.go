//go:build race

package main

// Built with the race detector, the fixture is linked with the C library
// as a learner's race-enabled program is, and imports the same guard,
// which sets the C library up for the seccomp filter.
import _ "github.com/kurs-course/kurs/internal/harness/guard"
