package checker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kurs-course/kurs/internal/course"
)

// judge returns the path of the exercise's judge: the test program built
// with the reference in place of the learner's package. It holds no
// learner code, so its verdicts can be trusted. It is built once per
// exercise content and go version and kept in kurs's cache.
func (c *Checker) judge(ctx context.Context, ex *course.Exercise) (string, error) {
	mod, err := moduleFiles(ex, nil, true)
	if err != nil {
		return "", err
	}
	delete(mod, "suite.json") // the suite is read at run time, not compiled
	key, err := c.contentKey(mod)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cacheRoot(), "judges")
	name := filepath.Join(dir, ex.ID+"-"+key)
	if runtime.GOOS == "windows" {
		name += ".exe"
	}

	v, _ := judgeLocks.LoadOrStore(name, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	defer mu.Unlock()

	if _, err := os.Stat(name); err == nil {
		now := time.Now()
		_ = os.Chtimes(name, now, now) // recently used: kept by trimming
		return name, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(c.TempDir, "kurs-judge-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := writeFiles(tmp, mod); err != nil {
		return "", err
	}
	prog, p, err := c.build(ctx, tmp, judgeName, trustedBuildTimeout)
	if err != nil {
		return "", err
	}
	if p != nil {
		return "", &JudgeError{Exercise: ex.ID, Detail: p.Detail}
	}
	// Another kurs may build the same judge at the same time: the rename
	// is atomic, and both builds are the same program.
	if err := os.Rename(prog, name); err != nil {
		return "", err
	}
	trimJudges(dir, ex.ID, name)
	return name, nil
}

// suiteFile returns the path of a file that holds the exercise's suite as
// judges read it: written once per content into kurs's cache, beside the
// judges, rather than once per check. Suites are a few kilobytes and stay.
func (c *Checker) suiteFile(ex *course.Exercise) (string, error) {
	data, err := json.Marshal(ex.Suite)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	dir := filepath.Join(cacheRoot(), "judges", "suites")
	name := filepath.Join(dir, ex.ID+"-"+hex.EncodeToString(sum[:10])+".json")
	if _, err := os.Stat(name); err == nil {
		return name, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Written aside and renamed, so that a judge never reads half a suite.
	f, err := os.CreateTemp(dir, ".suite-")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return name, os.Rename(f.Name(), name)
}

// judgeName is the file name of a judge as it is built.
const judgeName = "kurs-judge"

// judgeLocks holds a mutex per judge, so that checks running at the same
// time build each judge once.
var judgeLocks sync.Map

// JudgeError reports an exercise whose reference and driver do not build:
// a mistake in the course, not in the learner's code.
type JudgeError struct {
	Exercise string
	Detail   string
}

func (e *JudgeError) Error() string {
	return "exercise " + e.Exercise + ": the reference with the test program does not build: " + e.Detail
}

// contentKey hashes a module's files together with the go command that
// builds it and the platform.
func (c *Checker) contentKey(mod map[string][]byte) (string, error) {
	id, err := c.goIdentity()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(runtime.GOOS + "/" + runtime.GOARCH + "\x00" + id + "\x00"))
	names := make([]string, 0, len(mod))
	for n := range mod {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h.Write([]byte(n + "\x00"))
		h.Write(mod[n])
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// goIdentity names the go command that builds, by its path and the time
// it was installed: a new toolchain makes new judges and kits.
func (c *Checker) goIdentity() (string, error) {
	goCmd, err := c.goCommand()
	if err != nil {
		return "", err
	}
	info, err := os.Stat(goCmd)
	if err != nil {
		return "", fmt.Errorf("go command: %w", err)
	}
	return goCmd + "@" + info.ModTime().UTC().Format(time.RFC3339Nano), nil
}

// trimJudges removes older judges of the same exercise: only the newest
// content is ever used again.
func trimJudges(dir, id, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		if name != keep && strings.HasPrefix(e.Name(), id+"-") && !e.IsDir() {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				os.Remove(name)
			}
		}
	}
}

// cacheEnv names the environment variable that, when set, is the folder
// where kurs keeps its build cache and judges instead of the user's cache
// folder.
const cacheEnv = "KURS_CACHE"

// cacheRoot returns kurs's own cache folder.
func cacheRoot() string {
	if d := os.Getenv(cacheEnv); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "kurs")
	}
	return filepath.Join(os.TempDir(), "kurs-cache")
}

// buildCache returns the go build cache that learner builds use: kurs's
// own, so that no submission grows the user's Go cache, and trimmed by
// size.
func buildCache() string { return filepath.Join(cacheRoot(), "go-build") }

// MaxCache bounds kurs's build cache; when it grows past it, the least
// recently used files go until it is at three quarters.
const MaxCache = 1 << 30

var (
	trimMu   sync.Mutex
	lastTrim time.Time
)

// trimCacheSoon trims the build cache at most once a minute, in the
// background: walking a large cache takes long, and no check needs to
// wait for it.
func trimCacheSoon() {
	trimMu.Lock()
	defer trimMu.Unlock()
	if time.Since(lastTrim) < time.Minute {
		return
	}
	lastTrim = time.Now()
	go TrimCache(buildCache(), MaxCache)
}

// TrimCache removes the least recently modified files under dir until
// their total size is at most three quarters of limit, if it exceeds limit.
// go marks a cache entry it uses by its modification time, and a missing
// entry is only rebuilt, so any file may go.
func TrimCache(dir string, limit int64) {
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
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
	if total <= limit {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files {
		if total <= limit/4*3 {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}
