//go:build windows

package workspace

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockExclusive waits for an exclusive LockFileEx on f's first byte,
// Windows' counterpart of flock, and returns the function that releases
// it by closing f: the lock belongs to the handle, and goes when it is
// closed or the process ends.
func lockExclusive(f *os.File) (unlock func(), err error) {
	var ol windows.Overlapped
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol); err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
