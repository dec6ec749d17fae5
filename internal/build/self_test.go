package build

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSelfFollowsTheFile: a kurs whose file changed (rebuilt, upgraded)
// has another Self, so that no result kept by the old one is taken for
// its own; the same file keeps its Self.
func TestSelfFollowsTheFile(t *testing.T) {
	if os.Getenv("KURS_PRINT_SELF") != "" {
		os.Stdout.WriteString(Self())
		os.Exit(0)
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	data, err := os.ReadFile(exe)
	require.NoError(t, err)
	copyExe := filepath.Join(t.TempDir(), "kurs")
	require.NoError(t, os.WriteFile(copyExe, data, 0o755))
	selfOf := func() string {
		t.Helper()
		cmd := exec.Command(copyExe, "-test.run=^TestSelfFollowsTheFile$")
		cmd.Env = append(os.Environ(), "KURS_PRINT_SELF=1")
		out, err := cmd.Output()
		require.NoError(t, err)
		return string(out)
	}
	first := selfOf()
	assert.True(t, strings.HasPrefix(first, copyExe+"\x00"), "Self names the running file: %q", first)
	assert.Equal(t, first, selfOf(), "the same file, the same Self")

	// The same path, written anew: as after an upgrade.
	require.NoError(t, os.Remove(copyExe))
	require.NoError(t, os.WriteFile(copyExe, data, 0o755))
	later := time.Now().Add(time.Minute)
	require.NoError(t, os.Chtimes(copyExe, later, later))
	assert.NotEqual(t, first, selfOf(), "a kurs written anew is another kurs")
}

// TestForSelfComputesOnce: a value of the running kurs is computed by its
// first caller and read by the next, in another Builder too, as the next
// kurs version does.
func TestForSelfComputesOnce(t *testing.T) {
	dir := t.TempDir()
	calls := 0
	compute := func() (string, error) { calls++; return "sha256:abc", nil }
	for range 2 {
		b, err := New(Options{Dir: dir})
		require.NoError(t, err)
		v, err := b.ForSelf("course-hash", compute)
		require.NoError(t, err)
		assert.Equal(t, "sha256:abc", v)
		require.NoError(t, b.Close())
	}
	assert.Equal(t, 1, calls, "the second Builder reads the kept value")

	other, err := New(Options{Dir: dir})
	require.NoError(t, err)
	defer other.Close()
	v, err := other.ForSelf("something else", func() (string, error) { return "x", nil })
	require.NoError(t, err)
	assert.Equal(t, "x", v, "each name has its own value")
}
