package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
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
	mine, err := sourcesIfAny(dir)
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
		if backup, err = w.Backup(inFolder(ex.ID, mine)...); err != nil {
			return "", fmt.Errorf("reset %s: back up your files: %w", ex.ID, err)
		}
	}
	root, err := w.root()
	if err != nil {
		return backup, fmt.Errorf("reset %s: %w", ex.ID, err)
	}
	defer root.Close()
	for _, f := range skeleton {
		if err := writeIn(root, path.Join(ex.ID, f.Name), f.Data); err != nil {
			return backup, fmt.Errorf("reset %s: %w", ex.ID, err)
		}
	}
	for _, name := range mine {
		if !slices.Contains(names, name) {
			if err := root.Remove(filepath.Join(ex.ID, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return backup, fmt.Errorf("reset %s: %w", ex.ID, err)
			}
		}
	}
	if err := w.forgetCheck(ex.ID); err != nil {
		return backup, fmt.Errorf("reset %s: %w", ex.ID, err)
	}
	return backup, nil
}

// Untouched reports whether the exercise's source files are exactly its
// skeleton in one of the course's languages: the learner has not begun it.
func (w *Workspace) Untouched(ex *course.Exercise) (bool, error) {
	dir := w.ExerciseDir(ex.ID)
	mine, err := sourcesIfAny(dir)
	if err != nil {
		return false, err
	}
	for _, l := range course.Languages {
		sk, err := ex.Skeleton(l)
		if err != nil {
			continue
		}
		if same, err := holds(dir, mine, sk); err != nil {
			return false, err
		} else if same {
			return true, nil
		}
	}
	return false, nil
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
	return w.updateProgress(func(p *Progress) (bool, error) {
		ep, ok := p.Exercises[id]
		if !ok || ep.Status == "" {
			return false, nil
		}
		ep.Status, ep.Score, ep.Checked = "", 0, time.Time{}
		return true, nil
	})
}

// Restore brings back the files of exercise ex kept in the backup named
// name (see Backups), byte for byte, and returns the backup that keeps the
// files it replaced, "" when there was nothing of the learner's to keep.
// Source files that are not in the backup stay, unless they are a
// skeleton's file unchanged. Like Reset, Restore forgets the exercise's
// last check and keeps that it passed.
func (w *Workspace) Restore(ex *course.Exercise, name string) (backup string, err error) {
	var saved *Saved
	all, err := w.Backups(ex.ID)
	if err != nil {
		return "", fmt.Errorf("restore %s: %w", ex.ID, err)
	}
	for i := range all {
		if all[i].Name == name {
			saved = &all[i]
		}
	}
	if saved == nil {
		return "", fmt.Errorf("restore %s: %w: no backup %s", ex.ID, fs.ErrNotExist, name)
	}
	root, err := w.root()
	if err != nil {
		return "", fmt.Errorf("restore %s: %w", ex.ID, err)
	}
	defer root.Close()
	data := make([][]byte, len(saved.Files))
	for i, f := range saved.Files {
		if data[i], err = readIn(root, path.Join(backupDir, saved.Name, ex.ID, f), MaxBackupFile); err != nil {
			return "", fmt.Errorf("restore %s: %w", ex.ID, err)
		}
	}
	dir := w.ExerciseDir(ex.ID)
	mine, err := sourcesIfAny(dir)
	if err != nil {
		return "", fmt.Errorf("restore %s: %w", ex.ID, err)
	}
	// What is there now is kept first, unless it is the backup itself or
	// kurs's skeleton.
	var skeletons [][]course.File
	for _, l := range course.Languages {
		if sk, err := ex.Skeleton(l); err == nil {
			skeletons = append(skeletons, sk)
		}
	}
	same := func(files []course.File) bool { ok, err := holds(dir, mine, files); return err == nil && ok }
	current := make([]course.File, len(saved.Files))
	for i, f := range saved.Files {
		current[i] = course.File{Name: f, Data: data[i]}
	}
	keep := len(mine) > 0 && !same(current)
	for _, sk := range skeletons {
		keep = keep && !same(sk)
	}
	if keep {
		if backup, err = w.Backup(inFolder(ex.ID, mine)...); err != nil {
			return "", fmt.Errorf("restore %s: back up your files: %w", ex.ID, err)
		}
	}
	for i, f := range saved.Files {
		if err := writeIn(root, path.Join(ex.ID, f), data[i]); err != nil {
			return backup, fmt.Errorf("restore %s: %w", ex.ID, err)
		}
	}
	// A skeleton's file the backup does not have would clash with the
	// learner's files (a second New, say): it goes, as it is kurs's.
	for _, n := range mine {
		if slices.Contains(saved.Files, n) || !skeletonFile(dir, n, skeletons) {
			continue
		}
		if err := root.Remove(filepath.Join(ex.ID, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return backup, fmt.Errorf("restore %s: %w", ex.ID, err)
		}
	}
	if err := w.forgetCheck(ex.ID); err != nil {
		return backup, fmt.Errorf("restore %s: %w", ex.ID, err)
	}
	return backup, nil
}

// skeletonFile reports whether the file name in dir is, byte for byte,
// the file of that name in one of the skeletons.
func skeletonFile(dir, name string, skeletons [][]course.File) bool {
	for _, sk := range skeletons {
		for _, f := range sk {
			if f.Name == name {
				if ok, err := holds(dir, []string{name}, []course.File{f}); err == nil && ok {
					return true
				}
			}
		}
	}
	return false
}
