package build

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// racySrc is a package x whose Hello writes a variable from two
// goroutines at once: a data race, which only the race detector reports.
const racySrc = `package x

var n int

func Hello() string {
	done := make(chan bool)
	go func() { n++; done <- true }()
	n++
	<-done
	return hello()
}

//go:noinline
func hello() string { return "one" }
`

// raceRun runs a race-enabled program of tiny's module and returns its
// output; the race detector ends a program that raced with status 66.
func raceRun(t *testing.T, prog string) string {
	t.Helper()
	out, err := exec.Command(prog, "x").CombinedOutput()
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		require.True(t, ok && exit.ExitCode() == 66, "%v: %s", err, out)
	}
	return string(out)
}

// The race detector's build is direct: compiled with the race detector
// against a race kit and linked statically, it reports a data race; a save
// that changes a body compiles the learner's package alone and links, and
// the program does what the new body says.
func TestRaceBuildIsDirect(t *testing.T) {
	if raceToolchain() == "" {
		t.Skip("no C compiler: no race detector")
	}
	b := raceBuilder(t)
	ctx := context.Background()
	learner, driver := module+"/x", module+"/internal/run/x"

	mod := withLearner(racySrc)
	p, err := raceDirect(t, b, ctx, module1(t, mod), mod)
	require.NoError(t, err, "direct race build")
	assert.Equal(t, []string{learner, driver, "main", "link"}, p.Ran)
	out := raceRun(t, p.Path)
	assert.Contains(t, out, "WARNING: DATA RACE")
	assert.Contains(t, out, "one")
	static, err := exec.Command("file", p.Path).Output()
	if err == nil {
		assert.Contains(t, string(static), "statically linked", "a confined program may open no loader")
	}

	body := withLearner(strings.Replace(racySrc, `"one"`, `"two"`, 1))
	p, err = raceDirect(t, b, ctx, module1(t, body), body)
	require.NoError(t, err)
	assert.Equal(t, []string{learner, "link"}, p.Ran, "a body: its package and the link")
	assert.Contains(t, raceRun(t, p.Path), "two")

	calm := withLearner(learnerSrc)
	p, err = raceDirect(t, b, ctx, module1(t, calm), calm)
	require.NoError(t, err)
	assert.Equal(t, "one", run(t, p.Path), "no race, no report")
}

// A learner's package that imports what the race kit lacks is built by the
// go command, and does what it says.
func TestRaceBuildOutsideTheKit(t *testing.T) {
	if raceToolchain() == "" {
		t.Skip("no C compiler: no race detector")
	}
	b := raceBuilder(t)
	ctx := context.Background()
	mod := withLearner(learnerSrc)
	dir := module1(t, mod)
	_, err := b.Race(ctx, dir, mod)
	require.NoError(t, err)
	assert.DirExists(t, filepath.Join(dir, ".kurs-build-race"))
	assert.NoDirExists(t, filepath.Join(dir, ".gotmp-race"), "built directly")

	list := withLearner(`package x

import "container/list"

func Hello() string { l := list.New(); l.PushBack("three"); return l.Front().Value.(string) }
`)
	dir = module1(t, list)
	prog, err := b.Race(ctx, dir, list)
	require.NoError(t, err)
	assert.DirExists(t, filepath.Join(dir, ".gotmp-race"), "built by the go command")
	assert.Equal(t, "three", run(t, prog))
	assert.Equal(t, 2, b.Stats().RaceBuilds)
}

// raceDirect makes the race kit of mod in dir and builds with it, as
// Builder.Race does before it falls back to the go command.
func raceDirect(t *testing.T, b *Builder, ctx context.Context, dir string, mod map[string][]byte) (*Program, error) {
	t.Helper()
	rk, err := b.raceKitOf(ctx, dir, mod)
	return b.raceDirect(ctx, dir, rk, err)
}

// The race kit is the course's own code: its first build, which compiles
// the standard library for the race detector and takes minutes on a busy
// machine, is not held to the limit of a learner's build. A learner's
// build that runs out of its time is the learner's; the kit is made all
// the same, and the next build finds it.
func TestRaceKitHasTheCoursesLimit(t *testing.T) {
	if raceToolchain() == "" {
		t.Skip("no C compiler: no race detector")
	}
	b := coldBuilder(t)
	b.learnerLimit = time.Nanosecond
	mod := withLearner(racySrc)
	_, err := b.Race(context.Background(), module1(t, mod), mod)
	require.ErrorIs(t, err, ErrLimit, "the learner's build had no time")
	kits, err := filepath.Glob(filepath.Join(b.dir, "kits", "*-race-*"))
	require.NoError(t, err)
	assert.Len(t, kits, 1, "the race kit was made under the course's limit")
}
