package harness

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every Go file of the package and its guard reaches the temporary
// modules: a file added to the harness but not embedded would build in kurs
// and fail in every check.
func TestSourceHoldsEveryFile(t *testing.T) {
	var onDisk, embedded []string
	for _, dir := range []string{".", "guard"} {
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".go") {
				onDisk = append(onDisk, filepath.ToSlash(filepath.Join(dir, e.Name())))
			}
		}
	}
	require.NoError(t, fs.WalkDir(Source, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			embedded = append(embedded, name)
		}
		return err
	}))
	slices.Sort(onDisk)
	slices.Sort(embedded)
	assert.Equal(t, onDisk, embedded)
}
