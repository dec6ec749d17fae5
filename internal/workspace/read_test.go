package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// terabyte makes name a sparse file that claims 1 TB: reading it whole
// would take hours and more memory than any machine has.
func terabyte(t *testing.T, name string) {
	t.Helper()
	f, err := os.Create(name)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	if err := os.Truncate(name, 1<<40); err != nil {
		t.Skipf("no sparse file of 1 TB here: %v", err)
	}
}

func TestReadFileMax(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	put(t, name, "12345")
	data, err := ReadFileMax(name, 5)
	require.NoError(t, err)
	assert.Equal(t, "12345", string(data))
	_, err = ReadFileMax(name, 4)
	assert.ErrorIs(t, err, ErrTooLarge)

	big := filepath.Join(dir, "big")
	terabyte(t, big)
	_, err = ReadFileMax(big, 1<<20)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = ReadFileMax(filepath.Join(dir, "missing"), 1)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestBackupRefusesATerabyte leaves a sparse file of 1 TB among the
// learner's files: Backup says so at once instead of copying it, and
// Reset replaces nothing.
func TestBackupRefusesATerabyte(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	dir := w.ExerciseDir("circuitbreaker")
	terabyte(t, filepath.Join(dir, "huge.go"))

	_, err := w.Backup("circuitbreaker/huge.go")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "circuitbreaker/huge.go is larger than 16 MiB")

	put(t, filepath.Join(dir, "circuitbreaker.go"), "package circuitbreaker // mine\n")
	_, err = w.Reset(ex, "en")
	require.Error(t, err)
	assert.Equal(t, "package circuitbreaker // mine\n", read(t, filepath.Join(dir, "circuitbreaker.go")), "nothing replaced without a backup")
	info, err := os.Stat(filepath.Join(dir, "huge.go"))
	require.NoError(t, err)
	assert.Equal(t, int64(1<<40), info.Size(), "the file stays")
}

// TestResetComparesATerabyteQuickly puts a sparse file of 1 TB where the
// skeleton's file belongs: it is not the skeleton, which Reset finds out
// without reading it.
func TestResetComparesATerabyteQuickly(t *testing.T) {
	w, ex := newWorkspace(t, "en")
	dir := w.ExerciseDir("circuitbreaker")
	terabyte(t, filepath.Join(dir, "circuitbreaker.go"))
	skeleton, err := ex.Skeleton("en")
	require.NoError(t, err)
	same, err := holds(dir, []string{"circuitbreaker.go"}, skeleton)
	require.NoError(t, err)
	assert.False(t, same)
}

func TestStateFilesOfATerabyte(t *testing.T) {
	w, _ := newWorkspace(t, "en")
	require.NoError(t, os.MkdirAll(filepath.Dir(w.progressFile()), 0o755))
	terabyte(t, w.progressFile())
	_, err := w.Progress()
	assert.ErrorIs(t, err, ErrTooLarge)
	terabyte(t, filepath.Join(w.Dir, ConfigFile))
	_, err = Open(w.Dir)
	assert.ErrorIs(t, err, ErrTooLarge)
}
