package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sparse makes name a sparse file that claims size bytes.
func sparse(t *testing.T, name string, size int64) {
	t.Helper()
	if err := os.Truncate(name, size); err != nil {
		t.Skipf("no sparse file of %d bytes here: %v", size, err)
	}
}

// TestDigestComparesTheLargestFileByContent changes one byte of a file of
// exactly MaxDigested bytes and keeps its size and time: the digest still
// sees the change, since a file up to the bound is compared by content.
func TestDigestComparesTheLargestFileByContent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	name := filepath.Join(dir, "big.go")
	data := bytes.Repeat([]byte("x"), MaxDigested)
	require.NoError(t, os.WriteFile(name, data, 0o644))
	info, err := os.Stat(name)
	require.NoError(t, err)
	before := DigestDir(dir)
	data[0] = 'y'
	require.NoError(t, os.WriteFile(name, data, 0o644))
	require.NoError(t, os.Chtimes(name, info.ModTime(), info.ModTime()))
	assert.NotEqual(t, before, DigestDir(dir))
}

// TestDigestOfATerabyte keeps a sparse file of 1 TB among an exercise's
// sources: DigestDir does not read it, and still sees it change.
func TestDigestOfATerabyte(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	name := filepath.Join(dir, "huge.go")
	require.NoError(t, os.WriteFile(name, nil, 0o644))
	sparse(t, name, 1<<40)
	before := DigestDir(dir)
	sparse(t, name, 1<<40+1)
	assert.NotEqual(t, before, DigestDir(dir), "the size changed")
}
