package watch

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

// TestFingerprintComparesTheLargestFileByContent changes one byte of a
// file of exactly maxHashed bytes and keeps its size and time: the
// fingerprint still sees the change, since a file up to the bound is
// compared by content.
func TestFingerprintComparesTheLargestFileByContent(t *testing.T) {
	root := workspace(t)
	dir := filepath.Join(root, "a")
	name := filepath.Join(dir, "big.go")
	data := bytes.Repeat([]byte("x"), maxHashed)
	write(t, root, "a/big.go", string(data))
	info, err := os.Stat(name)
	require.NoError(t, err)
	before := fingerprint(dir)
	data[0] = 'y'
	require.NoError(t, os.WriteFile(name, data, 0o644))
	require.NoError(t, os.Chtimes(name, info.ModTime(), info.ModTime()))
	assert.NotEqual(t, before, fingerprint(dir))
}

// TestFingerprintOfATerabyte keeps a sparse file of 1 TB among an
// exercise's sources: fingerprint does not read it, and still sees it
// change.
func TestFingerprintOfATerabyte(t *testing.T) {
	root := workspace(t)
	dir := filepath.Join(root, "a")
	name := filepath.Join(dir, "huge.go")
	write(t, root, "a/huge.go", "")
	sparse(t, name, 1<<40)
	before := fingerprint(dir)
	sparse(t, name, 1<<40+1)
	assert.NotEqual(t, before, fingerprint(dir), "the size changed")
}
