package build

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
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
	p, err := b.DirectProgram(parent, k, dir, ids)
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// Program is a learner's program that a direct build made.
type Program struct {
	Path string // the program, dir/kurs-learner
	// Sum is the program's SHA-256: programs with the same sum behave
	// alike, whatever the sources they were built from.
	Sum string
	// Ran names what this build compiled, by import path ("main" for the
	// main package), and "link" when it linked; everything else came
	// from the objects that earlier builds kept.
	Ran []string
}

// DirectProgram builds as Direct does and returns the program with its
// hash and what was built for it: what an earlier direct build of the
// same kit made from the same inputs is not made again (see objects.go).
func (b *Builder) DirectProgram(parent context.Context, k *Kit, dir string, ids []string) (*Program, error) {
	ctx, cancel := context.WithTimeout(parent, b.learnerTime())
	defer cancel()
	prog, err := b.compileAndLink(ctx, k, dir, ids, variant{out: ".kurs-build", name: "kurs-learner"})
	if err = b.learnerBuilt(parent, ctx, k, err); err != nil {
		return nil, err
	}
	return prog, nil
}

// learnerBuilt returns what a learner's build within ctx, begun under
// parent, with the kit k, ended with (err): parent's end, ErrLimit when
// the build's own time or memory ran out (the learner's code made the
// compiler work too hard), or err; a kit that proves broken is dropped.
func (b *Builder) learnerBuilt(parent, ctx context.Context, k *Kit, err error) error {
	switch {
	case parent.Err() != nil:
		return parent.Err()
	case errors.Is(err, ErrLimit) || ctx.Err() != nil:
		return ErrLimit
	case errors.Is(err, ErrKitBroken):
		// No learner's code can make an archive of the kit go missing.
		if b.verifyKit(k) != nil {
			b.dropKit(k)
		}
	}
	return err
}

// variant is where a direct build works and what it makes: its folder
// and its program, inside the module's folder, and for a build with the
// race detector, how the program links through the C compiler.
type variant struct {
	out, name string
	linker    *raceLinker
}

// unit is a package of a direct build, or its link.
type unit struct {
	pkg     string // its import path; "main", or "link"
	archive string // its archive in the build's folder (the program, for the link)
	key     string // what it is made from (see objectKey)
	sum     string // the archive's hash, once it is there
	export  string // its export data's hash, once it is there
	learner bool   // its compile errors are the learner's
	guess   bool   // it may fail: it links a guessed archive of main
	step    sandbox.Step
	made    bool // this build ran its step
}

// compileAndLink does Direct's work within ctx. Every package whose
// inputs are those of a kept object is copied from the cache; the rest
// is compiled in at most two runs of the tools: the learner's packages,
// whose export data decides whether anything else must be compiled again,
// then the test programs, main and the link.
func (b *Builder) compileAndLink(ctx context.Context, k *Kit, dir string, ids []string, v variant) (*Program, error) {
	// One launcher runs every plan of the build, started now: it gets
	// ready while the inputs are read and hashed, and the link needs no
	// launcher of its own.
	plans := sandbox.StartPlans(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize, Launcher: b.launcher(ctx)})
	defer plans.Close()
	if err := b.verifyKit(k); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKitBroken, err)
	}
	out := filepath.Join(dir, v.out)
	if err := os.Mkdir(out, 0o700); err != nil {
		return nil, err
	}
	prog := &Program{Path: filepath.Join(dir, v.name+exeSuffix())}
	newUnit := func(rel, pkg, cfgFile, kind string, deps []string) (*unit, error) {
		archive := filepath.Join(out, strings.ReplaceAll(rel, "/", "_")+".a")
		if pkg == "main" {
			archive = filepath.Join(out, "main.a")
		}
		st, parts, err := compileStep(k, dir, cfgFile, pkg, rel, archive, kind == "learner", "", "")
		if err != nil {
			return nil, err
		}
		u := &unit{pkg: pkg, archive: archive, step: st, learner: pkg != "main"}
		u.key = objectKey(k, kind, append(parts, deps...)...)
		return u, nil
	}

	// The learner's packages: compiled unless their files are those of a
	// kept archive.
	kitCfg, err := k.importcfg(out)
	if err != nil {
		return nil, err
	}
	learners := make([]*unit, len(ids))
	var todo []*unit
	for i, id := range ids {
		u, err := newUnit(id, module+"/"+id, kitCfg, "learner", nil)
		if err != nil {
			return nil, err
		}
		learners[i] = u
		if !b.have(u) {
			todo = append(todo, u)
		}
	}
	if err := b.runUnits(ctx, plans, k, dir, [][]*unit{todo}); err != nil {
		return nil, err
	}
	cfg := k.config
	for _, u := range learners {
		cfg += "packagefile " + u.pkg + "=" + u.archive + "\n"
	}
	afterLearners := filepath.Join(out, "after-1.importcfg")
	if err := os.WriteFile(afterLearners, []byte(cfg), 0o600); err != nil {
		return nil, err
	}

	// The test programs: compiled again only when the export data of a
	// learner's package they import changed.
	drivers := make([]*unit, len(ids))
	todo = nil
	for i, id := range ids {
		rel := "internal/run/" + id
		deps, err := learnerDeps(filepath.Join(dir, filepath.FromSlash(rel)), k, learners)
		if err != nil {
			return nil, err
		}
		u, err := newUnit(rel, module+"/"+rel, afterLearners, "compile", deps)
		if err != nil {
			return nil, err
		}
		drivers[i] = u
		if !b.have(u) {
			todo = append(todo, u)
		}
		cfg += "packagefile " + u.pkg + "=" + u.archive + "\n"
	}
	afterDrivers := filepath.Join(out, "after-2.importcfg")
	if err := os.WriteFile(afterDrivers, []byte(cfg), 0o600); err != nil {
		return nil, err
	}

	// main, compiled against the test programs' export data, which a
	// learner's edit seldom changes: when a test program is compiled
	// again, the main of its earlier export data is taken, and checked
	// once the new export data is there.
	mainUnit := func(exports []string) (*unit, error) {
		return newUnit("internal/run", "main", afterDrivers, "main", exports)
	}
	spec, err := mainUnit(nil)
	if err != nil {
		return nil, err
	}
	specKey := spec.key
	var main *unit
	guessed := ""
	if len(todo) == 0 {
		if main, err = mainUnit(exports(drivers)); err != nil {
			return nil, err
		}
		if !b.have(main) {
			todo = append(todo, main)
		}
	} else {
		main = spec
		main.key = ""
		if guess, ok := b.recallKey(specKey); ok {
			main.key = guess
			if b.have(main) {
				guessed = guess
			} else {
				main.key = ""
			}
		}
	}
	link, err := b.linkUnit(k, v, prog.Path, afterDrivers, main.archive)
	if err != nil {
		return nil, err
	}
	stages := [][]*unit{todo}
	if len(todo) == 0 && guessed == "" {
		// Every archive is one of an earlier build: so may the program be.
		link.key = linkKey(k, v, learners, drivers, main)
		if b.have(link) {
			prog.Sum = link.sum
			prog.Ran = ran(learners, drivers, main)
			return prog, nil
		}
		stages = nil
	}
	if main.sum == "" && !slices.Contains(todo, main) {
		stages = append(stages, []*unit{main})
	}
	stages = append(stages, []*unit{link})
	// A guessed main that does not fit the test programs' new export data
	// fails the link (the linker checks each archive's fingerprint of what
	// it imports) and is compiled anew.
	link.guess = guessed != ""
	if err := b.runUnits(ctx, plans, k, dir, stages); err != nil {
		return nil, err
	}
	if guessed != "" {
		actual, err := mainUnit(exports(drivers))
		if err != nil {
			return nil, err
		}
		if actual.key != guessed || !link.made {
			// The test programs' export data changed after all: main is
			// compiled for it, and linked again.
			link.guess = false
			if err := b.runUnits(ctx, plans, k, dir, [][]*unit{{actual}, {link}}); err != nil {
				return nil, err
			}
			main = actual
		}
	}
	if main.key == "" {
		// Compiled before its key was known: it is kept now.
		actual, err := mainUnit(exports(drivers))
		if err != nil {
			return nil, err
		}
		main.key = actual.key
		if err := b.keepUnit(main); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKitBroken, err)
		}
	}
	_ = b.rememberKey(specKey, main.key)
	link.key = linkKey(k, v, learners, drivers, main)
	if err := b.keepUnit(link); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKitBroken, err)
	}
	prog.Sum = link.sum
	prog.Ran = ran(learners, drivers, main, link)
	return prog, nil
}

// ran returns the import paths of the units this build made, in order,
// and "link" if it linked.
func ran(groups ...any) []string {
	var names []string
	for _, g := range groups {
		us, ok := g.([]*unit)
		if u, one := g.(*unit); one {
			us, ok = []*unit{u}, true
		}
		for _, u := range us {
			if ok && u.made {
				names = append(names, u.pkg)
			}
		}
	}
	return names
}

// runUnits runs the steps of the units of stages, stage by stage, as one
// plan of plans, and keeps the archives they made; empty stages are left
// out, and nothing runs when all are. A unit that compiled sets made.
func (b *Builder) runUnits(ctx context.Context, plans *sandbox.Plans, k *Kit, dir string, stages [][]*unit) error {
	var plan [][]sandbox.Step
	var units [][]*unit
	for _, stage := range stages {
		if len(stage) == 0 {
			continue
		}
		steps := make([]sandbox.Step, len(stage))
		for i, u := range stage {
			steps[i] = u.step
		}
		plan, units = append(plan, steps), append(units, stage)
	}
	if len(plan) == 0 {
		return nil
	}
	done, err := plans.Run(sandbox.Plan{Dir: dir, Env: b.Env(), Stages: plan})
	if ctx.Err() != nil {
		return ErrLimit // the build's time ran out, or the caller's (Direct tells)
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrKitBroken, err)
	}
	var failed []string // the learner's packages' errors, in the order of ids
	for s, stage := range done {
		for n, d := range stage {
			u := units[s][n]
			errs := strings.TrimRight(string(d.Output), "\n")
			switch {
			case d.OK:
				u.made = true
				if k.Race {
					// Counted as the one race build it is part of.
				} else if u.pkg == "link" {
					b.stats.links.Add(1)
				} else {
					b.stats.compiles.Add(1)
				}
				continue
			case limitHit(d.Status, errs):
				return ErrLimit
			case u.guess:
				continue
			case !strings.HasPrefix(d.Status, "exit status"), strings.Contains(errs, k.dir), !u.learner:
				// The tool did not run, or it could not read an archive
				// of the kit (it names the file), or kurs's own main or
				// link failed.
				return fmt.Errorf("%w: %s: %s: %s", ErrKitBroken, u.pkg, d.Status, errs)
			}
			failed = append(failed, "# "+u.pkg+"\n"+errs)
		}
	}
	// What compiled is kept, also beside a package that did not: the
	// checker builds the others again without it.
	for _, stage := range units {
		for _, u := range stage {
			if u.made && u.pkg != "link" {
				if err := b.keepUnit(u); err != nil {
					return fmt.Errorf("%w: %v", ErrKitBroken, err)
				}
			}
		}
	}
	if len(failed) > 0 {
		return &CompileError{Output: strings.Join(failed, "\n"), Dir: dir}
	}
	if len(done) != len(plan) {
		return fmt.Errorf("%w: the plan stopped after %d of %d stages", ErrKitBroken, len(done), len(plan))
	}
	return nil
}

// have copies the kept object of u's inputs into place, if there is one,
// and reports whether it did.
func (b *Builder) have(u *unit) bool {
	if u.key == "" {
		return false
	}
	mode := os.FileMode(0o600)
	if u.pkg == "link" {
		mode = 0o755
	}
	sum, ok := b.fetch(u.key, u.archive, mode)
	if !ok {
		return false
	}
	if u.pkg != "link" {
		export, err := exportHash(u.archive)
		if err != nil {
			return false
		}
		u.export = export
	}
	u.sum = sum
	return true
}

// keepUnit records the hash (and for a package, the export data's) of
// what u's step made, and keeps it for later builds when its key is
// known. A build whose object could not be kept is still a build.
func (b *Builder) keepUnit(u *unit) error {
	var err error
	if u.key != "" {
		mode := os.FileMode(0o600)
		if u.pkg == "link" {
			mode = 0o755
		}
		u.sum, err = b.keep(u.key, u.archive, mode)
	}
	if u.key == "" || err != nil {
		if u.sum, _, err = hashFile(u.archive); err != nil {
			return err
		}
	}
	if u.pkg != "link" {
		u.export, err = exportHash(u.archive)
	}
	return err
}

// linkFlags are the linker's settings besides its files.
var linkFlags = []string{"-buildmode=exe", "-s", "-w"}

// linkUnit returns the link of the program prog from the archive of
// main, with the packages of cfgFile; of a race kit's, through the C
// compiler as v says.
func (b *Builder) linkUnit(k *Kit, v variant, prog, cfgFile, main string) (*unit, error) {
	args := append([]string{"-o", prog, "-importcfg", cfgFile, "-X=runtime.godebugDefault=" + k.GODEBUG}, linkFlags...)
	// As the go command does for -trimpath: no GOROOT in the program.
	// See compileStep for GOGC.
	env := append(gcEnv("off"), "GOROOT=")
	if k.Race {
		if v.linker == nil {
			return nil, fmt.Errorf("%w: a race build without its C linker", ErrKitBroken)
		}
		// The Go linker's files for the C compiler go into the build's
		// folder (a -tmpdir of the caller's is not removed by it), so that
		// they go with the module even when the link is killed.
		tmp := filepath.Join(filepath.Dir(prog), v.out, "link")
		if err := os.Mkdir(tmp, 0o700); err != nil {
			return nil, err
		}
		args = append(append(args, raceLinkFlags...), v.linker.extldflags(), v.linker.flag, "-tmpdir="+tmp)
		env = append(env, v.linker.env...)
	}
	return &unit{pkg: "link", archive: prog, step: sandbox.Step{Path: filepath.Join(k.Tools, "link"+exeSuffix()),
		Args: append(args, main), Env: env}}, nil
}

// raceLinkFlags are the linker's settings for a program with the race
// detector besides linkFlags and the C linker's (raceLinker.extldflags):
// linked by the C compiler, as raceFlags says.
var raceLinkFlags = []string{"-race", "-linkmode=external"}

// linkKey names a link by the hashes of every archive that is not the
// kit's, and for a race kit's, by how the C compiler links (v).
func linkKey(k *Kit, v variant, groups ...any) string {
	parts := append([]string{k.GODEBUG}, linkFlags...)
	if k.Race && v.linker != nil {
		// The C compiler links the program too.
		parts = append(append(parts, raceLinkFlags...), v.linker.extldflags(), raceToolchain())
	}
	add := func(u *unit) { parts = append(parts, u.pkg, u.sum) }
	for _, g := range groups {
		switch g := g.(type) {
		case []*unit:
			for _, u := range g {
				add(u)
			}
		case *unit:
			add(g)
		}
	}
	return objectKey(k, "link", parts...)
}

// exports returns the export data's hash of each unit, with its import
// path.
func exports(units []*unit) []string {
	var e []string
	for _, u := range units {
		e = append(e, "import "+u.pkg+" "+u.export)
	}
	return e
}

// learnerDeps returns the export data's hashes of the learner's packages
// that the package in dir imports: what its compile depends on besides
// its own files and the kit. When its imports cannot be read, it depends
// on every one (its compile then fails anyway).
func learnerDeps(dir string, k *Kit, learners []*unit) ([]string, error) {
	names, err := goFiles(dir, k)
	if err != nil {
		return nil, err
	}
	imports := map[string]bool{}
	fset := token.NewFileSet()
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ImportsOnly)
		if err != nil {
			return exports(learners), nil
		}
		for _, imp := range f.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil {
				imports[p] = true
			}
		}
	}
	var deps []*unit
	for _, u := range learners {
		if imports[u.pkg] {
			deps = append(deps, u)
		}
	}
	return exports(deps), nil
}

// compileStep returns the compiler's run for the package in folder rel of
// dir as import path pkg, into archive, and the parts of its key: its
// settings and its files, each with its name. learner says whether it is
// a learner's package. The files are named as in the folder rel of the
// module (see -trimpath), or when as is not "", as in the folder as; the
// compiler applies the rewrite rule rewrite (-trimpath's "from=>to")
// before that one, when it is not "".
func compileStep(k *Kit, dir, cfgFile, pkg, rel, archive string, learner bool, as, rewrite string) (sandbox.Step, []string, error) {
	names, err := goFiles(filepath.Join(dir, filepath.FromSlash(rel)), k)
	if err != nil {
		return sandbox.Step{}, nil, err
	}
	ip := pkg
	switch {
	case as != "":
		ip = module + "/" + as
	case pkg == "main":
		ip = module + "/" + rel
	}
	// No debugging information, as in the kit: the link strips it.
	flags := []string{"-p", pkg, "-lang=go" + GoLanguage, "-complete", "-goversion", k.Version, "-c=1", "-nolocalimports", "-dwarf=false"}
	if k.Race {
		flags = append(flags, "-race")
	}
	if learner {
		// A learner's package is compiled without inlining: its export
		// data then holds no function bodies, so a save that changes
		// only bodies leaves it as it was, and the test program that
		// imports it is not compiled again (a body it had inlined would
		// be stale otherwise). The calls cost a few nanoseconds more,
		// nothing beside the exercises' time limits.
		flags = append(flags, "-l")
	}
	trim := filepath.Join(dir, filepath.FromSlash(rel)) + "=>" + ip
	if rewrite != "" {
		trim = rewrite + ";" + trim
	}
	args := append([]string{"-o", archive, "-trimpath", trim}, flags...)
	args = append(args, "-importcfg", cfgFile, "-pack")
	parts := append([]string{ip, strings.Join(flags, " ")}, names...)
	if rewrite != "" {
		// The rule names the build's folder, which differs from build to
		// build; what it names the file as is what the object holds.
		_, to, _ := strings.Cut(rewrite, "=>")
		parts = append(parts, "rewrite "+to)
	}
	for _, n := range names {
		args = append(args, "./"+path.Join(rel, n))
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel), n))
		if err != nil {
			return sandbox.Step{}, nil, err
		}
		parts = append(parts, string(data))
	}
	// A learner's package is small and the compiler lives for a few
	// milliseconds: fewer collections cost less than the memory they would
	// save, and RLIMIT_DATA still bounds it (a class of 30 takes about a
	// tenth less processor time).
	return sandbox.Step{Path: filepath.Join(k.Tools, "compile"+exeSuffix()), Args: args, Env: gcEnv("400")}, parts, nil
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
	if k.Race {
		// As go build -race, which builds with cgo.
		ctxt.CgoEnabled = true
		ctxt.BuildTags = append(ctxt.BuildTags, "race")
	}
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
