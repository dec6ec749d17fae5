package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kurs-course/kurs/internal/atomicfile"
)

// OutsideError is the error of a path that leads out of the workspace:
// through "..", an absolute name or a symbolic link to elsewhere, or to
// something that is not a regular file.
type OutsideError struct {
	Rel string // the path as given, relative to the workspace
}

func (e *OutsideError) Error() string { return e.Rel + ": leads outside the workspace" }

// ReadFile reads the learner's file rel (slash-separated, relative to the
// workspace), at most MaxBackupFile bytes. Every front end that shows a
// learner's file reads it here, inside the workspace (see os.Root); a
// path that leads elsewhere is an *OutsideError.
func (w *Workspace) ReadFile(rel string) ([]byte, error) {
	if err := w.Inside(rel); err != nil {
		return nil, err
	}
	root, err := w.root()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, err := readIn(root, rel, MaxBackupFile)
	return data, w.outside(rel, err)
}

// WriteFiles writes the learner's files, data[i] to rels[i] (relative to
// the workspace), after a backup of those that exist (see Backup, here
// by hard links, as each file is replaced by a rename), each atomically
// and inside the workspace. It returns the backup's folder. The files
// are checked before anything is written: a path that leads elsewhere is
// an *OutsideError, and nothing changes.
func (w *Workspace) WriteFiles(rels []string, data [][]byte) (string, error) {
	for _, rel := range rels {
		if err := w.Inside(rel); err != nil {
			return "", err
		}
	}
	root, err := w.root()
	if err != nil {
		return "", err
	}
	defer root.Close()
	// The backup and the new files' writing are independent until a new
	// file replaces an old one: they go side by side, and a save waits for
	// the longer, not for both.
	type made struct {
		dir string
		err error
	}
	backup := make(chan made, 1)
	go func() {
		dir, err := w.backup(rels, true)
		backup <- made{dir, err}
	}()
	pending := make([]*atomicfile.Pending, 0, len(rels))
	defer func() {
		for _, p := range pending {
			p.Discard() // after Commit, nothing
		}
	}()
	var perr error
	for i, rel := range rels {
		p, err := atomicfile.Prepare(root, filepath.FromSlash(rel), data[i], modeIn(root, rel))
		if err != nil {
			perr = w.outside(rel, err)
			break
		}
		pending = append(pending, p)
	}
	b := <-backup
	if b.err != nil {
		return "", b.err
	}
	if perr != nil {
		return b.dir, perr
	}
	for i, p := range pending {
		if err := p.Commit(); err != nil {
			return b.dir, w.outside(rels[i], err)
		}
	}
	return b.dir, nil
}

// Inside returns an *OutsideError unless rel (slash-separated) names a
// place in the workspace: a regular file or a folder that is there, or a
// new name in a folder that is. It is for messages; reads and writes are
// held inside the workspace by os.Root whatever it says.
func (w *Workspace) Inside(rel string) error {
	name := filepath.FromSlash(rel)
	if !filepath.IsLocal(name) {
		return &OutsideError{rel}
	}
	root, err := w.root()
	if err != nil {
		return err
	}
	defer root.Close()
	info, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if dir := filepath.Dir(name); dir != "." {
			return w.Inside(filepath.ToSlash(dir))
		}
		return nil
	case err != nil:
		return w.outside(rel, err)
	case !info.Mode().IsRegular() && !info.IsDir():
		return &OutsideError{rel}
	}
	return nil
}

// outside turns an error of os.Root on rel into an *OutsideError when rel
// leads out of the workspace once symbolic links are followed.
func (w *Workspace) outside(rel string, err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return err
	}
	realRoot, rerr := filepath.EvalSymlinks(w.Dir)
	if rerr != nil {
		return err
	}
	real, rerr := filepath.EvalSymlinks(filepath.Join(w.Dir, filepath.FromSlash(rel)))
	if rerr != nil {
		// A link into nowhere, or a missing name: judge its folder.
		real, rerr = filepath.EvalSymlinks(filepath.Join(w.Dir, filepath.Dir(filepath.FromSlash(rel))))
		if rerr != nil {
			return err
		}
	}
	if r, rerr := filepath.Rel(realRoot, real); rerr != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return &OutsideError{rel}
	}
	if info, serr := os.Lstat(filepath.Join(w.Dir, filepath.FromSlash(rel))); serr == nil && info.Mode()&fs.ModeSymlink != 0 {
		return &OutsideError{rel}
	}
	return err
}
