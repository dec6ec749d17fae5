// Package build makes the programs a check runs: the judges, the kits of
// compiled packages from which a learner's program is built directly, the
// learner's program itself (directly, or with the go command), and its
// race-detector build. A Builder owns kurs's cache folder, where these are
// kept, the locks that let checks running at once share them, and the
// background work that keeps the cache small.
//
// A Builder trusts nothing it finds in its cache without checking it: the
// folder must be its user's alone, and a judge or a kit's archive must
// still have the hash recorded when it was built. It does not run
// learner code or judge it; the checker package does.
package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// GoLanguage is the Go language version of learner code and the test
// programs, whichever toolchain builds them.
const GoLanguage = "1.22"

// Limits of each process of a build: a cold build of the standard library
// needs a few hundred MB per compiler and writes no file over a few MB.
const (
	buildMemory   = 1 << 30
	buildFileSize = 64 << 20
)

// learnerTimeout bounds a build of learner code: the standard library is
// already compiled by then (the judge's build comes first), and no
// learner's code should make the compiler work for a minute.
const learnerTimeout = 60 * time.Second

// trustedTimeout bounds a build of the course's own code (a judge, a kit),
// which may compile the standard library from scratch on a busy machine.
const trustedTimeout = 10 * time.Minute

// learnerTime returns the bound of a build of learner code.
func (b *Builder) learnerTime() time.Duration {
	if b.learnerLimit > 0 {
		return b.learnerLimit
	}
	return learnerTimeout
}

// Options configure a Builder.
type Options struct {
	// Dir is the cache folder; empty means DefaultDir.
	Dir string
	// Go is the go command; empty means the one on PATH.
	Go string
	// TempDir is where temporary modules are made; empty means
	// os.TempDir.
	TempDir string
	// Preparing, if set, is called once, before the Builder makes the
	// first kit or judge in a cache that holds neither: the standard
	// library is then most likely compiled as well, which takes a minute
	// or more. A front end says so, rather than staying silent that long.
	Preparing func()
}

// Builder builds and caches what checks run. Make one with New, share it
// between all checks of a process, and Close it at the end.
type Builder struct {
	dir     string
	goCmd   string
	tempDir string

	kitMu sync.Mutex
	kits  []*kitEntry

	judgeMu    sync.Mutex
	judgeLocks map[string]*sync.Mutex // one per judge, so each is built once

	preparing func() // Options.Preparing, called once

	// learnerLimit bounds a build of learner code: learnerTimeout, or
	// what a test sets.
	learnerLimit time.Duration

	// verified remembers the files whose hash was checked, by their
	// identity on disk (see fileID), so that an unchanged file is hashed
	// once per Builder.
	verified sync.Map

	stats struct{ compiles, links, goBuilds, raceBuilds, goCacheLinks atomic.Int64 }

	// grading says that b keeps its objects in the cache's folder of
	// grade's objects (KeepObjectsForGrading); objectsCap, if set, bounds
	// the folder b keeps its objects in instead of its usual bound.
	grading    atomic.Bool
	objectsCap int64
	// runGoCache is the go build cache of this run's race builds, made
	// once (raceGoCache), after raceBuilt: a race build succeeded with the
	// cache's own.
	runGoCache func() string
	raceBuilt  atomic.Bool

	trimMu   sync.Mutex
	lastTrim time.Time
	ctx      context.Context // ends at Close; background work stops
	stop     context.CancelFunc
	bg       sync.WaitGroup
}

// New returns a Builder whose cache is opt.Dir, or DefaultDir. It makes
// the folder, readable and writable by its user alone, if it is missing,
// and refuses (with an *UnsafeError) a folder that someone else could
// write into.
func New(opt Options) (*Builder, error) {
	dir, temp := opt.Dir, false
	if dir == "" {
		dir, temp = DefaultDir()
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if dir, err = ensureRoot(dir, temp); err != nil {
		return nil, err
	}
	b := &Builder{dir: dir, goCmd: opt.Go, tempDir: opt.TempDir, judgeLocks: map[string]*sync.Mutex{}}
	if opt.Preparing != nil {
		b.preparing = sync.OnceFunc(opt.Preparing)
	} else {
		b.preparing = func() {}
	}
	b.ctx, b.stop = context.WithCancel(context.Background())
	return b, nil
}

// Close stops the Builder's background work and waits for it. What it
// built stays in the cache.
func (b *Builder) Close() error {
	b.stop()
	b.bg.Wait()
	return nil
}

// Stats counts what a Builder has built since New.
type Stats struct {
	Compiles   int // packages compiled by a direct build
	Links      int // programs linked by a direct build
	GoBuilds   int // learner's programs built with the go command
	RaceBuilds int // learner's programs built with the race detector
}

// Stats returns what b has built so far: a check that changed nothing
// the build depends on builds nothing.
func (b *Builder) Stats() Stats {
	return Stats{Compiles: int(b.stats.compiles.Load()), Links: int(b.stats.links.Load()),
		GoBuilds: int(b.stats.goBuilds.Load()), RaceBuilds: int(b.stats.raceBuilds.Load())}
}

// Dir returns the cache folder.
func (b *Builder) Dir() string { return b.dir }

// TempDir returns the folder where temporary modules are made.
func (b *Builder) TempDir() string { return b.tempDir }

// sub returns the cache's folder name, made if missing and checked to be
// the user's alone.
func (b *Builder) sub(name ...string) (string, error) {
	dir := filepath.Join(append([]string{b.dir}, name...)...)
	if err := ensureSub(b.dir, dir); err != nil {
		return "", err
	}
	return dir, nil
}

// goCache returns the go build cache that learner builds use: kurs's own,
// so that no submission grows the user's Go cache, and trimmed by size.
func (b *Builder) goCache() string { return filepath.Join(b.dir, "go-build") }

// Env returns the environment for the go command when it builds learner
// code: offline, reproducible, and deaf to the user's go env file and
// workspace. The build cache is the Builder's own.
func (b *Builder) Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GO") || k == "CGO_ENABLED" {
			if k == "GOPATH" || k == "GOROOT" || k == "GOMODCACHE" {
				env = append(env, kv)
			}
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOCACHE="+b.goCache(), "GOENV=off", "GOFLAGS=", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off",
		"CGO_ENABLED=0", "GO111MODULE=on", "GOSUMDB=off", "GOTELEMETRY=off")
}

// goCommand returns the go command that builds.
func (b *Builder) goCommand() (string, error) {
	if b.goCmd != "" {
		return b.goCmd, nil
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command: %w", err)
	}
	return goCmd, nil
}

// goIdentity names the go command that builds, by its path and the time
// it was installed: a new toolchain makes new judges and kits.
func (b *Builder) goIdentity() (string, error) {
	goCmd, err := b.goCommand()
	if err != nil {
		return "", err
	}
	info, err := os.Stat(goCmd)
	if err != nil {
		return "", fmt.Errorf("go command: %w", err)
	}
	return goCmd + "@" + info.ModTime().UTC().Format(time.RFC3339Nano), nil
}

// Key hashes a module's files together with the go command that builds it
// and the platform: the same key means the same build.
func (b *Builder) Key(mod map[string][]byte) (string, error) {
	id, err := b.goIdentity()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(runtime.GOOS + "/" + runtime.GOARCH + "\x00" + id + "\x00"))
	names := make([]string, 0, len(mod))
	for n := range mod {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h.Write([]byte(n + "\x00"))
		h.Write(mod[n])
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// WriteModule writes a module, path by path, into dir.
func WriteModule(dir string, mod map[string][]byte) error {
	for name, data := range mod {
		name = filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
