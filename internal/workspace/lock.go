package workspace

import (
	"os"
	"path/filepath"
)

// lockFile holds the operating system's lock on the state in .kurs/. It
// stays empty; only its lock matters.
const lockFile = ".kurs/lock"

// lockState waits for the lock on the workspace's state in .kurs/ and
// returns the function that releases it. Every read-change-write of that
// state holds it: kurs serve and kurs watch on one workspace, or a check
// in the page while kurs watch records another, then never undo each
// other's changes. The lock belongs to the open file, not to the process,
// so it also orders the goroutines of one process.
func (w *Workspace) lockState() (unlock func(), err error) {
	name := filepath.Join(w.Dir, filepath.FromSlash(lockFile))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	unlock, err = lockExclusive(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return unlock, nil
}
