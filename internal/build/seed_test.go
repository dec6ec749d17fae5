package build

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
)

// Most tests need a cache of their own, whose objects they count, plant or
// trim; few are about the first build of what every cache builds once (the
// launcher program, tiny's kit and, for the race detector, extld, the C
// compiler's answers and the race kit): the launcher tests and the race
// kit's test try it with a cache of nothing but the shared go build cache
// (coldBuilder). The others start from a copy of a seed cache that built
// those once for the whole run (newBuilder, raceBuilder): a copy, so that
// a test that plants or drops something of it spoils no other test's.

// seedRoot holds the seed caches of this run of the tests; TestMain
// removes it.
var seedRoot = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "kurs-build-seed-") })

func TestMain(m *testing.M) {
	code := m.Run()
	if dir, err := seedRoot(); err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// plainSeed is a cache with the launcher program and tiny's kit.
var plainSeed = sync.OnceValues(func() (string, error) {
	return makeSeed("plain", "", func(ctx context.Context, b *Builder) error {
		if _, err := b.Launcher(ctx); err != nil {
			return err
		}
		_, err := b.Kit(ctx, []*course.Exercise{tinyExercise}, func() (map[string][]byte, error) { return tiny(`"hi"`), nil })
		return err
	})
})

// raceSeed is plainSeed's cache with what a race build of learnerSrc made
// besides its program: extld, the C compiler's answers and the race kit.
// Without a C compiler it is plainSeed's (the race tests skip).
var raceSeed = sync.OnceValues(func() (string, error) {
	plain, err := plainSeed()
	if err != nil || raceToolchain() == "" {
		return plain, err
	}
	return makeSeed("race", plain, func(ctx context.Context, b *Builder) error {
		mod := withLearner(learnerSrc)
		dir, err := os.MkdirTemp(b.TempDir(), "race-")
		if err != nil {
			return err
		}
		if err := WriteModule(dir, mod); err != nil {
			return err
		}
		_, err = b.Race(ctx, dir, mod)
		return err
	})
})

// makeSeed makes the seed cache name, a copy of the seed from if it is
// not "", with the shared go build cache, and builds in it with build.
func makeSeed(name, from string, build func(context.Context, *Builder) error) (string, error) {
	root, err := seedRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	cache := filepath.Join(dir, "cache")
	if err := newCache(cache, from); err != nil {
		return "", err
	}
	b, err := New(Options{Dir: cache, TempDir: dir})
	if err != nil {
		return "", err
	}
	defer b.Close()
	return cache, build(context.Background(), b)
}

// newCache makes the cache folder dir whose go-build links to the shared
// go build cache, so that nothing of the standard library is compiled
// again, and copies the judges and kits of the seed cache from into it if
// from is not "".
func newCache(dir, from string) error {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	shared, _ := DefaultDir()
	if err := os.MkdirAll(filepath.Join(shared, "go-build"), 0o700); err == nil {
		if err := os.Symlink(filepath.Join(shared, "go-build"), filepath.Join(dir, "go-build")); err != nil {
			return err
		}
	}
	if from == "" {
		return nil
	}
	for _, sub := range []string{"judges", "kits"} {
		if err := copyTree(filepath.Join(from, sub), filepath.Join(dir, sub)); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies the folders and regular files under src to dst, with
// their modes; a missing src copies nothing.
func copyTree(src, dst string) error {
	if _, err := os.Stat(src); os.IsNotExist(err) {
		return nil
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.Mkdir(to, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, info.Mode().Perm())
	})
}

// seeded returns a Builder of a cache of the test's own, a copy of the
// seed cache seed returns.
func seeded(t *testing.T, seed func() (string, error)) *Builder {
	t.Helper()
	from, err := seed()
	require.NoError(t, err, "the seed cache")
	dir := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, newCache(dir, from))
	b, err := New(Options{Dir: dir, TempDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return b
}

// newBuilder returns a Builder of a cache of the test's own that holds
// the launcher program and tiny's kit.
func newBuilder(t *testing.T) *Builder {
	t.Helper()
	return seeded(t, plainSeed)
}

// raceBuilder returns a Builder of a cache of the test's own that holds,
// besides newBuilder's, what a race build needs before it compiles:
// extld, the C compiler's answers, and the race kit of tiny.
func raceBuilder(t *testing.T) *Builder {
	t.Helper()
	return seeded(t, raceSeed)
}

// coldBuilder returns a Builder of a cache of the test's own that holds
// nothing but a link to the shared go build cache: for a test of the
// first build of what the seeds hold, or one that builds none of it.
func coldBuilder(t *testing.T) *Builder {
	t.Helper()
	return seeded(t, func() (string, error) { return "", nil })
}
