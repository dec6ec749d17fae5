// Package atomicfile writes files atomically: through a temporary file in
// the same folder and a rename, so that a reader, in this process or
// another, sees the old file or the new one, never a part. Every file kurs
// writes whole — the learner's files, the progress, the build cache's
// records — is written here.
package atomicfile

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// WriteFile writes data to the file name atomically, creating its folder
// if needed. A new file gets perm less the umask, as with os.WriteFile; a
// file that is replaced gets perm too.
func WriteFile(name string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return WriteIn(root, filepath.Base(name), data, perm)
}

// WriteIn writes data to the file name (relative to root, OS-separated)
// atomically, creating its folder inside root if needed. The temporary
// file and the rename stay inside root (see os.Root), whatever symbolic
// links the folder holds. The data is flushed to the disk before the
// rename: after a crash the file is the old one or the new one.
func WriteIn(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	if err := root.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	// A hidden name, so that the go command and kurs's own listings of
	// sources skip a temporary file that a crash leaves behind.
	tmp := filepath.Join(filepath.Dir(name), fmt.Sprintf(".%s.%016x.tmp", filepath.Base(name), rand.Uint64()))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer root.Remove(tmp) // after a successful rename, a no-op
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return root.Rename(tmp, name)
}
