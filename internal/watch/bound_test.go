package watch

import (
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

// TestReadAtMostATerabyte reads a sparse file of 1 TB, as a file that grew
// after fingerprint looked at its size would be: at most the limit and one
// byte come back.
func TestReadAtMostATerabyte(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.go")
	write(t, filepath.Dir(name), "a.go", "package a\n")
	sparse(t, name, 1<<40)
	data, err := readAtMost(name, maxHashed)
	require.NoError(t, err)
	assert.Len(t, data, maxHashed+1)
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
