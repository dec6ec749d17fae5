package build

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/atomicfile"
)

// Recall returns what Remember stored under key, if it is still there.
func (b *Builder) Recall(key string) ([]byte, bool) { return b.recall(key, "results") }

// RecallProgram returns what RememberProgram stored under key, if it is
// still there: a result named by the learner's program rather than by its
// sources, kept apart from those.
func (b *Builder) RecallProgram(key string) ([]byte, bool) {
	return b.recall(key, "results", "programs")
}

// Remember stores data under key (a hash of everything that made it),
// written aside and renamed, so that Recall never reads half of it. What
// is not recalled for a week goes.
func (b *Builder) Remember(key string, data []byte) error { return b.remember(key, data, "results") }

// RememberProgram stores data as Remember does, for RecallProgram.
func (b *Builder) RememberProgram(key string, data []byte) error {
	return b.remember(key, data, "results", "programs")
}

func (b *Builder) recall(key string, folder ...string) ([]byte, bool) {
	dir, err := b.sub(folder...)
	if err != nil {
		return nil, false
	}
	name := filepath.Join(dir, key+".json")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(name, now, now) // recently used: kept by trimming
	return data, true
}

func (b *Builder) remember(key string, data []byte, folder ...string) error {
	dir, err := b.sub(folder...)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, key+".json"), data, 0o600); err != nil {
		return err
	}
	b.trimSoon()
	return nil
}

// trimResults removes the results in the folder name of root not recalled
// for a week: regular files only, never through a link.
func trimResults(root *os.Root, name string) {
	dir, err := openSub(root, name)
	if err != nil {
		return
	}
	defer dir.Close()
	entries, err := fs.ReadDir(dir.FS(), ".")
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 7*24*time.Hour {
			_ = dir.Remove(e.Name())
		}
	}
}

// Secret returns the secret kept in the cache under name: 128 random bits
// in hex, made the first time and readable by the user alone. kurs serve
// keeps the key of its address there, so that a restarted server knows the
// browsers that logged in before. A file under that name that is a link,
// not the user's or readable by others is refused, not used.
func (b *Builder) Secret(name string) (string, error) {
	p := filepath.Join(b.dir, name)
	s, err := readSecret(p)
	if !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(b.dir, ".new-")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(hex.EncodeToString(raw) + "\n"); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	// A link, not a rename: of two servers started at once, both use the
	// secret that got there first.
	if err := os.Link(f.Name(), p); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	return readSecret(p)
}

// readSecret reads a secret that Secret wrote.
func readSecret(p string) (string, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() || !private(info) {
		return "", fmt.Errorf("%s may be read or written by other users", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, 64))
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(data))
	if _, err := hex.DecodeString(s); err != nil || len(s) != 32 {
		return "", fmt.Errorf("%s holds no secret", p)
	}
	return s, nil
}
