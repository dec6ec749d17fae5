//go:build !(linux || darwin || freebsd)

package guard

import "os"

// openResults opens the file that the checker names in KURS_RESULTS, since
// passing extra descriptors is not portable here.
func openResults() *os.File {
	name := os.Getenv("KURS_RESULTS")
	os.Unsetenv("KURS_RESULTS")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil
	}
	return f
}

// setMemoryLimit relies on the Go runtime's soft limit alone here.
func setMemoryLimit(int64) {}

// setCPULimit relies on the checker's wall-clock limit alone here.
func setCPULimit(uint64) {}
