package build

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CacheEnv names the environment variable that, when set, is the folder
// where kurs keeps its build cache, kits and judges instead of the user's
// cache folder.
const CacheEnv = "KURS_CACHE"

// DefaultDir returns kurs's cache folder: $KURS_CACHE, else kurs in the
// user's cache folder, else a folder of the user's own in the temporary
// folder (temp is then true: it must be made by this user, never merely
// found).
func DefaultDir() (dir string, temp bool) {
	if d := os.Getenv(CacheEnv); d != "" {
		return d, false
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "kurs"), false
	}
	return filepath.Join(os.TempDir(), "kurs-cache-"+strconv.Itoa(os.Getuid())), true
}

// UnsafeError means a folder of the cache, or one above it, could be
// written by someone else: what it holds could have been planted. Nothing
// in it is used, and nothing is written into it.
type UnsafeError struct {
	Dir string
	// Foreign says the folder belongs to another user; else others may
	// write into it.
	Foreign bool
}

func (e *UnsafeError) Error() string {
	if e.Foreign {
		return "cache folder " + e.Dir + " belongs to another user"
	}
	return "cache folder " + e.Dir + " may be written by other users"
}

// ensureRoot makes the cache folder dir if it is missing, readable and
// writable by its user alone, and checks that no one else can change it
// or what it holds: it and every folder above it. In the temporary folder
// (temp), where anyone may make a folder of that name first, it must be a
// folder, not a link, and this user's.
func ensureRoot(dir string, temp bool) error {
	if temp {
		err := os.Mkdir(dir, 0o700)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		info, err := os.Lstat(dir)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			return &UnsafeError{Dir: dir, Foreign: true}
		}
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	// The folders above: the user's or the system's, and not open to
	// others (a sticky folder such as /tmp lets no one else replace what
	// the user made in it).
	for up := filepath.Dir(real); ; up = filepath.Dir(up) {
		if err := checkDir(up, true); err != nil {
			return err
		}
		if filepath.Dir(up) == up {
			break
		}
	}
	if err := checkDir(real, false); err != nil {
		// Report the folder as it was named.
		var ue *UnsafeError
		if errors.As(err, &ue) && ue.Dir == real {
			ue.Dir = dir
		}
		return err
	}
	return nil
}

// ensureSub makes the folder dir inside the cache root, and the folders
// between, readable and writable by the user alone, and checks each that
// was there already.
func ensureSub(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return err
	}
	at := root
	for _, p := range strings.Split(filepath.ToSlash(rel), "/") {
		if p == "." || p == "" {
			continue
		}
		at = filepath.Join(at, p)
		if err := os.Mkdir(at, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if err := checkDir(at, false); err != nil {
			return err
		}
	}
	return nil
}

// MaxCache bounds kurs's build cache; when it grows past it, the least
// recently used files go until it is at three quarters.
const MaxCache = 1 << 30

// trimSoon trims the go build cache and the results at most once in ten
// minutes, in the background: walking a large cache takes long, and no
// check needs to wait for it. Close stops it.
func (b *Builder) trimSoon() {
	b.trimMu.Lock()
	defer b.trimMu.Unlock()
	if time.Since(b.lastTrim) < time.Minute || b.ctx.Err() != nil {
		return
	}
	b.lastTrim = time.Now()
	// Once in ten minutes for all kurs runs: every check is a run of its
	// own, and walking the cache costs more than a check.
	stamp := filepath.Join(b.dir, "trimmed")
	if info, err := os.Stat(stamp); err == nil && time.Since(info.ModTime()) < 10*time.Minute {
		return
	}
	if err := writeRecord(stamp, b.lastTrim.UTC().Format(time.RFC3339)+"\n"); err != nil {
		return
	}
	b.bg.Add(1)
	go func() {
		defer b.bg.Done()
		trimResults(filepath.Join(b.dir, "results"))
		trimResults(filepath.Join(b.dir, "results", "programs"))
		trimObjects(filepath.Join(b.dir, "objects"), maxObjects)
		trimCache(b.ctx, b.goCache(), MaxCache)
	}()
}

// trimCache removes the least recently modified files under dir until
// their total size is at most three quarters of limit, if it exceeds limit,
// or until ctx ends. go marks a cache entry it uses by its modification
// time, and a missing entry is only rebuilt, so any file may go.
func trimCache(ctx context.Context, dir string, limit int64) {
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		files = append(files, file{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= limit || ctx.Err() != nil {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files {
		if total <= limit/4*3 || ctx.Err() != nil {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}
