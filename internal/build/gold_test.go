package build

import (
	"context"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeCC writes a C compiler that notes each call in its folder's file
// calls and fails when it is asked for gold and refuses is true.
func fakeCC(t *testing.T, refuses bool) (cc []string, calls string) {
	t.Helper()
	dir := t.TempDir()
	calls = filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$*\" >>" + calls + "\n"
	if refuses {
		script += "for a; do [ \"$a\" = -fuse-ld=gold ] && { echo 'collect2: fatal error: cannot find ld' >&2; exit 1; }; done\n"
	}
	script += "exit 0\n"
	prog := filepath.Join(dir, "cc")
	require.NoError(t, os.WriteFile(prog, []byte(script), 0o755))
	return []string{prog}, calls
}

// A C compiler is asked once whether it links with gold, and its answer is
// kept: yes where it links the trial program, no where it cannot.
func TestLinksWithGoldAsksOnce(t *testing.T) {
	ctx := context.Background()
	for _, refuses := range []bool{false, true} {
		cc, calls := fakeCC(t, refuses)
		record := filepath.Join(t.TempDir(), "gold")
		assert.Equal(t, !refuses, linksWithGold(ctx, cc, record), "refuses=%v", refuses)
		assert.Equal(t, !refuses, linksWithGold(ctx, cc, record), "refuses=%v, from the record", refuses)
		data, err := os.ReadFile(calls)
		require.NoError(t, err)
		assert.Equal(t, 1, strings.Count(string(data), "\n"), "asked once: %s", data)
		assert.Contains(t, string(data), "-static -fuse-ld=gold")
	}

	// An ended context is no answer, and none is kept.
	cc, _ := fakeCC(t, false)
	record := filepath.Join(t.TempDir(), "gold")
	done, cancel := context.WithCancel(ctx)
	cancel()
	assert.False(t, linksWithGold(done, cc, record))
	assert.NoFileExists(t, record)
}

// Where the system's C compiler links with gold, a race build links with
// it, and the race detector still reports a data race in the program.
func TestRaceBuildLinksWithGold(t *testing.T) {
	if raceToolchain() == "" {
		t.Skip("no C compiler: no race detector")
	}
	if !linksWithGold(context.Background(), []string{"gcc"}, filepath.Join(t.TempDir(), "gold")) {
		t.Skip("the C compiler does not link with gold here")
	}
	b := raceBuilder(t)
	mod := withLearner(racySrc)
	p, err := raceDirect(t, b, context.Background(), module1(t, mod), mod)
	require.NoError(t, err)
	f, err := elf.Open(p.Path)
	require.NoError(t, err)
	defer f.Close()
	assert.NotNil(t, f.Section(".note.gnu.gold-version"), "linked by gold")
	assert.Contains(t, raceRun(t, p.Path), "WARNING: DATA RACE")
}
