package build

import (
	"context"
	"errors"
	"fmt"
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
// written by someone else, or a link on the way to it could be pointed
// elsewhere by someone else: what it holds could have been planted, and
// what kurs removes when it trims could be another's. Nothing in it is
// used, and nothing is written into it.
type UnsafeError struct {
	Dir string
	// Foreign says the folder (or link) belongs to another user; else
	// others may write into it (or into the folder that holds the link).
	Foreign bool
	// Link says Dir is a symbolic link.
	Link bool
}

func (e *UnsafeError) Error() string {
	switch {
	case e.Link && e.Foreign:
		return "cache path " + e.Dir + " is a link that belongs to another user"
	case e.Link:
		return "cache path " + e.Dir + " is a link in a folder other users may write"
	case e.Foreign:
		return "cache folder " + e.Dir + " belongs to another user"
	}
	return "cache folder " + e.Dir + " may be written by other users"
}

// ensureRoot makes the cache folder dir if it is missing, readable and
// writable by its user alone, checks that no one else can change it, what
// it holds, or the way to it, and returns its real path, without links:
// the only one kurs uses from then on. A link on the way must be the
// user's or root's, in a folder no one else may write (else another user
// could point it at a folder of the user's, or of their own, between two
// runs, and trimming would remove what is there); every folder above the
// real path must be the user's or root's and not open to others unless it
// is sticky (as /tmp is); the folder itself the user's alone. In the
// temporary folder (temp), where anyone may make a folder of that name
// first, it must be a folder, not a link, and this user's.
func ensureRoot(dir string, temp bool) (string, error) {
	if err := checkLinks(dir); err != nil {
		return "", err
	}
	if temp {
		err := os.Mkdir(dir, 0o700)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		info, err := os.Lstat(dir)
		if err != nil {
			return "", err
		}
		if !info.IsDir() {
			return "", &UnsafeError{Dir: dir, Foreign: true, Link: info.Mode()&fs.ModeSymlink != 0}
		}
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	// Again, now that every part is there.
	if err := checkLinks(dir); err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	// The folders above: the user's or the system's, and not open to
	// others (a sticky folder such as /tmp lets no one else replace what
	// the user made in it).
	for up := filepath.Dir(real); ; up = filepath.Dir(up) {
		if err := checkDir(up, true); err != nil {
			return "", err
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
		return "", err
	}
	return real, nil
}

// checkLinks checks every part of the absolute path dir that exists and
// is a symbolic link (checkLink).
func checkLinks(dir string) error {
	at := string(filepath.Separator)
	for _, part := range strings.Split(dir, string(filepath.Separator)) {
		if part == "" {
			continue
		}
		at = filepath.Join(at, part)
		info, err := os.Lstat(at)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			if err := checkLink(at, info); err != nil {
				return err
			}
		}
	}
	return nil
}

// ensureSub makes the folder dir inside the cache root, and the folders
// between, readable and writable by the user alone, and checks each that
// was there already: a folder of the user's alone. A link there can only
// be the user's own doing (the root is theirs alone); kurs writes nothing
// through one, but for the folders in sharable, whose content is hashed
// before use or go's own, where a link of the user's to a folder of the
// user's alone lets several caches share them (as kurs's own tests do).
func ensureSub(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return err
	}
	at := root
	for i, p := range strings.Split(filepath.ToSlash(rel), "/") {
		if p == "." || p == "" {
			continue
		}
		at = filepath.Join(at, p)
		if err := os.Mkdir(at, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		info, err := os.Lstat(at)
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			if i > 0 || !sharable[p] {
				return fmt.Errorf("%s is a symbolic link: kurs keeps nothing through it", at)
			}
			if err := checkLink(at, info); err != nil {
				return err
			}
			real, err := filepath.EvalSymlinks(at)
			if err != nil {
				return err
			}
			if err := checkDir(real, false); err != nil {
				return err
			}
			continue
		}
		if err := checkDir(at, false); err != nil {
			return err
		}
	}
	return nil
}

// sharable are the folders of the cache that may be links (ensureSub).
var sharable = map[string]bool{"go-build": true, "kits": true, "judges": true}

// ensureGoCache makes the go build cache inside the cache root (a link
// to a folder of the user's alone is accepted, see ensureSub): go, not
// kurs, writes there, and trimming never follows a link.
func (b *Builder) ensureGoCache() error { return ensureSub(b.dir, b.goCache()) }

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
		b.trim(b.ctx)
	}()
}

// trim trims the results, the objects and the go build cache. It works
// inside the cache root's handle (os.Root), so that nothing outside the
// cache is ever reached, and skips a folder that is a link: a link in the
// cache is no one's doing but the user's own, and trimming removes only
// regular files, never through a link.
func (b *Builder) trim(ctx context.Context) {
	root, err := os.OpenRoot(b.dir)
	if err != nil {
		return
	}
	defer root.Close()
	trimResults(root, "results")
	trimResults(root, filepath.Join("results", "programs"))
	for _, sub := range []string{objectsFolder, gradeObjectsFolder} {
		objs, err := openSub(root, sub)
		if err != nil {
			continue
		}
		// What keep leaves behind when it is killed; the cap is kept
		// by keep itself.
		if unlock, err := lockFile(objs, ".lock"); err == nil {
			trimObjects(objs, objectsBound(sub == gradeObjectsFolder), 0)
			unlock()
		}
		objs.Close()
	}
	trimCache(ctx, root, "go-build", MaxCache)
}

// openSub opens the folder name in root, which must be a folder, not a
// link.
func openSub(root *os.Root, name string) (*os.Root, error) {
	info, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &UnsafeError{Dir: filepath.Join(root.Name(), name), Link: info.Mode()&fs.ModeSymlink != 0}
	}
	return root.OpenRoot(name)
}

// trimCache removes the least recently modified regular files under the
// folder name in root until their total size is at most three quarters
// of limit, if it exceeds limit, or until ctx ends. go marks a cache
// entry it uses by its modification time, and a missing entry is only
// rebuilt, so any file may go. Links are neither followed nor counted.
func trimCache(ctx context.Context, root *os.Root, name string, limit int64) {
	dir, err := openSub(root, name)
	if err != nil {
		return
	}
	defer dir.Close()
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	_ = fs.WalkDir(dir.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || !d.Type().IsRegular() {
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
		if dir.Remove(f.path) == nil {
			total -= f.size
		}
	}
}
