package build

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
)

// errTampered means a file of the cache no longer has the hash recorded
// when kurs made it: it is not used, and made anew.
var errTampered = errors.New("build: a file of the cache was changed")

// hashFile returns the SHA-256 of the file name, hex-encoded, and its
// identity on disk as it was read.
func hashFile(name string) (sum, id string, err error) {
	f, err := os.Open(name)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", "", err
	}
	return hex.EncodeToString(h.Sum(nil)), fileID(info), nil
}

// verify checks that the file name still has the hash sum. A file is
// hashed once while it stays the same file on disk: a replaced or
// rewritten file has another identity (its inode, size, or change time,
// which no one but the kernel sets) and is hashed again.
func (b *Builder) verify(name, sum string) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	if v, ok := b.verified.Load(name); ok && v.(string) == fileID(info)+"\x00"+sum {
		return nil
	}
	got, id, err := hashFile(name)
	if err != nil {
		return err
	}
	if got != sum {
		b.verified.Delete(name)
		return errTampered
	}
	b.verified.Store(name, id+"\x00"+sum)
	return nil
}
