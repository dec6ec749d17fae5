package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFilesStayInside: the page reads and writes the learner's files here;
// a name or a symbolic link that leads out of the workspace is refused,
// and nothing outside is read or written.
func TestFilesStayInside(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.go")
	put(t, secret, "package secret\n")
	rel := ex.ID + "/" + ex.ID + ".go"

	// An ordinary save keeps a backup of what it replaces.
	old, err := w.ReadFile(rel)
	require.NoError(t, err)
	backup, err := w.WriteFiles([]string{rel}, [][]byte{[]byte("package circuitbreaker // mine\n")})
	require.NoError(t, err)
	assert.Equal(t, string(old), read(t, filepath.Join(backup, filepath.FromSlash(rel))))
	assert.Equal(t, "package circuitbreaker // mine\n", read(t, filepath.Join(w.Dir, filepath.FromSlash(rel))))

	require.NoError(t, os.Symlink(secret, filepath.Join(w.ExerciseDir(ex.ID), "link.go")))
	require.NoError(t, os.Symlink(outside, filepath.Join(w.ExerciseDir(ex.ID), "out")))
	for _, bad := range []string{"../x.go", "/etc/passwd", ex.ID + "/link.go", ex.ID + "/out/secret.go", ex.ID + "/out/new.go"} {
		_, err := w.ReadFile(bad)
		var oe *OutsideError
		assert.True(t, errors.As(err, &oe), "read %s: %v", bad, err)
		_, err = w.WriteFiles([]string{bad}, [][]byte{[]byte("pwned")})
		assert.True(t, errors.As(err, &oe), "write %s: %v", bad, err)
	}
	assert.Equal(t, "package secret\n", read(t, secret))
	assert.NoFileExists(t, filepath.Join(outside, "new.go"))
}

// TestSavesKeepEachVersion: every save keeps the version it replaced, and
// a backup stays as it was whatever happens to the file afterwards: an
// editor that writes in place, or another save.
func TestSavesKeepEachVersion(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	rel := ex.ID + "/" + ex.ID + ".go"
	file := filepath.Join(w.Dir, filepath.FromSlash(rel))
	first, err := w.ReadFile(rel)
	require.NoError(t, err)
	versions := []string{string(first)}
	var backups []string
	for i := range 3 {
		v := fmt.Sprintf("package circuitbreaker // version %d\n", i)
		backup, err := w.WriteFiles([]string{rel}, [][]byte{[]byte(v)})
		require.NoError(t, err)
		backups = append(backups, filepath.Join(backup, filepath.FromSlash(rel)))
		versions = append(versions, v)
	}
	// An editor that writes the file in place (nano does) changes the
	// file, not a backup.
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_TRUNC, 0)
	require.NoError(t, err)
	_, err = f.WriteString("package circuitbreaker // in place\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	for i, b := range backups {
		assert.Equal(t, versions[i], read(t, b), "backup %d", i)
	}

	// A file that is a symbolic link (which WriteFiles refuses, but a
	// backup may meet) is kept as its text.
	other := ex.ID + "/other.go"
	put(t, filepath.Join(w.Dir, filepath.FromSlash(other)), "package circuitbreaker // other\n")
	alias := ex.ID + "/alias.go"
	require.NoError(t, os.Symlink("other.go", filepath.Join(w.Dir, filepath.FromSlash(alias))))
	backup, err := w.backup([]string{alias}, true)
	require.NoError(t, err)
	kept := filepath.Join(backup, filepath.FromSlash(alias))
	fi, err := os.Lstat(kept)
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular(), "a copy, not the link")
	assert.Equal(t, "package circuitbreaker // other\n", read(t, kept))
}

// TestSavesKeepTheMode: a learner who made a file private keeps it
// private through a save, its backup (linked or copied), a restore and a
// reset.
func TestSavesKeepTheMode(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	rel := ex.ID + "/" + ex.ID + ".go"
	file := filepath.Join(w.Dir, filepath.FromSlash(rel))
	require.NoError(t, os.Chmod(file, 0o600))
	mode := func(name string) os.FileMode {
		t.Helper()
		fi, err := os.Stat(name)
		require.NoError(t, err)
		return fi.Mode().Perm()
	}

	backup, err := w.WriteFiles([]string{rel}, [][]byte{[]byte("package circuitbreaker // saved\n")})
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), mode(file), "the saved file")
	assert.Equal(t, os.FileMode(0o600), mode(filepath.Join(backup, filepath.FromSlash(rel))), "its backup")

	copied, err := w.Backup(rel)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), mode(filepath.Join(copied, filepath.FromSlash(rel))), "a copied backup")

	saved, err := w.Backups(ex.ID)
	require.NoError(t, err)
	require.NotEmpty(t, saved)
	_, err = w.Restore(ex, saved[len(saved)-1].Name)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), mode(file), "restored")
	_, err = w.Reset(ex, "en")
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), mode(file), "reset")
}
