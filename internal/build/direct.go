package build

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/sandbox"
)

// ErrKitBroken means a direct build failed for a reason that is not the
// learner's: the go command must build instead.
var ErrKitBroken = errors.New("direct build: the kit does not fit")

// Direct compiles and links the learner's program of the combined module
// whose sources are written in dir: the learner's packages of the
// exercises ids, their test programs under internal/run/ID, and the main
// package in internal/run. It returns the program, dir/kurs-learner. The
// error is a *CompileError (in the go command's words), ErrLimit, or
// ErrKitBroken, when the go command must build instead; a kit that lost
// an archive is then dropped.
func (b *Builder) Direct(parent context.Context, k *Kit, dir string, ids []string) (string, error) {
	ctx, cancel := context.WithTimeout(parent, learnerTimeout)
	defer cancel()
	prog, err := b.compileAndLink(ctx, k, dir, ids)
	switch {
	case parent.Err() != nil:
		return "", parent.Err()
	case errors.Is(err, ErrLimit) || ctx.Err() != nil:
		// The build's own time or memory ran out: the learner's code made
		// the compiler work too hard.
		return "", ErrLimit
	case errors.Is(err, ErrKitBroken):
		// No learner's code can make an archive of the kit go missing.
		if b.verifyKit(k) != nil {
			b.dropKit(k)
		}
	}
	return prog, err
}

// compileAndLink does Direct's work within ctx.
func (b *Builder) compileAndLink(ctx context.Context, k *Kit, dir string, ids []string) (string, error) {
	if err := b.verifyKit(k); err != nil {
		return "", fmt.Errorf("%w: %v", ErrKitBroken, err)
	}
	out := filepath.Join(dir, ".kurs-build")
	if err := os.Mkdir(out, 0o700); err != nil {
		return "", err
	}
	// One plan, so one launcher, for the whole build: the learner's
	// packages, then their test programs, then main, then the link. Each
	// stage's importcfg names what the stages before make; a stage with an
	// error is the last.
	prog := filepath.Join(dir, "kurs-learner"+exeSuffix())
	main := filepath.Join(out, "main.a")
	cfg, cfgFile := k.config, filepath.Join(k.dir, "importcfg")
	var stages [][]sandbox.Step
	var pkgs [][]string // the import path of each step, for its errors
	for _, prefix := range []string{"", "internal/run/"} {
		var stage []sandbox.Step
		var names []string
		var more strings.Builder
		for _, id := range ids {
			rel := prefix + id
			archive := filepath.Join(out, strings.ReplaceAll(rel, "/", "_")+".a")
			st, err := compileStep(k, dir, cfgFile, module+"/"+rel, rel, archive)
			if err != nil {
				return "", err
			}
			stage, names = append(stage, st), append(names, module+"/"+rel)
			fmt.Fprintf(&more, "packagefile %s/%s=%s\n", module, rel, archive)
		}
		stages, pkgs = append(stages, stage), append(pkgs, names)
		cfg += more.String()
		cfgFile = filepath.Join(out, "after-"+strconv.Itoa(len(stages))+".importcfg")
		if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
			return "", err
		}
	}
	st, err := compileStep(k, dir, cfgFile, "main", "internal/run", main)
	if err != nil {
		return "", err
	}
	link := sandbox.Step{Path: filepath.Join(k.Tools, "link"+exeSuffix()), Args: []string{"-o", prog, "-importcfg", cfgFile,
		"-X=runtime.godebugDefault=" + k.GODEBUG, "-buildmode=exe", "-s", "-w", main},
		// As the go command does for -trimpath: no GOROOT in the program.
		// See compileStep for GOGC.
		Env: append(gcEnv("off"), "GOROOT=")}
	stages = append(stages, []sandbox.Step{st}, []sandbox.Step{link})
	pkgs = append(pkgs, []string{"main"}, []string{"link"})

	done, err := sandbox.RunPlan(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize},
		sandbox.Plan{Dir: dir, Env: b.Env(), Stages: stages})
	if ctx.Err() != nil {
		return "", ErrLimit // the build's time ran out, or the caller's (Direct tells)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrKitBroken, err)
	}
	var failed []string // the learner's packages' errors, in the order of ids
	for s, stage := range done {
		for n, d := range stage {
			errs := strings.TrimRight(string(d.Output), "\n")
			switch {
			case d.OK:
				continue
			case limitHit(d.Status, errs):
				return "", ErrLimit
			case !strings.HasPrefix(d.Status, "exit status"), strings.Contains(errs, k.dir), s >= 2:
				// The tool did not run, or it could not read an archive
				// of the kit (it names the file), or kurs's own main or
				// link failed.
				return "", fmt.Errorf("%w: %s: %s: %s", ErrKitBroken, pkgs[s][n], d.Status, errs)
			}
			failed = append(failed, "# "+pkgs[s][n]+"\n"+errs)
		}
	}
	if len(failed) > 0 {
		return "", &CompileError{Output: strings.Join(failed, "\n"), Dir: dir}
	}
	if len(done) != len(stages) {
		return "", fmt.Errorf("%w: the plan stopped after %d of %d stages", ErrKitBroken, len(done), len(stages))
	}
	return prog, nil
}

// compileStep returns the compiler's run for the package in folder rel of
// dir as import path pkg, into archive.
func compileStep(k *Kit, dir, cfgFile, pkg, rel, archive string) (sandbox.Step, error) {
	names, err := goFiles(filepath.Join(dir, filepath.FromSlash(rel)), k)
	if err != nil {
		return sandbox.Step{}, err
	}
	ip := pkg
	if pkg == "main" {
		ip = module + "/" + rel
	}
	args := []string{"-o", archive, "-trimpath", filepath.Join(dir, filepath.FromSlash(rel)) + "=>" + ip,
		"-p", pkg, "-lang=go" + GoLanguage, "-complete", "-goversion", k.Version, "-c=1", "-nolocalimports",
		"-importcfg", cfgFile, "-pack"}
	for _, n := range names {
		args = append(args, "./"+path.Join(rel, n))
	}
	// A learner's package is small and the compiler lives for a few
	// milliseconds: fewer collections cost less than the memory they would
	// save, and RLIMIT_DATA still bounds it (a class of 30 takes about a
	// tenth less processor time).
	return sandbox.Step{Path: filepath.Join(k.Tools, "compile"+exeSuffix()), Args: args, Env: gcEnv("400")}, nil
}

// gcEnv returns the collector's settings for a compiler or linker: gogc,
// and a soft memory limit below RLIMIT_DATA, so that the collector works
// hard before the limit ends the process, as it does with the defaults.
func gcEnv(gogc string) []string {
	return []string{"GOGC=" + gogc, "GOMEMLIMIT=" + strconv.FormatInt(buildMemory/4*3, 10)}
}

// limitHit reports whether a compiler or linker that ended with status
// and output ran into a build limit: a signal (the kernel's at a limit)
// or the runtime's report of memory that ran out. Lines that begin with
// "./" are the compiler's messages about the learner's files, whose text
// the learner chooses, and are not read.
func limitHit(status, out string) bool {
	if strings.HasPrefix(status, "signal:") {
		return true
	}
	for line := range strings.SplitSeq(out, "\n") {
		if !strings.HasPrefix(line, "./") && buildLimited(line) {
			return true
		}
	}
	return false
}

// goFiles returns the .go files in dir that the go command would compile
// for this platform: build constraints decide, as in go build.
func goFiles(dir string, k *Kit) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH = k.GOOS, k.GOARCH
	ctxt.CgoEnabled = false
	ctxt.BuildTags = []string{harness.LearnerTag}
	ctxt.ReleaseTags = releaseTags(k.Version)
	var names []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctxt.MatchFile(dir, name); err == nil && ok {
			names = append(names, name)
		}
	}
	return names, nil
}

// releaseTags returns the release tags of a toolchain version such as
// "go1.26.8": go1.1 up to go1.26.
func releaseTags(version string) []string {
	minor := 0
	if rest, ok := strings.CutPrefix(version, "go1."); ok {
		end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 {
			end = len(rest)
		}
		minor, _ = strconv.Atoi(rest[:end])
	}
	if minor == 0 {
		return build.Default.ReleaseTags
	}
	tags := make([]string, minor)
	for i := range tags {
		tags[i] = "go1." + strconv.Itoa(i+1)
	}
	return tags
}
