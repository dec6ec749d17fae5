//go:build unix

package build

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nobodyEnv marks a test run again as uid 65534 by asNobody.
const nobodyEnv = "KURS_TEST_AS_NOBODY"

// asNobody runs the test name again as uid 65534, in a process of its own,
// when the test runs as root: the same attacks against an unprivileged
// grader. It copies the test binary where 65534 may execute it.
func asNobody(t *testing.T, name string) {
	t.Helper()
	if os.Getuid() != 0 || os.Getenv(nobodyEnv) != "" {
		return
	}
	t.Run("nobody", func(t *testing.T) {
		dir, err := os.MkdirTemp("", "kurs-nobody-")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		require.NoError(t, os.Chmod(dir, os.ModeSticky|0o777))
		src, err := os.Open(os.Args[0])
		require.NoError(t, err)
		defer src.Close()
		bin := filepath.Join(dir, "build.test")
		dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
		require.NoError(t, err)
		_, err = io.Copy(dst, src)
		require.NoError(t, err)
		require.NoError(t, dst.Close())
		cmd := exec.Command(bin, "-test.run=^"+name+"$", "-test.v", "-test.count=1")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), nobodyEnv+"=1", "TMPDIR="+dir, "HOME="+dir, CacheEnv+"=", "XDG_CACHE_HOME=")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: "+name, "%s", out)
		require.NotContains(t, string(out), "--- SKIP: "+name, "%s", out)
	})
}

// week is older than any result trimming keeps.
var week = time.Now().Add(-8 * 24 * time.Hour)

// victim makes a folder of the grader's with files that trimming would
// remove if it reached them: results not used for a week, objects over
// any bound.
func victim(t *testing.T, dir string) []string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o700))
	var files []string
	for _, name := range []string{"notes.json", "thesis.json", "big.bin"} {
		p := filepath.Join(dir, name)
		size := 10
		if name == "big.bin" {
			size = maxObjects + 1
		}
		f, err := os.Create(p)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(int64(size)))
		require.NoError(t, f.Close())
		require.NoError(t, os.Chtimes(p, week, week))
		files = append(files, p)
	}
	return files
}

func assertAllThere(t *testing.T, files []string) {
	t.Helper()
	for _, f := range files {
		assert.FileExists(t, f, "trimming reached a file outside the cache")
	}
}

// TestLinkedCacheIsRefused plays the attack on a cache path that another
// user can make first (KURS_CACHE=/tmp/kc): that user makes it a link to a
// folder of the grader's, then points it at a tree of their own whose
// results, objects and go-build are links back to folders of the
// grader's. kurs refuses the link, names it and says what is wrong, and
// removes nothing anywhere. A link of the user's own in a folder of their
// own is used, but resolved once: pointed elsewhere afterwards, it changes
// nothing; and a link inside the cache is never followed.
func TestLinkedCacheIsRefused(t *testing.T) {
	asNobody(t, "TestLinkedCacheIsRefused")
	base := t.TempDir()
	shared := filepath.Join(base, "tmp")
	require.NoError(t, os.Mkdir(shared, 0o700))
	require.NoError(t, os.Chmod(shared, os.ModeSticky|0o777)) // as /tmp is
	grader := filepath.Join(base, "grader")
	require.NoError(t, os.Mkdir(grader, 0o700))
	precious := victim(t, filepath.Join(base, "precious"))

	evil := filepath.Join(base, "evil")
	require.NoError(t, os.Mkdir(evil, 0o700))
	for _, sub := range []string{"results", "objects", "go-build"} {
		require.NoError(t, os.Symlink(filepath.Dir(precious[0]), filepath.Join(evil, sub)))
	}

	t.Run("a link in a folder open to all", func(t *testing.T) {
		link := filepath.Join(shared, "kc")
		require.NoError(t, os.Symlink(grader, link))
		if os.Getuid() == 0 {
			// As root the other user is real: the link is theirs.
			require.NoError(t, os.Lchown(link, 65534, 65534))
		}
		_, err := New(Options{Dir: link})
		var ue *UnsafeError
		require.True(t, errors.As(err, &ue), "%v", err)
		assert.Equal(t, link, ue.Dir, "the message names the link")
		assert.True(t, ue.Link)
		assert.Equal(t, os.Getuid() == 0, ue.Foreign)
		assertEmpty(t, grader)

		// Pointed at the other user's tree: still refused, nothing goes.
		require.NoError(t, os.Remove(link))
		require.NoError(t, os.Symlink(evil, link))
		_, err = New(Options{Dir: link})
		require.True(t, errors.As(err, &ue), "%v", err)
		assertAllThere(t, precious)

		// Below such a link too.
		_, err = New(Options{Dir: filepath.Join(link, "kurs")})
		require.True(t, errors.As(err, &ue), "%v", err)
		assert.Equal(t, link, ue.Dir)
		assertAllThere(t, precious)
	})

	t.Run("the user's own link is resolved once", func(t *testing.T) {
		own := filepath.Join(base, "own")
		require.NoError(t, os.Mkdir(own, 0o700))
		link := filepath.Join(own, "kc")
		require.NoError(t, os.Symlink(grader, link))
		b, err := New(Options{Dir: link})
		require.NoError(t, err)
		defer b.Close()
		real, err := filepath.EvalSymlinks(grader)
		require.NoError(t, err)
		assert.Equal(t, real, b.Dir(), "the resolved path, from then on")

		require.NoError(t, os.Remove(link))
		require.NoError(t, os.Symlink(evil, link))
		require.NoError(t, b.Remember("k", []byte("{}")))
		assert.FileExists(t, filepath.Join(grader, "results", "k.json"))
		b.trim(context.Background())
		assertAllThere(t, precious)
	})

	t.Run("links inside the cache", func(t *testing.T) {
		cache := filepath.Join(base, "cache")
		b, err := New(Options{Dir: cache})
		require.NoError(t, err)
		defer b.Close()
		for _, sub := range []string{"results", "objects", "go-build"} {
			require.NoError(t, os.Symlink(filepath.Dir(precious[0]), filepath.Join(cache, sub)))
		}
		b.trim(context.Background())
		assertAllThere(t, precious)
		err = b.Remember("k", []byte("{}"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "is a symbolic link")
		assert.NoFileExists(t, filepath.Join(filepath.Dir(precious[0]), "k.json"), "nothing written through the link")
		_, err = b.keep("x", precious[0], 0o600)
		assert.Error(t, err)
		entries, err := os.ReadDir(filepath.Dir(precious[0]))
		require.NoError(t, err)
		assert.Len(t, entries, len(precious), "nothing written through the link")
	})
}

// The refusal says what is wrong with which path, in both languages' words
// (the messages are the command line's; here the error's own text).
func TestUnsafeErrorSaysWhat(t *testing.T) {
	for _, tc := range []struct {
		err  UnsafeError
		want string
	}{
		{UnsafeError{Dir: "/tmp/kc", Link: true, Foreign: true}, "/tmp/kc is a link that belongs to another user"},
		{UnsafeError{Dir: "/tmp/kc", Link: true}, "/tmp/kc is a link in a folder other users may write"},
	} {
		assert.True(t, strings.HasSuffix(tc.err.Error(), tc.want), tc.err.Error())
	}
}
