//go:build !race

package harness

// raceErrors returns -1: this program was built without the race
// detector.
func raceErrors() int { return -1 }
