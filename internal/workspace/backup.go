package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Backup copies the named files (relative to the workspace, slash- or
// OS-separated) into a new folder .kurs/backup/TIME/ that mirrors their
// paths, and returns that folder. Files that do not exist are skipped; a
// file over MaxBackupFile is an error, which leaves it where it is.
// Nothing is removed: callers that replace a file do so after Backup
// returns without error.
func (w *Workspace) Backup(rel ...string) (string, error) {
	stamp := time.Now().UTC().Format("20060102T150405.000000000Z")
	dir := filepath.Join(w.Dir, ".kurs", "backup", stamp)
	for _, r := range rel {
		src := filepath.Join(w.Dir, filepath.FromSlash(r))
		data, err := ReadFileMax(src, MaxBackupFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if errors.Is(err, ErrTooLarge) {
			return "", fmt.Errorf("%s is larger than %d MiB, too large to copy: move it out of the folder and try again", r, MaxBackupFile>>20)
		}
		if err != nil {
			return "", err
		}
		dst := filepath.Join(dir, filepath.FromSlash(r))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}
