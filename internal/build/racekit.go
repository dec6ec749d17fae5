package build

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
)

// A learner's program with the race detector is built directly too, as
// the learner's program is (direct.go): the compiler, with -race, for the
// learner's package, the test program and main, and the linker, which
// links through the C compiler (extld.go). The rest comes from a race
// kit: the standard library, the harness and the support packages compiled
// with the race detector and cgo, which the go command lists once per
// content of the exercise's module but the learner's package. This spares
// every race build the go command's own work (hashing every dependency,
// the build cache's bookkeeping, the tools it asks for their versions),
// and its objects are kept by their inputs like every direct build's: a
// save that changes a body compiles the learner's package and links.

// raceIDs returns the exercises of the module mod: the folders of its test
// programs, internal/run/ID.
func raceIDs(mod map[string][]byte) []string {
	seen := map[string]bool{}
	for name := range mod {
		rest, ok := strings.CutPrefix(name, "internal/run/")
		if dir, _, nested := strings.Cut(rest, "/"); ok && nested && dir != "" {
			seen[dir] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// raceKit returns the race kit of the module mod, written in dir, whose
// learner's packages are ids, making it on first use from that module: it
// is named by the module without the learner's files, with the C compiler
// and the race detector's settings. A learner's package that imports what
// the kit lacks fails its direct build, and the go command builds it.
func (b *Builder) raceKit(ctx context.Context, dir string, mod map[string][]byte, ids []string) (*Kit, error) {
	tools := raceToolchain()
	if tools == "" {
		return nil, errors.New("race kit: no C compiler")
	}
	base := map[string][]byte{"\x00race": []byte(tools)}
	perBuild := map[string]bool{module + "/internal/run": true}
	for name, data := range mod {
		if inPackageOf(ids, name) {
			continue
		}
		base[name] = data
	}
	for _, id := range ids {
		perBuild[module+"/"+id] = true
		perBuild[module+"/internal/run/"+id] = true
	}
	key, err := b.Key(base)
	if err != nil {
		return nil, err
	}
	goID, err := b.goIdentity()
	if err != nil {
		return nil, err
	}
	k, err := b.kitOnce(func(k *kitEntry) bool { return k.race == key && k.goID == goID },
		func() *kitEntry { return &kitEntry{goID: goID, race: key} },
		func() (*Kit, error) {
			return b.storeKit(kitVersion+"-race-"+key, false, func(tmp string) (*Kit, []string, error) {
				if err := WriteModule(tmp, mod); err != nil {
					return nil, nil, err
				}
				return b.listKit(ctx, tmp, perBuild, true)
			})
		},
		// The learner's code may be what failed (a file only the race
		// detector's build compiles): the next build tries again.
		func(error) bool { return true })
	if err != nil {
		return nil, err
	}
	if err := b.verifyKit(k); err != nil {
		b.dropKit(k)
		return nil, fmt.Errorf("race kit: %w", err)
	}
	return k, nil
}

// inPackageOf reports whether the module's file name is one of the
// learner's packages ids.
func inPackageOf(ids []string, name string) bool {
	for _, id := range ids {
		if path.Dir(name) == id || strings.HasPrefix(name, id+"/") {
			return true
		}
	}
	return false
}

// raceKitOf returns the race kit of the module mod, written in dir (see
// raceKit), and the learner's packages it leaves out.
func (b *Builder) raceKitOf(ctx context.Context, dir string, mod map[string][]byte) (*raceKitFor, error) {
	ids := raceIDs(mod)
	if len(ids) == 0 {
		return nil, errors.New("race build: no test program")
	}
	k, err := b.raceKit(ctx, dir, mod, ids)
	if err != nil {
		return nil, err
	}
	return &raceKitFor{kit: k, ids: ids}, nil
}

// raceKitFor is a race kit with the learner's packages it was made for.
type raceKitFor struct {
	kit *Kit
	ids []string
}

// raceDirect builds the learner's program in dir with the race detector,
// directly with the race kit rk (which raceKitOf made, or failed to make
// with kitErr), as dir/kurs-learner-race. Any error but the caller's end
// or a build limit leaves the build to the go command.
func (b *Builder) raceDirect(ctx context.Context, dir string, rk *raceKitFor, kitErr error) (*Program, error) {
	if kitErr != nil {
		return nil, kitErr
	}
	k, ids := rk.kit, rk.ids
	linker, ok := b.raceLinker(ctx, dir)
	if !ok {
		return nil, errors.New("race build: no extld")
	}
	p, err := b.compileAndLink(ctx, k, dir, ids, variant{out: ".kurs-build-race", name: "kurs-learner-race", linker: &linker})
	if err != nil {
		return nil, err
	}
	linker.keep()
	return p, nil
}
