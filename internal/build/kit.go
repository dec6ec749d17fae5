package build

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/internal/atomicfile"
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

// module is the module path of the checker's temporary modules.
const module = harness.Module

// Kit is what direct builds of one set of exercises need besides the
// learner's code.
type Kit struct {
	Tools    string    // the folder of compile and link (GOTOOLDIR)
	Version  string    // the toolchain's version, e.g. "go1.26.8"
	GOOS     string    // the platform the toolchain builds for
	GOARCH   string    //
	GODEBUG  string    // the main package's default GODEBUG settings
	Packages []archive // every compiled package, in the kit's folder
	// Race says that the packages are compiled with the race detector
	// and cgo, for a learner's program built with it (see racekit.go).
	Race bool `json:",omitempty"`

	config string // importcfg lines of every package, paths absolute
	dir    string // where the kit lives
}

// archive is a compiled package of a kit: its file relative to the kit's
// folder, so that a cache moved elsewhere keeps its kits, and the hash of
// its content when the kit was made.
type archive struct {
	Path string
	File string
	Sum  string
}

// kitVersion changes when a kit's layout or its archives' settings do:
// older kits are not used.
const kitVersion = "6"

// noDWARF is the go command's setting for compiling without debugging
// information, which every program kurs builds strips at its link (-w):
// archives without it are a quarter smaller, and the linker, which reads
// every archive of a program whole, takes about a sixth less processor
// time. Judges, kits and the go command's learner's programs share it,
// so that the standard library is compiled once for all of them.
const noDWARF = "-gcflags=all=-dwarf=false"

// kitEntry is a kit of this Builder, with the exercises it serves: a kit
// of a set of exercises serves any part of it, so grading, whose
// submissions hold different parts of a course, makes one.
type kitEntry struct {
	once sync.Once
	goID string
	set  map[*course.Exercise]bool
	race string // for a race detector's kit, its name; else ""
	done bool   // once has run; kit and err hold its outcome
	kit  *Kit
	err  error
}

// Kit returns a kit that serves exs, making one on first use: from the
// cache when an earlier run made it, else with the go command from the
// module that probe lays out (the references of exs as one learner's
// program, and internal/allow, which imports whatever a learner may). A
// kit that cannot be made is not tried again by this Builder, unless ctx
// ended.
func (b *Builder) Kit(ctx context.Context, exs []*course.Exercise, probe func() (map[string][]byte, error)) (*Kit, error) {
	k, err := b.kit(ctx, exs, probe)
	if err != nil {
		return nil, err
	}
	// Every archive as it was made: a kit that lost one, or whose archive
	// was changed, is dropped and made anew, once.
	if err := b.verifyKit(k); err != nil {
		b.dropKit(k)
		if k, err = b.kit(ctx, exs, probe); err != nil {
			return nil, err
		}
		if err := b.verifyKit(k); err != nil {
			return nil, fmt.Errorf("kit: %w", err)
		}
	}
	return k, nil
}

// kit finds, reads or makes the kit of exs, as Kit says.
func (b *Builder) kit(ctx context.Context, exs []*course.Exercise, probe func() (map[string][]byte, error)) (*Kit, error) {
	goID, err := b.goIdentity()
	if err != nil {
		return nil, err
	}
	match := func(k *kitEntry) bool {
		return k.goID == goID && k.race == "" &&
			((k.done && k.err == nil && covers(k.set, exs)) || sameSet(k.set, exs))
	}
	fresh := func() *kitEntry {
		e := &kitEntry{goID: goID, set: map[*course.Exercise]bool{}}
		for _, ex := range exs {
			e.set[ex] = true
		}
		return e
	}
	return b.kitOnce(match, fresh, func() (*Kit, error) { return b.makeKit(ctx, exs, probe) },
		func(error) bool { return ctx.Err() != nil })
}

// kitOnce returns the kit of the entry that match picks among b's, made
// once however many builds ask at the same time: when no entry matches,
// it adds fresh() and makes its kit with build. A kit whose making failed
// is forgotten when forget says so, and the next build makes it anew.
func (b *Builder) kitOnce(match func(*kitEntry) bool, fresh func() *kitEntry, build func() (*Kit, error), forget func(error) bool) (*Kit, error) {
	b.kitMu.Lock()
	var e *kitEntry
	for _, k := range b.kits {
		if match(k) {
			e = k
			break
		}
	}
	if e == nil {
		e = fresh()
		b.kits = append(b.kits, e)
	}
	b.kitMu.Unlock()
	e.once.Do(func() {
		k, err := build()
		b.kitMu.Lock()
		e.kit, e.err, e.done = k, err, true
		if err != nil && forget(err) {
			b.forgetKit(func(x *kitEntry) bool { return x == e })
		}
		b.kitMu.Unlock()
	})
	b.kitMu.Lock()
	defer b.kitMu.Unlock()
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

// forgetKit removes the entries that drop says; kitMu is held.
func (b *Builder) forgetKit(drop func(*kitEntry) bool) {
	b.kits = slices.DeleteFunc(b.kits, drop)
}

// verifyKit checks that every archive of k is there with its hash. The
// identities on disk of archives found whole are kept in the kit's file
// "checked", so that another kurs run hashes only what changed since: a
// file can take the identity of a checked one only by being that file,
// unchanged, and whoever could rewrite "checked" could as well rewrite the
// hashes in kit.json.
func (b *Builder) verifyKit(k *Kit) error {
	record := filepath.Join(k.dir, "checked")
	var checked map[string]string // read when this Builder has not seen a file
	readChecked := func() {
		if checked == nil {
			checked = map[string]string{}
			if data, err := os.ReadFile(record); err == nil {
				_ = json.Unmarshal(data, &checked)
			}
		}
	}
	changed := false
	for _, a := range k.Packages {
		name := filepath.Join(k.dir, a.File)
		if info, err := os.Stat(name); err == nil {
			id := fileID(info)
			// A check verifies its kit twice (when it finds it and when it
			// builds with it): the second time, and in a long-lived
			// process every later time, each file's identity is compared
			// with what this Builder saw, without reading "checked".
			if v, ok := b.verified.Load(name); ok && v.(string) == id+"\x00"+a.Sum {
				continue
			}
			readChecked()
			if checked[a.File] != "" && checked[a.File] == id+" "+a.Sum {
				b.verified.Store(name, id+"\x00"+a.Sum)
				continue
			}
		}
		readChecked()
		if err := b.verify(name, a.Sum); err != nil {
			return err
		}
		if info, err := os.Stat(name); err == nil {
			checked[a.File], changed = fileID(info)+" "+a.Sum, true
		}
	}
	if changed {
		if data, err := json.Marshal(checked); err == nil {
			_ = atomicfile.WriteFile(record, data, 0o600) // only a shortcut: without it, archives are hashed again
		}
	}
	return nil
}

// dropKit forgets a kit that lost an archive, here and on disk. It is
// renamed aside before it is removed, so that a kit made anew at the same
// place meanwhile is not the one removed.
func (b *Builder) dropKit(k *Kit) {
	b.kitMu.Lock()
	b.forgetKit(func(e *kitEntry) bool { return e.kit == k })
	b.kitMu.Unlock()
	gone := k.dir + ".gone-" + strconv.FormatUint(rand.Uint64(), 36)
	if os.Rename(k.dir, gone) == nil {
		_ = os.RemoveAll(gone)
	}
}

// makeKit finds or makes the kit of exs.
func (b *Builder) makeKit(ctx context.Context, exs []*course.Exercise, probe func() (map[string][]byte, error)) (*Kit, error) {
	mod, err := probe()
	if err != nil {
		return nil, err
	}
	key, err := b.Key(mod)
	if err != nil {
		return nil, err
	}
	perBuild := map[string]bool{module + "/internal/run": true, module + "/internal/allow": true}
	for _, ex := range exs {
		perBuild[module+"/"+ex.ID] = true
		perBuild[module+"/internal/run/"+ex.ID] = true
	}
	return b.storeKit(kitVersion+"-"+key, true, func(dir string) (*Kit, []string, error) {
		if err := WriteModule(dir, mod); err != nil {
			return nil, nil, err
		}
		return b.listKit(ctx, dir, perBuild, false)
	})
}

// storeKit returns the kit named name in the cache's kits, made by list
// if it is not there: list lays out a module in the empty folder it is
// given and returns the kit's archives in the go build cache. first says
// whether the first kit of a cache may take a minute (see cold).
func (b *Builder) storeKit(name string, first bool, list func(dir string) (*Kit, []string, error)) (*Kit, error) {
	root, err := b.sub("kits")
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, name)
	if k, err := b.readKit(dir); err == nil {
		return k, nil
	}
	if first && b.cold() {
		b.preparing()
	}
	tmp, err := os.MkdirTemp(b.tempDir, "kurs-kit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	k, files, err := list(tmp)
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
	for i := range k.Packages {
		a := &k.Packages[i]
		a.File = strconv.Itoa(i) + ".a"
		if err := linkOrCopy(files[i], filepath.Join(next, a.File)); err != nil {
			return nil, err
		}
		if a.Sum, _, err = hashFile(filepath.Join(next, a.File)); err != nil {
			return nil, err
		}
	}
	data, err := json.Marshal(k)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(next, "kit.json"), data, 0o600); err != nil {
		return nil, err
	}
	trimKits(root, dir)
	if err := os.Rename(next, dir); err != nil {
		// Another kurs made the same kit first.
		if k, err := b.readKit(dir); err == nil {
			return k, nil
		}
		return nil, err
	}
	return b.readKit(dir)
}

// readKit reads the kit in dir, if it is there. Its importcfg, which the
// compilers read, names the archives where the kit is now: it is written
// anew when the cache moved.
func (b *Builder) readKit(dir string) (*Kit, error) {
	data, err := os.ReadFile(filepath.Join(dir, "kit.json"))
	if err != nil {
		return nil, err
	}
	var k Kit
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, err
	}
	if k.Tools == "" || len(k.Packages) == 0 {
		return nil, errors.New("incomplete kit")
	}
	k.dir = dir
	var cfg strings.Builder
	for _, a := range k.Packages {
		if a.File != filepath.Base(a.File) || a.Sum == "" {
			return nil, errors.New("kit: an archive outside the kit")
		}
		fmt.Fprintf(&cfg, "packagefile %s=%s\n", a.Path, filepath.Join(dir, a.File))
	}
	k.config = cfg.String()
	cfgFile := filepath.Join(dir, "importcfg")
	if old, err := os.ReadFile(cfgFile); err != nil || string(old) != k.config {
		if err := atomicfile.WriteFile(cfgFile, []byte(k.config), 0o600); err != nil {
			return nil, err
		}
	}
	now := time.Now()
	_ = os.Chtimes(filepath.Join(dir, "kit.json"), now, now) // in use: kept by trimKits
	return &k, nil
}

// importcfg writes the importcfg of k's archives, as this Builder's cache
// names them, into the build's folder out and returns its path. The kit's
// own file names them as the last process to read the kit does, which may
// reach the cache by another path (a link) that is gone by the time the
// compiler reads it.
func (k *Kit) importcfg(out string) (string, error) {
	name := filepath.Join(out, "kit.importcfg")
	return name, os.WriteFile(name, []byte(k.config), 0o600)
}

// cold reports whether the cache holds no kit and no judge: its first
// build most likely compiles the standard library as well, which takes a
// minute or more (see Options.Preparing). Kits and judges compile it
// alike, so whichever comes first is the slow one.
func (b *Builder) cold() bool {
	return !anyKit(filepath.Join(b.dir, "kits")) && !anyJudge(filepath.Join(b.dir, "judges"))
}

// anyJudge reports whether the folder of judges dir holds a judge's
// record, which is written when a judge is built.
func anyJudge(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sha256") {
			return true
		}
	}
	return false
}

// anyKit reports whether the folder of kits root holds a kit (or a
// folder of kurs's that is not one being made).
func anyKit(root string) bool {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			return true
		}
	}
	return false
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

// listKit asks the go command, in the module at dir, for the compiled
// archive of every package a learner's program may need but those of
// perBuild (the learner's packages, the test programs, main), and for how
// it calls the compiler and the linker. race lists them as built with the
// race detector, with cgo and the race detector's go build cache. It
// returns the archives' files in the build cache beside the kit.
func (b *Builder) listKit(ctx context.Context, dir string, perBuild map[string]bool, race bool) (*Kit, []string, error) {
	env := b.Env()
	args := []string{"list", "-export", "-trimpath", noDWARF, "-tags=" + harness.LearnerTag}
	pkgs := []string{"./internal/run", "./internal/allow"}
	if race {
		env = append(env, "CGO_ENABLED=1", "GOCACHE="+b.raceGoCache())
		args = append(args, "-race")
		pkgs = pkgs[:1]
	}
	vars, err := b.goOutputEnv(ctx, dir, env, "env", "GOTOOLDIR", "GOVERSION", "GOOS", "GOARCH")
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(vars)), "\n")
	if len(lines) != 4 {
		return nil, nil, fmt.Errorf("go env: %q", vars)
	}
	args = append(args, "-deps", "-json=ImportPath,Export,DefaultGODEBUG,Name")
	out, err := b.goOutputEnv(ctx, dir, env, append(args, pkgs...)...)
	if err != nil {
		return nil, nil, err
	}
	k := &Kit{Tools: lines[0], Version: lines[1], GOOS: lines[2], GOARCH: lines[3], Race: race}
	var files []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export, DefaultGODEBUG, Name string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, err
		}
		if p.ImportPath == module+"/internal/run" {
			k.GODEBUG = p.DefaultGODEBUG
		}
		if p.Export != "" && !perBuild[p.ImportPath] {
			k.Packages = append(k.Packages, archive{Path: p.ImportPath})
			files = append(files, p.Export)
		}
	}
	if k.Tools == "" || len(files) == 0 {
		return nil, nil, errors.New("go list: no packages")
	}
	return k, files, nil
}

// goOutputEnv runs the go command in dir with the environment env, as a
// build of the course's own code, and returns its standard output.
func (b *Builder) goOutputEnv(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	goCmd, err := b.goCommand()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, trustedTimeout)
	defer cancel()
	cmd := sandbox.Command(ctx, sandbox.Policy{Memory: buildMemory, FileSize: buildFileSize}, goCmd, args...)
	cmd.Dir = dir
	gotmp := filepath.Join(dir, ".gotmp")
	if err := os.MkdirAll(gotmp, 0o700); err != nil {
		return nil, err
	}
	if err := b.ensureGoCache(); err != nil {
		return nil, err
	}
	cmd.Env = append(env, "GOTMPDIR="+gotmp)
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
	return os.WriteFile(dst, data, 0o600)
}
