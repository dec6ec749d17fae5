package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/course"
)

// Reset restores the skeleton of ex, with comments in lang, in the
// exercise's folder, and returns the folder that keeps a backup of the
// learner's files, or "" when there was nothing to keep: the folder held
// the skeleton already (in any language), or no Go files at all.
//
// The backup holds every Go file the checker would read (the regular,
// non-test .go files directly in the folder) and is complete before
// anything is replaced. Those files that are not part of the skeleton are
// then removed, so that a helper file of the learner's cannot break the
// fresh skeleton's build; the learner's tests and other files stay. The
// exercise's last check no longer describes its code, so Reset forgets it;
// that the exercise passed once, and the hints seen, are kept.
func (w *Workspace) Reset(ex *course.Exercise, lang string) (backup string, err error) {
	skeleton, err := ex.Skeleton(lang)
	if err != nil {
		return "", fmt.Errorf("reset %s: %w", ex.ID, err)
	}
	dir := w.ExerciseDir(ex.ID)
	mine, err := sources(dir)
	if err != nil {
		return "", fmt.Errorf("reset %s: %w", ex.ID, err)
	}
	names := make([]string, len(skeleton))
	for i, f := range skeleton {
		names[i] = f.Name
	}
	if same, err := holds(dir, mine, skeleton); err != nil {
		return "", fmt.Errorf("reset %s: %w", ex.ID, err)
	} else if same {
		return "", nil
	}
	// The skeleton in another language is kurs's, not the learner's: it
	// is replaced without a backup.
	keep := len(mine) > 0
	for _, l := range course.Languages {
		other, err := ex.Skeleton(l)
		if err != nil || l == lang {
			continue
		}
		if same, err := holds(dir, mine, other); err == nil && same {
			keep = false
		}
	}

	if keep {
		rel := make([]string, len(mine))
		for i, name := range mine {
			rel[i] = path.Join(ex.ID, name)
		}
		if backup, err = w.Backup(rel...); err != nil {
			return "", fmt.Errorf("reset %s: back up your files: %w", ex.ID, err)
		}
	}
	for _, f := range skeleton {
		if err := WriteFileAtomic(filepath.Join(dir, f.Name), f.Data); err != nil {
			return backup, fmt.Errorf("reset %s: %w", ex.ID, err)
		}
	}
	for _, name := range mine {
		if !slices.Contains(names, name) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return backup, fmt.Errorf("reset %s: %w", ex.ID, err)
			}
		}
	}
	if err := w.forgetCheck(ex.ID); err != nil {
		return backup, fmt.Errorf("reset %s: %w", ex.ID, err)
	}
	return backup, nil
}

// sources returns the names of the files in dir that the checker reads:
// regular .go files, not tests, not hidden. A missing folder has none.
func sources(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range entries {
		n := d.Name()
		if d.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") &&
			!strings.HasPrefix(n, ".") && !strings.HasPrefix(n, "_") {
			names = append(names, n)
		}
	}
	return names, nil
}

// holds reports whether the files mine in dir are exactly the skeleton.
func holds(dir string, mine []string, skeleton []course.File) (bool, error) {
	if len(mine) != len(skeleton) {
		return false, nil
	}
	for _, f := range skeleton {
		if !slices.Contains(mine, f.Name) {
			return false, nil
		}
		data, err := ReadFileMax(filepath.Join(dir, f.Name), int64(len(f.Data)))
		if errors.Is(err, ErrTooLarge) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if !bytes.Equal(data, f.Data) {
			return false, nil
		}
	}
	return true, nil
}

// forgetCheck clears the result of the exercise's last check.
func (w *Workspace) forgetCheck(id string) error {
	p, err := w.Progress()
	if err != nil {
		return err
	}
	ep, ok := p.Exercises[id]
	if !ok || ep.Status == "" {
		return nil
	}
	ep.Status, ep.Score, ep.Checked = "", 0, time.Time{}
	return w.SaveProgress(p)
}
