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
	p, err := Prepare(root, name, data, perm)
	if err != nil {
		return err
	}
	defer p.Discard()
	return p.Commit()
}

// A Pending is a file written in full and flushed to the disk under a
// temporary name beside its own, which Commit gives it: WriteIn in two
// steps, for a caller with other work to do before the file replaces the
// old one (a backup of it).
type Pending struct {
	root      *os.Root
	tmp, name string
	done      bool
}

// Prepare writes data to a temporary file beside the file name (relative
// to root, OS-separated), creating the folder inside root if needed, and
// flushes it to the disk; name itself is not touched yet. The caller
// calls Commit or Discard, while root is open.
func Prepare(root *os.Root, name string, data []byte, perm fs.FileMode) (*Pending, error) {
	if err := root.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	// A hidden name, so that the go command and kurs's own listings of
	// sources skip a temporary file that a crash leaves behind.
	tmp := filepath.Join(filepath.Dir(name), fmt.Sprintf(".%s.%016x.tmp", filepath.Base(name), rand.Uint64()))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, err
	}
	p := &Pending{root: root, tmp: tmp, name: name}
	if _, err := f.Write(data); err != nil {
		f.Close()
		p.Discard()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		p.Discard()
		return nil, err
	}
	if err := f.Close(); err != nil {
		p.Discard()
		return nil, err
	}
	return p, nil
}

// Commit puts the file in place of the file it was prepared for, at once
// for every reader.
func (p *Pending) Commit() error {
	if err := p.root.Rename(p.tmp, p.name); err != nil {
		return err
	}
	p.done = true
	return nil
}

// Discard removes the temporary file of a file not committed.
func (p *Pending) Discard() {
	if !p.done {
		p.root.Remove(p.tmp)
		p.done = true
	}
}
