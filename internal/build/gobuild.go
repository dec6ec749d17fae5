package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/sandbox"
)

// ErrLimit means a build ran into its limits: its time, or the memory or
// file size of a compiler or the linker. For a learner's build, the
// learner's code made the compiler work too hard.
var ErrLimit = errors.New("build limit")

// CompileError means the code does not compile. Output is what the
// compilers said, in the go command's words: a "# import/path" line above
// each package's errors, file names relative to the module's folder or
// under it.
type CompileError struct {
	Output string
	Dir    string // the module's folder
}

func (e *CompileError) Error() string { return "compile: " + e.Output }

// Go builds the learner's program of the module in dir with the go
// command, as dir/kurs-learner, and returns its path. The error is a
// *CompileError or ErrLimit when the learner's code is at fault.
func (b *Builder) Go(ctx context.Context, dir string) (string, error) {
	b.stats.goBuilds.Add(1)
	return b.goBuild(ctx, dir, "kurs-learner", harness.LearnerTag, b.learnerTime())
}

// FileSum returns the SHA-256 of the file name, hex-encoded: of a
// learner's program, what decides how it behaves.
func FileSum(name string) (string, error) {
	sum, _, err := hashFile(name)
	return sum, err
}

// goBuild compiles the program of the module at dir into dir/name, with
// the build tags tags, within limit.
func (b *Builder) goBuild(parent context.Context, dir, name, tags string, limit time.Duration) (string, error) {
	goCmd, err := b.goCommand()
	if err != nil {
		return "", err
	}
	prog := filepath.Join(dir, name+exeSuffix())
	ctx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	// The compiler has no memory bound of its own: a few hundred bytes of
	// constants can drive it to gigabytes, and a huge initialised array
	// writes a huge object file into the cache.
	cmd := sandbox.Command(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize},
		goCmd, "build", "-trimpath", noDWARF, "-tags="+tags, "-ldflags=-s -w", "-o", prog, "./internal/run")
	cmd.Dir = dir
	// go's own work folder goes inside the temporary module, so that it
	// is removed with it even when go is killed before it can clean up.
	gotmp := filepath.Join(dir, ".gotmp")
	if err := os.Mkdir(gotmp, 0o700); err != nil {
		return "", err
	}
	if err := b.ensureGoCache(); err != nil {
		return "", err
	}
	cmd.Env = append(b.Env(), "GOTMPDIR="+gotmp)
	// The compiler and linker are children of go; on cancel they must die
	// too, before the temporary module is removed: the sandbox kills the
	// whole process group.
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	sandbox.Kill(cmd)
	defer b.trimSoon()
	if err == nil {
		return prog, nil
	}
	if parent.Err() != nil {
		return "", parent.Err()
	}
	if ctx.Err() != nil {
		return "", ErrLimit
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == sandbox.ExitLaunch {
		// No go command, or no way to start it: kurs's failure.
		return "", fmt.Errorf("go build: %w: %s", err, bytes.TrimSpace(out))
	}
	if buildLimited(string(out)) {
		return "", ErrLimit
	}
	return "", &CompileError{Output: string(out), Dir: dir}
}

// raceFlags build the learner's program with the race detector and link
// it statically: the race detector needs cgo, and a dynamically linked
// program would need its loader and C library, files that the confined
// program may not open. Static, it runs under the same confinement as
// every learner's program. Without debugging information, as every
// program kurs builds: the go command's build and a race kit share the
// standard library compiled for the race detector.
var raceFlags = []string{"-race", noDWARF, "-ldflags=-s -w -linkmode=external -extldflags=-static"}

// Race builds the learner's program of the module mod, written in dir,
// with the race detector, as dir/kurs-learner-race, under the same limits
// as every build. Only this build uses cgo; the checker's static checks
// still refuse import "C" in the learner's files. It is built directly
// with a race kit (racekit.go), or by the go command where that fails for
// any reason but the build's limits. The program is kept by the module's
// content, with the hash of what was built: the same sources are built
// with the race detector once (a static link through the C compiler
// takes a second), and a kept program that no longer has its hash is
// built anew, never run.
func (b *Builder) Race(parent context.Context, dir string, mod map[string][]byte) (string, error) {
	prog := filepath.Join(dir, "kurs-learner-race")
	key := b.raceKey(mod)
	if key != "" {
		if _, ok := b.fetch(key, prog, 0o755); ok {
			return prog, nil
		}
	}
	b.stats.raceBuilds.Add(1)
	defer b.trimSoon()
	// The race kit holds the course's own code alone, and its first build
	// compiles the standard library for the race detector: minutes on a
	// busy machine, and no learner's doing. It has the limit of the
	// course's own builds, and the learner's build after it the learner's.
	kit, kitErr := b.raceKitOf(parent, dir, mod)
	if parent.Err() != nil {
		return "", parent.Err()
	}
	ctx, cancel := context.WithTimeout(parent, b.learnerTime())
	defer cancel()
	if _, err := b.raceDirect(ctx, dir, kit, kitErr); err == nil {
		b.raceDone(key, prog)
		return prog, nil
	} else if parent.Err() != nil {
		return "", parent.Err()
	} else if ctx.Err() != nil || errors.Is(err, ErrLimit) {
		return "", fmt.Errorf("race build: %w", ErrLimit)
	}
	goCmd, err := b.goCommand()
	if err != nil {
		return "", err
	}
	args := append([]string{"build", "-trimpath", "-tags=" + harness.LearnerTag}, raceFlags...)
	env := append(b.Env(), "CGO_ENABLED=1", "GOCACHE="+b.raceGoCache())
	// The link goes through extld, which spares the C compiler the Go
	// linker's questions it answered before; the program is the same.
	linker, viaExtld := b.raceLinker(ctx, dir)
	if viaExtld {
		args[len(args)-1] += " " + linker.flag
		env = append(env, linker.env...)
	}
	// Started by the launcher program, as a direct build is, not by kurs
	// started again.
	cmd := sandbox.Command(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize, Launcher: b.launcher(ctx)},
		goCmd, append(args, "-o", prog, "./internal/run")...)
	cmd.Dir = dir
	gotmp := filepath.Join(dir, ".gotmp-race")
	if err := os.Mkdir(gotmp, 0o700); err != nil {
		return "", err
	}
	cmd.Env = append(env, "GOTMPDIR="+gotmp)
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	sandbox.Kill(cmd)
	if err != nil {
		return "", errors.New("race build: " + err.Error() + ": " + string(bytes.TrimSpace(out)))
	}
	if viaExtld {
		linker.keep()
	}
	b.raceDone(key, prog)
	return prog, nil
}

// raceDone records a race build of prog that succeeded: the program is
// kept under key, and the cache knows the standard library compiled for
// the race detector.
func (b *Builder) raceDone(key, prog string) {
	b.raceBuilt.Store(true)
	if key != "" {
		_, _ = b.keep(key, prog, 0o755) // a program not kept is built again
	}
	if spec, value, ok := b.raceReady(); ok {
		_ = b.rememberKey(spec, value)
	}
}

// raceKey names the race detector's build of mod: its files, the go
// command, the settings and the C compiler that links it. It is empty
// when the C compiler cannot be named.
func (b *Builder) raceKey(mod map[string][]byte) string {
	tools := raceToolchain()
	if mod == nil || tools == "" {
		return ""
	}
	with := maps.Clone(mod)
	with["\x00race"] = []byte(tools)
	key, err := b.Key(with)
	if err != nil {
		return ""
	}
	return "race-" + key
}

// raceToolchain names what builds a race-enabled program besides the go
// command: its settings and the C compiler, by its path and the time it
// was installed; "" when there is no C compiler.
func raceToolchain() string {
	cc := "gcc"
	if v := strings.Fields(os.Getenv("CC")); len(v) > 0 {
		cc = v[0]
	}
	ccPath, err := exec.LookPath(cc)
	if err != nil {
		return ""
	}
	info, err := os.Stat(ccPath)
	if err != nil {
		return ""
	}
	return strings.Join(raceFlags, " ") + "\x00" + os.Getenv("CC") + "\x00" + ccPath + "@" + info.ModTime().UTC().Format(time.RFC3339Nano)
}

// raceReady returns the name under which the cache records that a race
// build of this go command and C compiler succeeded, and the value it
// records.
func (b *Builder) raceReady() (spec, value string, ok bool) {
	tools := raceToolchain()
	id, err := b.goIdentity()
	if tools == "" || err != nil {
		return "", "", false
	}
	sum := sha256.Sum256([]byte(runtime.GOOS + "/" + runtime.GOARCH + "\x00" + id + "\x00" + tools))
	value = hex.EncodeToString(sum[:16])
	return "race-ready-" + value, value, true
}

// RaceCold reports whether Race would build mod with the standard library
// not yet compiled for the race detector, which takes about half a minute:
// no program of mod is kept, and no race build of this go command and C
// compiler has succeeded with this cache. (The go command's cache may
// have dropped the standard library since; the next build is slower then,
// and says nothing.)
func (b *Builder) RaceCold(mod map[string][]byte) bool {
	if key := b.raceKey(mod); key != "" {
		if dir, err := b.sub("objects"); err == nil {
			if _, err := os.Stat(filepath.Join(dir, key+".sha256")); err == nil {
				return false
			}
		}
	}
	spec, _, ok := b.raceReady()
	if !ok {
		return true
	}
	_, warm := b.recallKey(spec)
	return !warm
}
