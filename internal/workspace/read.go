package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge means a file is larger than kurs reads.
var ErrTooLarge = errors.New("file too large")

// Limits on the files of a workspace that kurs reads whole. A learner may
// leave anything in a workspace, such as a sparse file of a terabyte.
const (
	// MaxStateFile bounds kurs.toml and the progress file.
	MaxStateFile = 1 << 20
	// MaxBackupFile bounds a file that Backup copies; the checker refuses
	// source files over 1 MiB anyway.
	MaxBackupFile = 16 << 20
)

// ReadFileMax reads the named file as os.ReadFile does, but at most limit
// bytes: a longer file gives an error that wraps ErrTooLarge. It reads at
// most limit+1 bytes and never allocates by the size the file claims, so a
// file that grows while it is read cannot make it read more.
func ReadFileMax(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllMax(f, name, limit)
}

// readAllMax reads r to its end as ReadFileMax reads a file; name is
// what an error calls it.
func readAllMax(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w: more than %d bytes", name, ErrTooLarge, limit)
	}
	return data, nil
}
