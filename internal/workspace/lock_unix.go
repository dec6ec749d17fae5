//go:build unix

package workspace

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockExclusive waits for an exclusive flock(2) on f and returns the
// function that releases it by closing f. flock's lock belongs to the
// open file description: two opens of the file, in one process or two,
// exclude each other, and the lock goes with the close, or with the
// process.
func lockExclusive(f *os.File) (unlock func(), err error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, unix.EINTR) {
			return nil, err
		}
	}
}
