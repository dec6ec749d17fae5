package build

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Self names the running kurs by its file: its path and its identity on
// disk (size, modification time and, where there is one, device, inode
// and change time). A result that kurs's own code made, such as a
// verdict or its explanation, is kept under a key that includes Self, so
// that a kurs built anew (an upgrade, a developer's change) never takes
// the results of another for its own. The file's identity stands in for
// its content, which would take longer to hash than a check takes.
func Self() string { return self() }

var self = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	info, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return exe + "\x00" + fileID(info)
})

// ForSelf returns what compute returns for the running kurs (see Self),
// kept in the cache's folder self/ under name: computed once per kurs
// binary, for a value that depends on nothing but the binary, such as the
// hash of its built-in course, which kurs version would otherwise hash at
// every start. A value that cannot be kept is still returned.
func (b *Builder) ForSelf(name string, compute func() (string, error)) (string, error) {
	dir, err := b.sub("self")
	if err != nil {
		return compute()
	}
	key := sha256.Sum256([]byte(Self() + "\x00" + name))
	file := filepath.Join(dir, hex.EncodeToString(key[:16]))
	if data, err := os.ReadFile(file); err == nil && len(data) > 0 {
		return string(data), nil
	}
	v, err := compute()
	if err != nil {
		return "", err
	}
	trimSelf(dir)
	_ = writeRecord(file, v)
	return v, nil
}

// trimSelf removes the values of kurs binaries that have not been asked
// for a month: every build of kurs (and every test binary) adds one.
func trimSelf(dir string) {
	entries, _ := os.ReadDir(dir)
	old := time.Now().AddDate(0, -1, 0)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.ModTime().Before(old) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
