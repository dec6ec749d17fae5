package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/internal/atomicfile"
)

// IsSource reports whether a file in an exercise's folder, by its name,
// is one of the learner's sources: a .go file that is not a test and not
// hidden (a leading "." or "_", which the go command ignores too).
func IsSource(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") &&
		!strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// Sources returns the names of the learner's sources in the folder dir,
// sorted: the regular files directly in it whose name IsSource. Symbolic
// links and sub-folders are no sources. The checker, kurs watch, reset and
// restore all go by this list.
func Sources(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range entries {
		if d.Type().IsRegular() && IsSource(d.Name()) {
			names = append(names, d.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// Sources returns the learner's sources of exercise id, relative to the
// workspace and slash-separated ("circuitbreaker/circuitbreaker.go"); a
// missing folder has none.
func (w *Workspace) Sources(id string) ([]string, error) {
	names, err := sourcesIfAny(w.ExerciseDir(id))
	return inFolder(id, names), err
}

// MaxDigested bounds the size of a source file whose content Digest
// compares: the checker refuses larger files anyway. A larger one is
// compared by its size and time, and never read.
const MaxDigested = 1 << 20

// Digest returns a digest of the learner's sources of exercise id, their
// names and contents (see DigestDir).
func (w *Workspace) Digest(id string) string { return DigestDir(w.ExerciseDir(id)) }

// DigestDir returns a digest of the learner's sources in the exercise
// folder dir, their names and contents: equal digests mean the same files,
// and so the same verdict. Comparing contents rather than times makes a
// save without a change no change. A file over MaxDigested counts by its
// size and time, one that cannot be read by its name alone; a missing
// folder has the digest of no files. The session keeps it with each check,
// and kurs watch and kurs serve compare it to tell a save from a touch.
func DigestDir(dir string) string {
	id := filepath.Base(dir)
	h := sha256.New()
	names, _ := sourcesIfAny(dir)
	for _, n := range names {
		h.Write([]byte(path.Join(id, n) + "\x00"))
		name := filepath.Join(dir, n)
		info, err := os.Stat(name)
		if err == nil && info.Size() > MaxDigested {
			fmt.Fprintf(h, "large\x00%d\x00%d\x00", info.Size(), info.ModTime().UnixNano())
			continue
		}
		// Bounded still: the file may have grown since Stat.
		data, err := ReadFileMax(name, MaxDigested)
		sum := sha256.Sum256(data)
		if err != nil {
			sum = [sha256.Size]byte{}
		}
		h.Write(sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// inFolder returns the names of files in the workspace's folder dir as
// paths relative to the workspace ("dir/name").
func inFolder(dir string, names []string) []string {
	if names == nil {
		return nil
	}
	rel := make([]string, len(names))
	for i, n := range names {
		rel[i] = path.Join(dir, n)
	}
	return rel
}

// sourcesIfAny is Sources of a folder that may not exist: a missing
// folder has no sources.
func sourcesIfAny(dir string) ([]string, error) {
	names, err := Sources(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return names, err
}

// root opens the workspace's folder as an os.Root: every file kurs reads
// or writes through it stays inside the workspace, whatever symbolic links
// or names such as "../x" a learner's folder holds.
func (w *Workspace) root() (*os.Root, error) { return os.OpenRoot(w.Dir) }

// readIn reads the file rel (slash-separated) inside root, at most limit
// bytes (see ReadFileMax).
func readIn(root *os.Root, rel string, limit int64) ([]byte, error) {
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllMax(f, rel, limit)
}

// writeIn writes data to the file rel (slash-separated) inside root
// atomically (see atomicfile.WriteIn), with the mode of the file it
// replaces (see modeIn).
func writeIn(root *os.Root, rel string, data []byte) error {
	return atomicfile.WriteIn(root, filepath.FromSlash(rel), data, modeIn(root, rel))
}

// modeIn returns the permissions of the file rel (slash-separated) inside
// root, which a new version keeps (a learner who made the file private
// keeps it private), or, for a new file, those a file from the learner's
// editor gets: 0644 less the umask.
func modeIn(root *os.Root, rel string) fs.FileMode {
	if fi, err := root.Lstat(filepath.FromSlash(rel)); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	return 0o644
}
