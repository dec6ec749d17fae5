package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFileReplacesWholeFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "state", "progress.json")
	require.NoError(t, WriteFile(name, []byte("a long first version"), 0o644))
	require.NoError(t, WriteFile(name, []byte("short"), 0o644))
	got, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "short", string(got))
	entries, err := os.ReadDir(filepath.Dir(name))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

// TestWriteFileGivesAnOrdinaryMode saves a file as the page's editor
// does: it gets the mode a file from the learner's own editor gets
// (os.WriteFile, 0644 less the umask), not a temporary file's 0600.
func TestWriteFileGivesAnOrdinaryMode(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "editor.go"), nil, 0o644))
	want, err := os.Stat(filepath.Join(dir, "editor.go"))
	require.NoError(t, err)
	require.NoError(t, WriteFile(filepath.Join(dir, "page.go"), []byte("package a\n"), 0o644))
	got, err := os.Stat(filepath.Join(dir, "page.go"))
	require.NoError(t, err)
	assert.Equal(t, want.Mode(), got.Mode())
}

// TestWriteFileKeepsAPrivateMode writes a cache record as the build does,
// readable by its owner alone, and replaces a wider one.
func TestWriteFileKeepsAPrivateMode(t *testing.T) {
	name := filepath.Join(t.TempDir(), "record")
	require.NoError(t, os.WriteFile(name, []byte("old"), 0o644))
	require.NoError(t, WriteFile(name, []byte("new"), 0o600))
	info, err := os.Stat(name)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
}

// TestWriteInStaysInsideTheRoot writes through a folder that is a symbolic
// link out of the root: the write is refused and nothing appears outside.
func TestWriteInStaysInsideTheRoot(t *testing.T) {
	inside, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(inside, "away")))
	root, err := os.OpenRoot(inside)
	require.NoError(t, err)
	defer root.Close()
	assert.Error(t, WriteIn(root, filepath.Join("away", "x.go"), []byte("package x\n"), 0o644))
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestPreparedFileWaitsForCommit: a prepared file changes nothing until
// Commit; Discard leaves nothing behind.
func TestPreparedFileWaitsForCommit(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	name := filepath.Join(dir, "a.go")
	require.NoError(t, os.WriteFile(name, []byte("old"), 0o644))

	p, err := Prepare(root, "a.go", []byte("new"), 0o644)
	require.NoError(t, err)
	got, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "old", string(got), "not yet")
	require.NoError(t, p.Commit())
	got, err = os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	p.Discard() // after Commit: nothing

	p, err = Prepare(root, "a.go", []byte("dropped"), 0o644)
	require.NoError(t, err)
	p.Discard()
	got, err = os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}
