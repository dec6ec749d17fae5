package build

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// What a direct build made is kept for the next one, by what decided it:
// a learner's package compiled from the same files, a test program or
// main compiled against the same export data of the packages it imports,
// a program linked from the same archives. A save that changes only a
// function's body then recompiles one package and links; a save that
// changes only a comment at the end of a file relinks nothing. The keys
// say what the go command's own cache would consider: an importer is
// compiled against the export data of what it imports, and the linker
// checks that it was (each archive carries a fingerprint of that data).

// objectsVersion changes when what a key covers does: older objects are
// not used.
const objectsVersion = "1"

// maxObjects bounds the folder of kept objects at every moment: before an
// object is kept, the least recently used go until it fits.
const maxObjects = 256 << 20

// ObjectsEnv names the environment variable that, set to a number of
// MiB, bounds the kept objects instead of maxObjects: a machine that
// checks one whole course after another (kurs's own tests, a CI runner
// grading with several judges' worth of programs) keeps them all.
const ObjectsEnv = "KURS_CACHE_OBJECTS"

// kurs grade keeps its objects in a folder of the cache of their own,
// gradeObjects, under a bound of its own: a regrade of the same files (a
// retried CI job, an instructor who regrades after changing the report's
// format) compiles and links nothing, and no grading ever pushes out an
// object of the learner's, which kurs check would need. The bound is
// small: distinct submissions, which nothing reuses, grow the cache by
// no more than it, however many are graded.
const (
	objectsFolder      = "objects"
	gradeObjectsFolder = "grade-objects"
)

// maxGradeObjects bounds the folder of grade's objects: one whole
// submission of the built-in course's exercises is about 20 MB (a program
// of about 2 MB an exercise, 4 MB for a race detector's build), so two
// fit, with what they share with others.
const maxGradeObjects = 40 << 20

// GradeObjectsEnv names the environment variable that, set to a number of
// MiB, bounds grade's objects instead of maxGradeObjects: an instructor
// who regrades a whole class keeps all of its programs.
const GradeObjectsEnv = "KURS_CACHE_GRADE_OBJECTS"

// objectsLimit returns the bound of the folder b keeps its objects in:
// the Builder's own (tests), else objectsBound's.
func (b *Builder) objectsLimit() int64 {
	if b.objectsCap > 0 {
		return b.objectsCap
	}
	return objectsBound(b.grading.Load())
}

// objectsBound returns the bound of the cache's objects,
// $KURS_CACHE_OBJECTS MiB, else maxObjects; or of grade's objects (grade),
// $KURS_CACHE_GRADE_OBJECTS MiB, else maxGradeObjects.
func objectsBound(grade bool) int64 {
	env, bound := ObjectsEnv, int64(maxObjects)
	if grade {
		env, bound = GradeObjectsEnv, maxGradeObjects
	}
	if n, err := strconv.ParseInt(os.Getenv(env), 10, 64); err == nil && n > 0 && n < 1<<40 {
		return n << 20
	}
	return bound
}

// maxObject is the largest object kept: a real solution's archive is
// kilobytes, a program about 2 MB, one built with the race detector about
// 4 MB. A program with a large constant in it is built again instead of
// pushing everything else out.
const maxObject = 8 << 20

// errNotKept means an object was not kept: it is too large. The build
// goes on without it.
var errNotKept = errors.New("build: object not kept")

// objectKey hashes the parts that decide an object of kind, together
// with the kit it is built against (whose name hashes the go command, the
// platform and the sources of every archive in it).
func objectKey(k *Kit, kind string, parts ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", objectsVersion, filepath.Base(k.dir), kind)
	for _, p := range parts {
		// Each part with its length, so that no two lists of parts hash
		// alike.
		fmt.Fprintf(h, "%d\x00%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// fetch copies the object kept under key to dst, with mode, and returns
// its hash. It is hashed while it is copied and must have the hash
// recorded when it was kept: an object that was changed since is not
// used (ok is false), and the build makes it anew.
func (b *Builder) fetch(key, dst string, mode fs.FileMode) (sum string, ok bool) {
	for _, dir := range b.lookupDirs() {
		if sum, ok := fetchFrom(dir, key, dst, mode); ok {
			return sum, true
		}
	}
	return "", false
}

// lookupDirs returns the folders where an object is looked up, in order:
// the one b keeps objects in (objectsDir), then, when b grades
// (KeepObjectsForGrading), the cache's. A grade run finds what an earlier
// grade built from the same files first, then what a learner's check
// built (an untouched skeleton is the same program for every student who
// skipped it), each verified by its hash; it never adds to the cache's.
func (b *Builder) lookupDirs() []string {
	var dirs []string
	if d, err := b.objectsDir(); err == nil {
		dirs = append(dirs, d)
	}
	if b.grading.Load() {
		if d, err := b.sub(objectsFolder); err == nil {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// fetchFrom is fetch from the folder of objects dir.
func fetchFrom(dir, key, dst string, mode fs.FileMode) (sum string, ok bool) {
	name := filepath.Join(dir, key)
	rec, err := os.ReadFile(name + ".sha256")
	if err != nil {
		return "", false
	}
	want := strings.TrimSpace(string(rec))
	var got string
	if mode&0o100 != 0 {
		// A program is linked into place where the file system allows,
		// and hashed there: a copy would be written by this process,
		// and a child that another goroutine forks meanwhile holds it
		// open for writing until it starts its own program, so that
		// running the copy at once could fail as busy.
		got, err = linkHashed(name, dst)
	}
	if mode&0o100 == 0 || err != nil {
		got, err = copyHashed(name, dst, mode)
	}
	if err != nil || got != want {
		os.Remove(dst)
		return "", false
	}
	now := time.Now()
	_ = os.Chtimes(name+".sha256", now, now) // recently used: kept by trimming
	return got, true
}

// keep copies the file src into the store under key, with mode, and
// returns its hash.
// The hash is recorded first, then the object appears by a rename: a
// reader that finds the new hash beside an older object of the same key
// finds them different and builds anew. Before it appears, the least
// recently used objects of the folder b keeps objects in go until it fits
// under that folder's bound (objectsLimit), under a lock that every kurs
// process keeping an object there takes: the folder never holds more than
// its bound, and no one waits for more than one object's room. A grade
// run keeps in its own folder and trims nothing else.
func (b *Builder) keep(key, src string, mode fs.FileMode) (string, error) {
	info, err := os.Stat(src)
	if err != nil {
		return "", err
	}
	if info.Size() > maxObject {
		return "", errNotKept
	}
	dir, err := b.objectsDir()
	if err != nil {
		return "", err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	unlock, err := lockFile(root, ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	trimObjects(root, b.objectsLimit(), info.Size())
	tmp, err := os.CreateTemp(dir, ".new-")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	// An object that already has its mode is linked, not copied: a program
	// is megabytes that a body save would otherwise write a second time.
	// The link shares the file with the build's folder, which is removed
	// after the check; fetch hashes whatever it finds before using it.
	var sum string
	if info.Mode().Perm() == mode.Perm() {
		if linked, lerr := linkHashed(src, tmp.Name()); lerr == nil {
			sum = linked
		}
	}
	if sum == "" {
		if sum, err = copyHashed(src, tmp.Name(), mode); err != nil {
			return "", err
		}
	}
	name := filepath.Join(dir, key)
	if err := writeRecord(name+".sha256", sum+"\n"); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return "", err
	}
	return sum, nil
}

// KeepObjectsForGrading makes b keep what its builds make in the cache's
// folder of grade's objects, under its own bound (GradeObjectsEnv), and
// look objects up there first, then in the cache's: kurs grade's
// submissions share little but the exercises their authors left
// untouched, and what one leaves among the cache's objects would only
// push out what a learner's next check could use, while a regrade of the
// same files finds all it needs. Kits and judges are kept in the cache as
// always. Call it before b builds anything, once.
func (b *Builder) KeepObjectsForGrading() {
	if !b.grading.CompareAndSwap(false, true) {
		return
	}
	// made says whether a race build asked for the run's go build cache:
	// a run without one must not make it (hard links of every file in
	// the cache's go-build) only to remove it at Close.
	var made atomic.Bool
	b.runGoCache = sync.OnceValue(func() string {
		made.Store(true)
		b.stats.goCacheLinks.Add(1)
		return b.linkGoCache()
	})
	b.bg.Add(1)
	go func() {
		defer b.bg.Done()
		<-b.ctx.Done()
		if !made.Load() {
			return // no more builds run, so none will ask for it
		}
		if dir := b.runGoCache(); dir != "" {
			os.RemoveAll(dir)
		}
	}()
}

// raceGoCache returns the go build cache for a race detector's build: in a
// grade run (KeepObjectsForGrading), once a race build of this Builder has
// succeeded with the cache's own, so that the standard library built for
// the race detector is there, the run's own (linkGoCache); else the
// cache's.
func (b *Builder) raceGoCache() string {
	if b.runGoCache != nil && b.raceBuilt.Load() {
		if dir := b.runGoCache(); dir != "" {
			return dir
		}
	}
	return b.goCache()
}

// linkGoCache makes the go build cache of a kurs grade run's race builds
// after its first: a new folder run-* inside the cache's go-build, which
// is a hard link of every file there. The go command finds the standard
// library built for the race detector as in the cache's, and what it
// writes for a submission alone (some 180 KiB a submission, which no
// later build uses) goes into the run's folder, removed at Close. The
// run's first race build, made with the cache's own, leaves its share
// there, once a run. Links share the files' data and cost no room. It
// returns "" where that cannot be made (the cache's go-build is used
// then), and removes the folders of runs that ended without Close a day
// ago.
func (b *Builder) linkGoCache() string {
	if err := b.ensureGoCache(); err != nil {
		return ""
	}
	src, err := filepath.EvalSymlinks(b.goCache())
	if err != nil {
		return ""
	}
	if old, _ := filepath.Glob(filepath.Join(src, "run-*")); len(old) > 0 {
		for _, d := range old {
			if info, err := os.Lstat(d); err == nil && info.IsDir() && time.Since(info.ModTime()) > 24*time.Hour {
				os.RemoveAll(d)
			}
		}
	}
	dst, err := os.MkdirTemp(src, "run-")
	if err != nil {
		return ""
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		switch {
		case rel == ".":
			return nil
		case d.IsDir() && strings.HasPrefix(rel, "run-"):
			return fs.SkipDir // this run's folder and other runs'
		case d.IsDir():
			return os.Mkdir(filepath.Join(dst, rel), 0o700)
		case d.Type().IsRegular():
			return os.Link(p, filepath.Join(dst, rel))
		}
		return nil // links are go's business, not the run's
	})
	if err != nil {
		os.RemoveAll(dst)
		return ""
	}
	return dst
}

// objectsDir returns the folder b keeps objects in: the cache's, or
// grade's (KeepObjectsForGrading).
func (b *Builder) objectsDir() (string, error) {
	if b.grading.Load() {
		return b.sub(gradeObjectsFolder)
	}
	return b.sub(objectsFolder)
}

// linkHashed makes dst a hard link of src and returns the SHA-256 of its
// content, hex-encoded, as read through dst.
func linkHashed(src, dst string) (string, error) {
	os.Remove(dst)
	if err := os.Link(src, dst); err != nil {
		return "", err
	}
	sum, _, err := hashFile(dst)
	if err != nil {
		os.Remove(dst)
	}
	return sum, err
}

// copyHashed copies src to dst, made anew with mode, and returns the
// SHA-256 of what it copied, hex-encoded.
func copyHashed(src, dst string, mode fs.FileMode) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	os.Remove(dst)
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	_, cerr := io.Copy(io.MultiWriter(out, h), in)
	if err := errors.Join(cerr, out.Close()); err != nil {
		os.Remove(dst)
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// exportHash returns the hash of an archive's export data, its first
// member (__.PKGDEF): all that a package importing it is compiled
// against.
func exportHash(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var head [8 + 60]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return "", err
	}
	hdr := head[8:]
	if string(head[:8]) != "!<arch>\n" || strings.TrimSpace(string(hdr[:16])) != "__.PKGDEF" {
		return "", fmt.Errorf("%s: not a Go archive", name)
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
	if err != nil || size < 0 {
		return "", fmt.Errorf("%s: not a Go archive", name)
	}
	h := sha256.New()
	if n, err := io.Copy(h, io.LimitReader(f, size)); err != nil || n != size {
		return "", fmt.Errorf("%s: export data cut short", name)
	}
	return hexSum(h), nil
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// trimObjects removes the least recently used objects in the folder dir
// until they take at most limit less room, if they take more, and what a
// kurs killed while keeping one left behind. It removes regular files
// only, inside dir's handle, never through a link.
//
// It runs before every object kept, so it asks the file system little: the
// folder's names, and the size of each object, not of its record
// (name.sha256) or key file, which are two of every three entries; a
// record's time, the object's last use, only when some must go. (A folder
// read as entries through an os.Root states every entry.)
func trimObjects(dir *os.Root, limit, room int64) {
	d, err := dir.Open(".")
	if err != nil {
		return
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return
	}
	type object struct {
		name string
		size int64
		used time.Time
	}
	var objs []object
	var total int64
	for _, name := range names {
		switch {
		case strings.HasPrefix(name, "."):
			if name == ".lock" {
				continue
			}
			if info, ok := regularIn(dir, d, name); ok && time.Since(info.mtime) > time.Hour {
				_ = dir.Remove(name)
			}
			continue
		case strings.HasSuffix(name, ".sha256"), strings.HasSuffix(name, ".key"):
			continue
		}
		info, ok := regularIn(dir, d, name)
		if !ok {
			continue
		}
		objs = append(objs, object{name, info.size, info.mtime})
		total += info.size
	}
	if total+room <= limit {
		return
	}
	for i, o := range objs {
		if rec, ok := regularIn(dir, d, o.name+".sha256"); ok {
			objs[i].used = rec.mtime
		}
	}
	slices.SortFunc(objs, func(a, b object) int { return a.used.Compare(b.used) })
	for _, o := range objs {
		if total+room <= limit {
			break
		}
		if dir.Remove(o.name) == nil {
			_ = dir.Remove(o.name + ".sha256")
			total -= o.size
		}
	}
}

// fileInfo is what trimObjects needs to know of a file.
type fileInfo struct {
	size  int64
	mtime time.Time
}

// recallKey returns the key that rememberKey last kept under spec.
// Like fetch, it looks in the folder b keeps objects in first.
func (b *Builder) recallKey(spec string) (string, bool) {
	for _, dir := range b.lookupDirs() {
		data, err := os.ReadFile(filepath.Join(dir, spec+".key"))
		if err != nil {
			continue
		}
		key := strings.TrimSpace(string(data))
		if _, err := hex.DecodeString(key); err != nil || len(key) != 32 {
			continue
		}
		return key, true
	}
	return "", false
}

// rememberKey keeps key under spec: the key of main's last build with the
// same files, whose archive a build that compiles a test program again
// takes before the test program's export data is there. What it names is
// checked by its own hash, and the guess by the key of the export data
// that came.
func (b *Builder) rememberKey(spec, key string) error {
	if old, ok := b.recallKey(spec); ok && old == key {
		return nil
	}
	dir, err := b.objectsDir()
	if err != nil {
		return err
	}
	return writeRecord(filepath.Join(dir, spec+".key"), key+"\n")
}
