package build

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/internal/sandbox"
)

// Member is one learner's package of a batch program (see BatchProgram):
// an exercise of one submission, with its test program merged into it.
type Member struct {
	// Name is the word that runs this member's test program as the
	// program's first argument, and the folder of the batch's folder that
	// holds its package, in the folder ID. Two members of a batch have
	// different names.
	Name string
	// ID is the exercise.
	ID string
	// Driver is the file of the member's package that holds the test
	// program, with its main named KursMain; the compiler names it as the
	// test program's file of a program of the member's own.
	Driver string
}

// BatchPrefix is what the import paths of member name's packages begin
// with in a batch program, where a direct build's begin with the module's
// path and a slash: the runtime names its functions by them.
func BatchPrefix(name string) string { return module + "/internal/batch/" + name + "/" }

// ErrBatch means a batch program could not be made as one: its members
// are built each alone instead.
var ErrBatch = errors.New("direct build: no batch program")

// maxBatchStatic bounds a batch program's memory before it runs (its code,
// data and zeroed variables), and maxBatchHeap the heap its packages'
// initialisation leaves: every member's process holds every other
// member's variables, so that one member's huge array would cost all the
// others their memory limit, and the collector's time to scan it. A batch
// of 16 submissions of the course maps about 3 MiB and leaves a few
// hundred kilobytes of heap.
const (
	maxBatchStatic = 16 << 20
	maxBatchHeap   = 4 << 20
)

// BatchProgram compiles the members' packages, each with its test
// program merged into it, and links them into one program whose first
// argument names the member whose test program runs: one link for many
// members, where the link is the largest cost of grading a submission,
// and one compile for each. Each member's package gets an import path of
// its own (BatchPrefix), while its files keep the names they have in a
// direct build, so that a frame of the learner's code reads the same.
//
// Go initialises every package a program holds: a batch is only for
// members whose package initialisation runs nothing but allocations (the
// checker decides). It returns the program and the names of the members
// in it; a member whose package does not compile is left out, and a
// build of its own tells why. The error is ErrLimit, ErrBatch or
// ErrKitBroken: then no member is in a program.
func (b *Builder) BatchProgram(parent context.Context, k *Kit, dir string, members []Member) (*Program, []string, error) {
	ctx, cancel := context.WithTimeout(parent, b.learnerTime())
	defer cancel()
	prog, in, err := b.batch(ctx, k, dir, members)
	if err = b.learnerBuilt(parent, ctx, k, err); err != nil {
		return nil, nil, err
	}
	return prog, in, nil
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

	kitCfg, err := k.importcfg(out)
	if err != nil {
		return nil, nil, err
	}
	// The members' packages, each as a path of its own, in one stage;
	// those that fail to compile are the learner's, and left out.
	learners := make([]*unit, len(members))
	var todo []*unit
	for i, m := range members {
		rel := m.Name + "/" + m.ID
		archive := filepath.Join(out, m.Name+".a")
		driver := filepath.Join(dir, m.Name, m.ID, m.Driver) + "=>" + module + "/internal/run/" + m.ID + "/driver.go"
		st, parts, err := compileStep(k, dir, kitCfg, BatchPrefix(m.Name)+m.ID, rel, archive, true, m.ID, driver)
		if err != nil {
			return nil, nil, err
		}
		u := &unit{pkg: BatchPrefix(m.Name) + m.ID, archive: archive, step: st, learner: true, key: objectKey(k, "batch-learner", parts...)}
		learners[i] = u
		if !b.have(u) {
			todo = append(todo, u)
		}
	}
	if err := b.runUnits(ctx, plans, k, dir, [][]*unit{todo}); err != nil {
		var ce *CompileError
		if !errors.As(err, &ce) {
			return nil, nil, err
		}
	}

	var in []string
	var src strings.Builder
	src.WriteString("// A batch of learners' programs: the first argument names the member\n// whose test program runs.\npackage main\n\nimport (\n\t\"os\"\n\t\"runtime\"\n\n")
	cfg := k.config
	var units []*unit
	var exports []string
	for i, m := range members {
		if u := learners[i]; u.sum != "" {
			in = append(in, m.Name)
			units = append(units, u)
			exports = append(exports, "import "+u.pkg+" "+u.export)
			fmt.Fprintf(&src, "\tr%d %q\n", i, u.pkg)
			cfg += "packagefile " + u.pkg + "=" + u.archive + "\n"
		}
	}
	if len(in) == 0 {
		return nil, nil, nil
	}
	src.WriteString(")\n\nfunc main() {\n\tif len(os.Args) < 2 {\n\t\t// The start's check: every package initialised, holding little.\n\t\tvar m runtime.MemStats\n\t\truntime.ReadMemStats(&m)\n\t\tif m.HeapAlloc > " + strconv.Itoa(maxBatchHeap) + " {\n\t\t\tos.Exit(4)\n\t\t}\n\t\tos.Exit(3)\n\t}\n\tname := os.Args[1]\n\tos.Args = append(os.Args[:1], os.Args[2:]...)\n\tswitch name {\n")
	for i, m := range members {
		if learners[i].sum != "" {
			fmt.Fprintf(&src, "\tcase %q:\n\t\tr%d.KursMain()\n", m.Name, i)
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
	st, parts, err := compileStep(k, dir, cfgFile, "main", "internal/batch", filepath.Join(out, "main.a"), false, "", "")
	if err != nil {
		return nil, nil, err
	}
	mainUnit := &unit{pkg: "main", archive: filepath.Join(out, "main.a"), step: st, key: objectKey(k, "main", append(parts, exports...)...)}
	link, err := b.linkUnit(k, variant{}, prog.Path, cfgFile, mainUnit.archive)
	if err != nil {
		return nil, nil, err
	}
	var stages [][]*unit
	if b.have(mainUnit) {
		// Every archive is one of an earlier build: so may the program be.
		link.key = linkKey(k, variant{}, units, mainUnit)
		if b.have(link) {
			prog.Sum = link.sum
			return prog, in, nil
		}
	} else {
		stages = append(stages, []*unit{mainUnit})
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
