package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/atomicfile"
)

// backupDir is where backups live, relative to the workspace.
const backupDir = ".kurs/backup"

// stampLayout names a backup's folder by the time it was made, in UTC:
// names sort as the times do.
const stampLayout = "20060102T150405.000000000Z"

// Backup copies the named files (relative to the workspace, slash- or
// OS-separated) into a new folder .kurs/backup/TIME/ that mirrors their
// paths, and returns that folder. Files that do not exist are skipped; a
// file over MaxBackupFile is an error, which leaves it where it is.
// Nothing is removed: callers that replace a file do so after Backup
// returns without error. Every file is read and written inside the
// workspace (see os.Root).
func (w *Workspace) Backup(rel ...string) (string, error) {
	return w.backup(rel, false)
}

// backup is Backup; with link, it keeps each file by a second name (a hard
// link) where the file system allows, rather than a copy: nothing is read
// or written, so a save from the page waits for no copy. Only for files
// that the caller replaces by a rename next (see writeIn): a file written
// in place would change its backup too.
func (w *Workspace) backup(rel []string, link bool) (string, error) {
	root, err := w.root()
	if err != nil {
		return "", err
	}
	defer root.Close()
	stamp := time.Now().UTC().Format(stampLayout)
	dir := path.Join(backupDir, stamp)
	for _, r := range rel {
		r = filepath.ToSlash(r)
		to := path.Join(dir, r)
		if link {
			done, err := linkIn(root, r, to)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", err
			}
			if done {
				continue
			}
		}
		data, err := readIn(root, r, MaxBackupFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if errors.Is(err, ErrTooLarge) {
			return "", fmt.Errorf("%s is larger than %d MiB, too large to copy: move it out of the folder and try again", r, MaxBackupFile>>20)
		}
		if err != nil {
			return "", err
		}
		// A copy as private as the file.
		if err := atomicfile.WriteIn(root, filepath.FromSlash(to), data, modeIn(root, r)); err != nil {
			return "", err
		}
	}
	return filepath.Join(w.Dir, filepath.FromSlash(dir)), nil
}

// linkIn gives the regular file from (slash-separated, inside root) the
// second name to, and reports whether it did. A file that is not a
// regular one (a symbolic link), or a file system without hard links, is
// left to a copy.
func linkIn(root *os.Root, from, to string) (bool, error) {
	fi, err := root.Lstat(filepath.FromSlash(from))
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > MaxBackupFile {
		return false, nil
	}
	if err := root.MkdirAll(filepath.FromSlash(path.Dir(to)), 0o755); err != nil {
		return false, err
	}
	return root.Link(filepath.FromSlash(from), filepath.FromSlash(to)) == nil, nil
}

// A Saved is one backup of an exercise's files: what reset, restore or a
// save in the web page kept of them.
type Saved struct {
	// Name is the backup's folder under .kurs/backup, the time it was
	// made (UTC), e.g. 20250102T150405.123456789Z.
	Name string
	Time time.Time
	// Files are the exercise's files in it, by name, sorted.
	Files []string
}

// Dir returns the folder of the exercise's files in the backup.
func (s Saved) dir(w *Workspace, id string) string {
	return filepath.Join(w.Dir, filepath.FromSlash(backupDir), s.Name, id)
}

// Backups returns the backups that hold source files of exercise id,
// newest first.
func (w *Workspace) Backups(id string) ([]Saved, error) {
	entries, err := os.ReadDir(filepath.Join(w.Dir, filepath.FromSlash(backupDir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Saved
	for _, d := range entries {
		t, err := time.Parse(stampLayout, d.Name())
		if !d.IsDir() || err != nil {
			continue
		}
		s := Saved{Name: d.Name(), Time: t}
		files, err := Sources(s.dir(w, id))
		if err != nil || len(files) == 0 {
			continue
		}
		s.Files = files
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Saved) int { return strings.Compare(b.Name, a.Name) })
	return out, nil
}
