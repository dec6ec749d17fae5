package workspace

import (
	"errors"
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
