package build

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"

	"github.com/kurs-course/kurs/internal/sandbox"
)

// Member is one learner's package of a batch program (see BatchProgram):
// an exercise of one submission, with its test program.
type Member struct {
	// Name is the word that runs this member's test program as the
	// program's first argument, and the folder of the batch's folder that
	// holds its files, laid out as a direct build's: the learner's package
	// in ID, the test program (package run, with Main) in internal/run/ID.
	// Two members of a batch have different names.
	Name string
	// ID is the exercise.
	ID string
}

// BatchPrefix is what the import paths of member name's packages begin
// with in a batch program, where a direct build's begin with the module's
// path and a slash: the runtime names its functions by them.
func BatchPrefix(name string) string { return module + "/internal/batch/" + name + "/" }

// ErrBatch means a batch program could not be made as one: its members
// are built each alone instead.
var ErrBatch = errors.New("direct build: no batch program")

// maxBatchStatic bounds a batch program's memory before it runs (its code,
// data and zeroed variables). Every member's process holds every other
// member's variables, so that one member's huge array would cost all the
// others their memory limit.
const maxBatchStatic = 64 << 20

// BatchProgram compiles the members' packages and test programs as a
// direct build does and links them into one program whose first argument
// names the member whose test program runs: one link for many members,
// where the link is the largest cost of grading a submission. Each
// member's packages get import paths of its own (BatchPrefix), while the
// files keep the names they have in a direct build, so that a frame of the
// learner's code reads the same.
//
// Go initialises every package a program holds: a batch is only for
// members whose package initialisation runs nothing but allocations (the
// checker decides). It returns the program and the names of the members
// in it; a member whose package or test program does not compile is left
// out, and a build of its own tells why. The error is ErrLimit, ErrBatch
// or ErrKitBroken: then no member is in a program.
func (b *Builder) BatchProgram(parent context.Context, k *Kit, dir string, members []Member) (*Program, []string, error) {
	ctx, cancel := context.WithTimeout(parent, b.learnerTime())
	defer cancel()
	prog, in, err := b.batch(ctx, k, dir, members)
	switch {
	case parent.Err() != nil:
		return nil, nil, parent.Err()
	case errors.Is(err, ErrLimit) || ctx.Err() != nil:
		return nil, nil, ErrLimit
	case errors.Is(err, ErrKitBroken):
		if b.verifyKit(k) != nil {
			b.dropKit(k)
		}
	}
	return prog, in, err
}

// batch does BatchProgram's work within ctx.
func (b *Builder) batch(ctx context.Context, k *Kit, dir string, members []Member) (*Program, []string, error) {
	if len(members) == 0 {
		return nil, nil, ErrBatch
	}
	plans := sandbox.StartPlans(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize, Launcher: b.launcher(ctx)})
	defer plans.Close()
	if err := b.verifyKit(k); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrKitBroken, err)
	}
	out := filepath.Join(dir, ".kurs-build")
	if err := os.Mkdir(out, 0o700); err != nil {
		return nil, nil, err
	}
	prog := &Program{Path: filepath.Join(dir, "kurs-learner"+exeSuffix())}
	newUnit := func(name, rel, as, pkg, cfgFile, kind string, deps []string) (*unit, error) {
		archive := filepath.Join(out, name+"_"+strings.ReplaceAll(as, "/", "_")+".a")
		if pkg == "main" {
			archive = filepath.Join(out, "main.a")
		}
		st, parts, err := compileStep(k, dir, cfgFile, pkg, rel, archive, kind == "learner", as)
		if err != nil {
			return nil, err
		}
		u := &unit{pkg: pkg, archive: archive, step: st, learner: pkg != "main"}
		u.key = objectKey(k, kind, append(parts, deps...)...)
		return u, nil
	}
	// ok reports whether u's archive is there: kept by an earlier build,
	// or compiled by this one.
	ok := func(u *unit) bool { return u.sum != "" }
	// run runs units as one stage; those that fail to compile are the
	// learner's and are left out by ok.
	run := func(units []*unit) error {
		var todo []*unit
		for _, u := range units {
			if !b.have(u) {
				todo = append(todo, u)
			}
		}
		err := b.runUnits(ctx, plans, k, dir, [][]*unit{todo})
		var ce *CompileError
		if errors.As(err, &ce) {
			return nil
		}
		return err
	}

	// The learners' packages, each as a path of its own.
	learners := make([]*unit, len(members))
	for i, m := range members {
		u, err := newUnit(m.Name, m.Name+"/"+m.ID, m.ID, BatchPrefix(m.Name)+m.ID, filepath.Join(k.dir, "importcfg"), "learner", nil)
		if err != nil {
			return nil, nil, err
		}
		learners[i] = u
	}
	if err := run(learners); err != nil {
		return nil, nil, err
	}

	// The test programs, each importing its own member's package by the
	// path a direct build gives it.
	cfg := k.config
	drivers := make([]*unit, len(members))
	var built []*unit
	for i, m := range members {
		l := learners[i]
		if !ok(l) {
			continue
		}
		own := k.config + "importmap " + module + "/" + m.ID + "=" + l.pkg + "\npackagefile " + l.pkg + "=" + l.archive + "\n"
		cfgFile := filepath.Join(out, m.Name+".importcfg")
		if err := os.WriteFile(cfgFile, []byte(own), 0o600); err != nil {
			return nil, nil, err
		}
		rel := "internal/run/" + m.ID
		u, err := newUnit(m.Name, m.Name+"/"+rel, rel, BatchPrefix(m.Name)+rel, cfgFile, "compile", []string{"import " + module + "/" + m.ID + " " + l.pkg + " " + l.export})
		if err != nil {
			return nil, nil, err
		}
		drivers[i] = u
		built = append(built, u)
	}
	if err := run(built); err != nil {
		return nil, nil, err
	}
	var in []string
	var src strings.Builder
	src.WriteString("// A batch of learners' programs: the first argument names the member\n// whose test program runs.\npackage main\n\nimport (\n\t\"os\"\n\n")
	for i, m := range members {
		if d := drivers[i]; d != nil && ok(d) {
			in = append(in, m.Name)
			fmt.Fprintf(&src, "\tr%d %q\n", i, d.pkg)
			cfg += "packagefile " + learners[i].pkg + "=" + learners[i].archive + "\npackagefile " + d.pkg + "=" + d.archive + "\n"
		}
	}
	if len(in) == 0 {
		return nil, nil, nil
	}
	src.WriteString(")\n\nfunc main() {\n\tif len(os.Args) < 2 {\n\t\tos.Exit(3)\n\t}\n\tname := os.Args[1]\n\tos.Args = append(os.Args[:1], os.Args[2:]...)\n\tswitch name {\n")
	for i, m := range members {
		if d := drivers[i]; d != nil && ok(d) {
			fmt.Fprintf(&src, "\tcase %q:\n\t\tr%d.Main()\n", m.Name, i)
		}
	}
	src.WriteString("\t}\n\tos.Exit(3)\n}\n")
	main, err := format.Source([]byte(src.String()))
	if err != nil {
		return nil, nil, err
	}
	if err := WriteModule(dir, map[string][]byte{"internal/batch/main.go": main}); err != nil {
		return nil, nil, err
	}
	cfgFile := filepath.Join(out, "batch.importcfg")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		return nil, nil, err
	}
	var exports []string
	var units []*unit
	for i := range members {
		if d := drivers[i]; d != nil && ok(d) {
			exports = append(exports, "import "+d.pkg+" "+d.export)
			units = append(units, learners[i], d)
		}
	}
	mainUnit, err := newUnit("main", "internal/batch", "internal/batch", "main", cfgFile, "main", exports)
	if err != nil {
		return nil, nil, err
	}
	link, err := b.linkUnit(k, variant{}, prog.Path, cfgFile, mainUnit.archive)
	if err != nil {
		return nil, nil, err
	}
	var stages [][]*unit
	if !b.have(mainUnit) {
		stages = append(stages, []*unit{mainUnit})
	}
	if len(stages) == 0 {
		link.key = linkKey(k, variant{}, units, mainUnit)
		if b.have(link) {
			prog.Sum = link.sum
			return prog, in, nil
		}
	}
	stages = append(stages, []*unit{link})
	if err := b.runUnits(ctx, plans, k, dir, stages); err != nil {
		var ce *CompileError
		if errors.As(err, &ce) {
			// kurs's own main or link: no member's doing alone.
			return nil, nil, fmt.Errorf("%w: %v", ErrBatch, ce.Output)
		}
		return nil, nil, err
	}
	if size, err := staticSize(prog.Path); err != nil || size > maxBatchStatic {
		return nil, nil, fmt.Errorf("%w: %d bytes before it runs", ErrBatch, size)
	}
	link.key = linkKey(k, variant{}, units, mainUnit)
	if err := b.keepUnit(link); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrKitBroken, err)
	}
	prog.Sum = link.sum
	return prog, in, nil
}

// staticSize returns how much memory the program prog takes before it
// runs: every section loaded into memory, zeroed variables included.
func staticSize(prog string) (int64, error) {
	f, err := elf.Open(prog)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var size int64
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 {
			size += int64(s.Size)
		}
	}
	return size, nil
}
