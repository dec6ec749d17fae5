package checker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/sandbox"
)

// A learner's program is built by calling the compiler and the linker
// directly, the way the go command would: per build, only the learner's
// packages, the test programs and their main are compiled; everything
// else (the standard library, the harness, the support packages) comes
// compiled from a kit. The go command's own work for a build (hashing the
// source of every dependency, the build cache's bookkeeping, a work folder
// of its own) costs more than compiling a learner's package, and a class
// of submissions pays it once per submission.
//
// Whenever a direct build cannot tell the learner's mistake from its own
// (a missing archive, a failed link), the go command builds instead, so
// the verdict is the same either way.

// kit is what direct builds of one set of exercises need besides the
// learner's code.
type kit struct {
	Tools   string // the folder of compile and link (GOTOOLDIR)
	Version string // the toolchain's version, e.g. "go1.26.8"
	GOOS    string // the platform the toolchain builds for
	GOARCH  string
	GODEBUG string // the main package's default GODEBUG settings
	Config  string // importcfg lines of every compiled package
	dir     string // where the kit lives
}

// kitVersion changes when a kit's layout does: older kits are not used.
const kitVersion = "4"

// kitEntry is a kit of this process, with the exercises it serves: a kit
// of a set of exercises serves any part of it, so grading, whose
// submissions hold different parts of a course, makes one.
type kitEntry struct {
	once sync.Once
	goID string
	set  map[*course.Exercise]bool
	done bool // once has run; kit and err hold its outcome
	kit  *kit
	err  error
}

var (
	kitMu   sync.Mutex
	kitList []*kitEntry
)

// kitFor returns a kit that serves exs, making one on first use: from
// kurs's cache when an earlier run made it, else with the go command. A kit
// that cannot be made is not tried again in this process, unless ctx
// ended.
func (c *Checker) kitFor(ctx context.Context, exs []*course.Exercise) (*kit, error) {
	goID, err := c.goIdentity()
	if err != nil {
		return nil, err
	}
	kitMu.Lock()
	var e *kitEntry
	for _, k := range kitList {
		if k.goID != goID {
			continue
		}
		if (k.done && k.err == nil && covers(k.set, exs)) || sameSet(k.set, exs) {
			e = k
			break
		}
	}
	if e == nil {
		e = &kitEntry{goID: goID, set: map[*course.Exercise]bool{}}
		for _, ex := range exs {
			e.set[ex] = true
		}
		kitList = append(kitList, e)
	}
	kitMu.Unlock()
	e.once.Do(func() {
		k, err := c.makeKit(ctx, exs)
		kitMu.Lock()
		e.kit, e.err, e.done = k, err, true
		if err != nil && ctx.Err() != nil {
			forgetKit(func(x *kitEntry) bool { return x == e })
		}
		kitMu.Unlock()
	})
	kitMu.Lock()
	defer kitMu.Unlock()
	return e.kit, e.err
}

func covers(set map[*course.Exercise]bool, exs []*course.Exercise) bool {
	for _, ex := range exs {
		if !set[ex] {
			return false
		}
	}
	return true
}

func sameSet(set map[*course.Exercise]bool, exs []*course.Exercise) bool {
	return len(set) == len(exs) && covers(set, exs)
}

// forgetKit removes the entries that drop says from kitList; kitMu is held.
func forgetKit(drop func(*kitEntry) bool) {
	kitList = slices.DeleteFunc(kitList, drop)
}

// whole reports whether every archive of the kit is still there.
func (k *kit) whole() bool {
	for line := range strings.SplitSeq(strings.TrimSpace(k.Config), "\n") {
		_, file, _ := strings.Cut(line, "=")
		if _, err := os.Stat(file); err != nil {
			return false
		}
	}
	return true
}

// dropKit forgets a kit that lost an archive, here and on disk. It is
// renamed aside before it is removed, so that a kit made anew at the same
// place meanwhile is not the one removed.
func dropKit(k *kit) {
	kitMu.Lock()
	forgetKit(func(e *kitEntry) bool { return e.kit == k })
	kitMu.Unlock()
	gone := k.dir + ".gone-" + strconv.FormatUint(rand.Uint64(), 36)
	if os.Rename(k.dir, gone) == nil {
		_ = os.RemoveAll(gone)
	}
}

// probeModule lays out the module from which a kit is made: the references
// of exs as one learner's program, and a package that imports everything a
// learner may import, so that its archive is in the kit too.
func probeModule(exs []*course.Exercise) (map[string][]byte, error) {
	files := make([][]source, len(exs))
	all := make([]int, len(exs))
	allowed := map[string]bool{}
	for i, ex := range exs {
		sol, err := ex.Solution()
		if err != nil {
			return nil, err
		}
		for _, f := range sol {
			files[i] = append(files[i], source{Name: f.Name, Path: path.Join(ex.ID, f.Name), Data: f.Data})
		}
		all[i] = i
		for _, imp := range ex.Imports {
			allowed[imp] = true
		}
	}
	mod, err := combinedModule(exs, files, all)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("// Package allow imports what learners may import.\npackage allow\n\nimport (\n")
	for _, imp := range slices.Sorted(func(yield func(string) bool) {
		for imp := range allowed {
			if !yield(imp) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "\t_ %q\n", imp)
	}
	b.WriteString(")\n")
	mod["internal/allow/allow.go"] = []byte(b.String())
	return mod, nil
}

// makeKit finds or makes the kit of exs.
func (c *Checker) makeKit(ctx context.Context, exs []*course.Exercise) (*kit, error) {
	mod, err := probeModule(exs)
	if err != nil {
		return nil, err
	}
	key, err := c.contentKey(mod)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(cacheRoot(), "kits")
	dir := filepath.Join(root, kitVersion+"-"+key)
	if k, err := readKit(dir); err == nil {
		return k, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(c.TempDir, "kurs-kit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := writeFiles(tmp, mod); err != nil {
		return nil, err
	}
	k, err := c.listKit(ctx, tmp, exs)
	if err != nil {
		return nil, err
	}
	// The archives are linked (or copied) out of the build cache, which
	// trimming may empty at any time, into the kit's own folder; the kit
	// appears at once, by a rename, when it is complete.
	next, err := os.MkdirTemp(root, ".new-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(next)
	var cfg strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(k.Config), "\n") {
		pkg, file, _ := strings.Cut(strings.TrimPrefix(line, "packagefile "), "=")
		name := strconv.Itoa(i) + ".a"
		if err := linkOrCopy(file, filepath.Join(next, name)); err != nil {
			return nil, err
		}
		fmt.Fprintf(&cfg, "packagefile %s=%s\n", pkg, filepath.Join(dir, name))
	}
	k.Config = cfg.String()
	// The learner's packages are compiled with the kit's importcfg as it
	// is: one file for every build.
	if err := os.WriteFile(filepath.Join(next, "importcfg"), []byte(k.Config), 0o644); err != nil {
		return nil, err
	}
	data, err := json.Marshal(k)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(next, "kit.json"), data, 0o644); err != nil {
		return nil, err
	}
	trimKits(root, dir)
	if err := os.Rename(next, dir); err != nil {
		// Another kurs made the same kit first.
		if k, err := readKit(dir); err == nil {
			return k, nil
		}
		return nil, err
	}
	k.dir = dir
	return k, nil
}

// readKit reads the kit in dir, if it is there and whole.
func readKit(dir string) (*kit, error) {
	data, err := os.ReadFile(filepath.Join(dir, "kit.json"))
	if err != nil {
		return nil, err
	}
	var k kit
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "importcfg")); err != nil || k.Tools == "" || k.Config == "" {
		return nil, errors.New("incomplete kit")
	}
	k.dir = dir
	now := time.Now()
	_ = os.Chtimes(filepath.Join(dir, "kit.json"), now, now) // in use: kept by trimKits
	return &k, nil
}

// trimKits removes the kits in root not used for a week but keep: a kit
// of another course's content or another go version is seldom used again.
// A kit removed while a build reads it only makes that build fall back to
// the go command.
func trimKits(root, keep string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if dir == keep || !e.IsDir() {
			continue
		}
		info, err := os.Stat(filepath.Join(dir, "kit.json"))
		if err != nil && (strings.HasPrefix(e.Name(), ".new-") || strings.Contains(e.Name(), ".gone-")) {
			// Left by a kurs that was killed while making a kit.
			info, err = e.Info()
		}
		if err == nil && time.Since(info.ModTime()) > 7*24*time.Hour {
			_ = os.RemoveAll(dir)
		}
	}
}

// listKit asks the go command, in the probe module at dir, for the
// compiled archive of every package a learner's program of exs may need
// but the learner's packages and the test programs, and for how it calls
// the compiler and the linker.
func (c *Checker) listKit(ctx context.Context, dir string, exs []*course.Exercise) (*kit, error) {
	env, err := c.goOutput(ctx, dir, "env", "GOTOOLDIR", "GOVERSION", "GOOS", "GOARCH")
	if err != nil {
		return nil, err
	}
	vars := strings.Split(strings.TrimSpace(string(env)), "\n")
	if len(vars) != 4 {
		return nil, fmt.Errorf("go env: %q", env)
	}
	out, err := c.goOutput(ctx, dir, "list", "-export", "-trimpath", "-tags="+harness.LearnerTag, "-deps",
		"-json=ImportPath,Export,DefaultGODEBUG,Name", "./internal/run", "./internal/allow")
	if err != nil {
		return nil, err
	}
	perBuild := map[string]bool{module + "/internal/run": true, module + "/internal/allow": true}
	for _, ex := range exs {
		perBuild[module+"/"+ex.ID] = true
		perBuild[module+"/internal/run/"+ex.ID] = true
	}
	k := &kit{Tools: vars[0], Version: vars[1], GOOS: vars[2], GOARCH: vars[3]}
	var cfg strings.Builder
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export, DefaultGODEBUG, Name string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if p.ImportPath == module+"/internal/run" {
			k.GODEBUG = p.DefaultGODEBUG
		}
		if p.Export != "" && !perBuild[p.ImportPath] {
			fmt.Fprintf(&cfg, "packagefile %s=%s\n", p.ImportPath, p.Export)
		}
	}
	k.Config = cfg.String()
	if k.Tools == "" || k.Config == "" {
		return nil, errors.New("go list: no packages")
	}
	return k, nil
}

// goOutput runs the go command in dir, as a build of the course's own code,
// and returns its standard output.
func (c *Checker) goOutput(ctx context.Context, dir string, args ...string) ([]byte, error) {
	goCmd, err := c.goCommand()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, trustedBuildTimeout)
	defer cancel()
	cmd := sandbox.Command(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize}, goCmd, args...)
	cmd.Dir = dir
	gotmp := filepath.Join(dir, ".gotmp")
	if err := os.MkdirAll(gotmp, 0o700); err != nil {
		return nil, err
	}
	cmd.Env = append(BuildEnv(), "GOTMPDIR="+gotmp)
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	sandbox.Kill(cmd)
	if err != nil {
		return nil, fmt.Errorf("go %s: %w: %s", args[0], err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// goCommand returns the go command that builds.
func (c *Checker) goCommand() (string, error) {
	if c.Go != "" {
		return c.Go, nil
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command: %w", err)
	}
	return goCmd, nil
}

// linkOrCopy makes dst the same file as src: a hard link where the file
// system allows it, else a copy.
func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// errKitBroken means a direct build failed for a reason that is not the
// learner's: the go command must build instead.
var errKitBroken = errors.New("direct build: the kit does not fit")

// buildDirect compiles and links the learner's program of the combined
// module mod (see combinedModule), whose sources are written in dir, with
// the exercises in todo. It returns the program, or the build's Problem
// in the go command's words (a "# package" line above each package's
// errors), or errKitBroken.
func (c *Checker) buildDirect(parent context.Context, k *kit, dir string, exs []*course.Exercise, todo []int) (string, *Problem, error) {
	ctx, cancel := context.WithTimeout(parent, buildTimeout)
	defer cancel()
	prog, p, err := c.compileAndLink(ctx, k, dir, exs, todo)
	switch {
	case parent.Err() != nil:
		return "", nil, parent.Err()
	case errors.Is(err, errBuildLimit) || ctx.Err() != nil:
		// The build's own time or memory ran out: the learner's code made
		// the compiler work too hard.
		return "", &Problem{Kind: ProblemBuildLimit}, nil
	}
	return prog, p, err
}

// compileAndLink does buildDirect's work within ctx.
func (c *Checker) compileAndLink(ctx context.Context, k *kit, dir string, exs []*course.Exercise, todo []int) (string, *Problem, error) {
	out := filepath.Join(dir, ".kurs-build")
	if err := os.Mkdir(out, 0o700); err != nil {
		return "", nil, err
	}
	// One plan, so one launcher, for the whole build: the learner's
	// packages, then their test programs, then main, then the link. Each
	// stage's importcfg names what the stages before make; a stage with an
	// error is the last.
	prog := filepath.Join(dir, "kurs-learner"+exeSuffix())
	main := filepath.Join(out, "main.a")
	cfg, cfgFile := k.Config, filepath.Join(k.dir, "importcfg")
	var stages [][]sandbox.Step
	var pkgs [][]string // the import path of each step, for its errors
	for _, prefix := range []string{"", "internal/run/"} {
		var stage []sandbox.Step
		var names []string
		var more strings.Builder
		for _, i := range todo {
			rel := prefix + exs[i].ID
			archive := filepath.Join(out, strings.ReplaceAll(rel, "/", "_")+".a")
			st, err := compileStep(k, dir, cfgFile, module+"/"+rel, rel, archive)
			if err != nil {
				return "", nil, err
			}
			stage, names = append(stage, st), append(names, module+"/"+rel)
			fmt.Fprintf(&more, "packagefile %s/%s=%s\n", module, rel, archive)
		}
		stages, pkgs = append(stages, stage), append(pkgs, names)
		cfg += more.String()
		cfgFile = filepath.Join(out, "after-"+strconv.Itoa(len(stages))+".importcfg")
		if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
			return "", nil, err
		}
	}
	st, err := compileStep(k, dir, cfgFile, "main", "internal/run", main)
	if err != nil {
		return "", nil, err
	}
	link := sandbox.Step{Path: filepath.Join(k.Tools, "link"+exeSuffix()), Args: []string{"-o", prog, "-importcfg", cfgFile,
		"-X=runtime.godebugDefault=" + k.GODEBUG, "-buildmode=exe", "-s", "-w", main},
		// As the go command does for -trimpath: no GOROOT in the program.
		// See compileStep for GOGC.
		Env: append(gcEnv("off"), "GOROOT=")}
	stages = append(stages, []sandbox.Step{st}, []sandbox.Step{link})
	pkgs = append(pkgs, []string{"main"}, []string{"link"})

	done, err := sandbox.RunPlan(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize},
		sandbox.Plan{Dir: dir, Env: BuildEnv(), Stages: stages})
	if ctx.Err() != nil {
		return "", nil, errBuildLimit // the build's time ran out, or the caller's (buildDirect tells)
	}
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", errKitBroken, err)
	}
	var failed []string // the learner's packages' errors, in the order of todo
	for s, stage := range done {
		for n, d := range stage {
			errs := strings.TrimRight(string(d.Output), "\n")
			switch {
			case d.OK:
				continue
			case limitHit(d.Status, errs):
				return "", nil, errBuildLimit
			case !strings.HasPrefix(d.Status, "exit status"), strings.Contains(errs, k.dir), s >= 2:
				// The tool did not run, or it could not read an archive
				// of the kit (it names the file), or kurs's own main or
				// link failed.
				return "", nil, fmt.Errorf("%w: %s: %s: %s", errKitBroken, pkgs[s][n], d.Status, errs)
			}
			failed = append(failed, "# "+pkgs[s][n]+"\n"+errs)
		}
	}
	if len(failed) > 0 {
		p := compileProblem(dir, strings.Join(failed, "\n"))
		p.output = strings.Join(failed, "\n")
		return "", p, nil
	}
	if len(done) != len(stages) {
		return "", nil, fmt.Errorf("%w: the plan stopped after %d of %d stages", errKitBroken, len(done), len(stages))
	}
	return prog, nil, nil
}

// compileStep returns the compiler's run for the package in folder rel of
// dir as import path pkg, into archive.
func compileStep(k *kit, dir, cfgFile, pkg, rel, archive string) (sandbox.Step, error) {
	names, err := goFiles(filepath.Join(dir, filepath.FromSlash(rel)), k)
	if err != nil {
		return sandbox.Step{}, err
	}
	ip := pkg
	if pkg == "main" {
		ip = module + "/" + rel
	}
	args := []string{"-o", archive, "-trimpath", filepath.Join(dir, filepath.FromSlash(rel)) + "=>" + ip,
		"-p", pkg, "-lang=go" + goLanguage, "-complete", "-goversion", k.Version, "-c=1", "-nolocalimports",
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

// errBuildLimit means a compiler or the linker ran into a build limit, or
// the build's time ran out.
var errBuildLimit = errors.New("build limit")

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
func goFiles(dir string, k *kit) ([]string, error) {
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

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
