package build

import (
	"os"
	"path/filepath"
	"time"
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
	f, err := os.CreateTemp(dir, ".new-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, key+".json")); err != nil {
		return err
	}
	b.trimSoon()
	return nil
}

// trimResults removes the results in dir not recalled for a week.
func trimResults(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 7*24*time.Hour {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
