package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBackupKeepsFilesAndTheirPaths(t *testing.T) {
	w := &Workspace{Dir: t.TempDir()}
	require.NoError(t, os.MkdirAll(filepath.Join(w.Dir, "tokenbucket"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, "tokenbucket", "tb.go"), []byte("mine"), 0o644))
	dir, err := w.Backup("tokenbucket/tb.go", "tokenbucket/missing.go")
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, "tokenbucket", "tb.go"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(got))
	orig, err := os.ReadFile(filepath.Join(w.Dir, "tokenbucket", "tb.go"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(orig), "a backup never removes the original")
	dir2, err := w.Backup("tokenbucket/tb.go")
	require.NoError(t, err)
	assert.NotEqual(t, dir, dir2, "each backup gets its own folder")
}

func TestWriteFileAtomicReplacesWholeFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "state", "progress.json")
	require.NoError(t, WriteFileAtomic(name, []byte("a long first version")))
	require.NoError(t, WriteFileAtomic(name, []byte("short")))
	got, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "short", string(got))
	entries, err := os.ReadDir(filepath.Dir(name))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

// TestWriteFileAtomicGivesAnOrdinaryMode saves a file as the page's editor
// does: it gets the mode a file from the learner's own editor gets
// (os.WriteFile, 0644 less the umask), not a temporary file's 0600, and
// the same mode as a file Reset writes.
func TestWriteFileAtomicGivesAnOrdinaryMode(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "editor.go"), nil, 0o644))
	want, err := os.Stat(filepath.Join(dir, "editor.go"))
	require.NoError(t, err)
	require.NoError(t, WriteFileAtomic(filepath.Join(dir, "page.go"), []byte("package a\n")))
	got, err := os.Stat(filepath.Join(dir, "page.go"))
	require.NoError(t, err)
	assert.Equal(t, want.Mode(), got.Mode())
}

func TestProgressRoundTrip(t *testing.T) {
	w := &Workspace{Dir: t.TempDir()}
	p, err := w.Progress()
	require.NoError(t, err)
	assert.Empty(t, p.Exercises, "no progress file means no progress")
	p.Of("circuitbreaker").HintsSeen = 2
	require.NoError(t, w.SaveProgress(p))
	q, err := w.Progress()
	require.NoError(t, err)
	assert.Equal(t, 2, q.Of("circuitbreaker").HintsSeen)
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, ".kurs", "progress.json"), []byte("{"), 0o644))
	_, err = w.Progress()
	assert.Error(t, err, "a damaged progress file is reported, not silently reset")
}

func TestFindWalksUp(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, ConfigFile), []byte("format = 1\nlang = \"de\"\n"), 0o644))
	deep := filepath.Join(root, "circuitbreaker", "sub")
	require.NoError(t, os.MkdirAll(deep, 0o755))
	w, err := Find(deep)
	require.NoError(t, err)
	assert.Equal(t, root, w.Dir)
	assert.Equal(t, "de", w.Config.Lang)
	_, err = Find(t.TempDir())
	assert.ErrorIs(t, err, ErrNotFound)
}
