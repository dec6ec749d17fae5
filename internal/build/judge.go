package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/internal/atomicfile"
)

// Judge returns the path of the judge of exercise id, the program of the
// trusted module mod (the test program with the reference in place of
// the learner's package, nothing of the learner's). It is built once per
// content and go version and kept in the cache with the hash of what was
// built; a judge whose file no longer has that hash is built anew, never
// run. The error is a *CompileError when mod does not build.
func (b *Builder) Judge(ctx context.Context, id string, mod map[string][]byte) (string, error) {
	key, err := b.Key(mod)
	if err != nil {
		return "", err
	}
	dir, err := b.sub("judges")
	if err != nil {
		return "", err
	}
	name := filepath.Join(dir, id+"-"+key+exeSuffix())

	b.judgeMu.Lock()
	mu := b.judgeLocks[name]
	if mu == nil {
		mu = &sync.Mutex{}
		b.judgeLocks[name] = mu
	}
	b.judgeMu.Unlock()
	mu.Lock()
	defer mu.Unlock()

	if rec, err := os.ReadFile(name + ".sha256"); err == nil {
		// The hash, and the judge's identity on disk when it last had it
		// (see verifyKit): an unchanged judge is not hashed again.
		sum, seen, _ := strings.Cut(strings.TrimSpace(string(rec)), "\n")
		var verr error
		if info, serr := os.Stat(name); serr != nil || seen == "" || seen != fileID(info) {
			if verr = b.verify(name, sum); verr == nil {
				if info, serr := os.Stat(name); serr == nil {
					_ = writeRecord(name+".sha256", sum+"\n"+fileID(info)+"\n")
				}
			}
		}
		if verr == nil {
			now := time.Now()
			_ = os.Chtimes(name+".sha256", now, now) // recently used: kept by trimming
			return name, nil
		}
		if !errors.Is(verr, errTampered) && !errors.Is(verr, fs.ErrNotExist) {
			return "", verr
		}
	}
	if b.cold() {
		b.preparing()
	}
	tmp, err := os.MkdirTemp(b.tempDir, "kurs-judge-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := WriteModule(tmp, mod); err != nil {
		return "", err
	}
	prog, err := b.goBuild(ctx, tmp, "kurs-judge", "", trustedTimeout)
	if err != nil {
		return "", err
	}
	sum, id2, err := hashFile(prog)
	if err != nil {
		return "", err
	}
	// The hash first, then the judge, each by an atomic rename: another
	// kurs may build the same judge at the same time, and both builds are
	// the same program.
	if err := writeRecord(name+".sha256", sum+"\n"); err != nil {
		return "", err
	}
	if err := os.Rename(prog, name); err != nil {
		return "", err
	}
	b.verified.Store(name, id2+"\x00"+sum)
	trimJudges(dir, id, name)
	return name, nil
}

// Suite returns the path of a file that holds data, the suite of exercise
// id as judges read it: written once per content into the cache, beside
// the judges, rather than once per check. Suites are a few kilobytes and
// stay.
func (b *Builder) Suite(id string, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	dir, err := b.sub("judges", "suites")
	if err != nil {
		return "", err
	}
	name := filepath.Join(dir, id+"-"+hex.EncodeToString(sum[:10])+".json")
	if got, err := os.ReadFile(name); err == nil && string(got) == string(data) {
		return name, nil
	}
	// Written aside and renamed, so that a judge never reads half a suite.
	return name, atomicfile.WriteFile(name, data, 0o600)
}

// trimJudges removes older judges of the same exercise that no one has
// used for an hour: only the newest content is ever used again, but
// another kurs (another course, another version) may still be using an
// older one. A judge counts as used when its record was, which Judge
// touches at every use; the judge's own file keeps its build time.
func trimJudges(dir, id, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	recent := func(name string) bool {
		info, err := os.Stat(name)
		return err == nil && time.Since(info.ModTime()) <= time.Hour
	}
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		if name == keep || name == keep+".sha256" || !strings.HasPrefix(e.Name(), id+"-") || e.IsDir() {
			continue
		}
		judge := strings.TrimSuffix(name, ".sha256")
		if recent(judge) || recent(judge+".sha256") {
			continue
		}
		os.Remove(name)
	}
}

// writeRecord writes data into the file name, aside and then renamed, so
// that no reader sees half of it.
func writeRecord(name string, data string) error {
	return atomicfile.WriteFile(name, []byte(data), 0o600)
}
