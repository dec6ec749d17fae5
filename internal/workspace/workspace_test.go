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
