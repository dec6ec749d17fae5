//go:build !unix && !windows

package workspace

import (
	"os"
	"sync"
)

// stateMu stands in for the operating system's lock where kurs knows
// none (such as wasm): it orders the goroutines of this process only, and
// two kurs processes on one workspace may undo each other's records.
var stateMu sync.Mutex

// lockExclusive takes stateMu and returns the function that releases it
// and closes f.
func lockExclusive(f *os.File) (unlock func(), err error) {
	stateMu.Lock()
	return func() { stateMu.Unlock(); f.Close() }, nil
}
