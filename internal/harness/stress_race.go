//go:build race

package harness

import "runtime"

// raceErrors returns how many data races the race detector has reported
// in this process so far.
func raceErrors() int { return runtime.RaceErrors() }
