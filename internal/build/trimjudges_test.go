package build

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTrimJudgesKeepsOneInUse: a new judge of an exercise removes the
// older ones no one has used for an hour, but not one that another kurs
// still uses: its record was touched recently, though the judge itself
// was built long ago.
func TestTrimJudgesKeepsOneInUse(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-3 * time.Hour)
	write := func(name string, at time.Time) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(name), 0o600))
		require.NoError(t, os.Chtimes(p, at, at))
		return p
	}
	inUse := write("circuitbreaker-aaa", old)
	write("circuitbreaker-aaa.sha256", time.Now()) // used a moment ago
	unused := write("circuitbreaker-bbb", old)
	unusedRec := write("circuitbreaker-bbb.sha256", old)
	fresh := write("circuitbreaker-ccc", time.Now()) // built a moment ago, not yet recorded
	other := write("tokenbucket-ddd", old)
	keep := write("circuitbreaker-new", time.Now())

	trimJudges(dir, "circuitbreaker", keep)

	for _, p := range []string{inUse, inUse + ".sha256", fresh, other, keep} {
		assert.FileExists(t, p)
	}
	assert.NoFileExists(t, unused)
	assert.NoFileExists(t, unusedRec)
}
