package cli

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/term"

	"github.com/kurs-course/kurs/internal/atomicfile"
)

// The documents of kurs grade are written whole or not at all: each is
// made in memory first, and a write that fails (a full disk, a reader
// that went away) is an error with exit status 2, never a document taken
// for written.

// writeStdout writes the document that write makes to stdout.
func (e *env) writeStdout(write func(io.Writer) error) error {
	data, err := render(write)
	if err == nil {
		_, err = e.Out.Write(data)
	}
	if err != nil {
		return e.usageErr("grade.write_stdout", "Err", e.ioReason("", err))
	}
	return nil
}

// writeFile writes the document that write makes to the file name, as
// given on the command line.
func (e *env) writeFile(name string, write func(io.Writer) error) error {
	data, err := render(write)
	var abs string
	if err == nil {
		abs, err = e.abs(name)
	}
	if err == nil {
		err = writeOutput(abs, data)
	}
	if err != nil {
		return e.usageErr("grade.write", "File", name, "Err", e.ioReason(name, err))
	}
	return nil
}

// appendSummary appends the Markdown that write makes to the job summary
// name, after what other steps wrote there.
func (e *env) appendSummary(name string, write func(io.Writer) error) error {
	data, err := render(write)
	if err == nil {
		err = writeTo(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, data)
	}
	if err != nil {
		return e.usageErr("grade.summary", "File", name, "Err", e.ioReason(name, err))
	}
	return nil
}

// render returns what write writes.
func render(write func(io.Writer) error) ([]byte, error) {
	var b bytes.Buffer
	err := write(&b)
	return b.Bytes(), err
}

// writeOutput writes data to the file name atomically, so that a CI job
// that reads it never sees half. A name that is something else (a pipe,
// a device such as /dev/stdout, a symbolic link) cannot be replaced
// without harm; it gets the bytes in place.
func writeOutput(name string, data []byte) error {
	if info, err := os.Lstat(name); err == nil && !info.Mode().IsRegular() {
		if info.IsDir() {
			return &fs.PathError{Op: "write", Path: name, Err: syscall.EISDIR}
		}
		return writeTo(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, data)
	}
	return atomicfile.WriteFile(name, data, 0o644)
}

// writeTo opens the file name with flag and writes data to it.
func writeTo(name string, flag int, data []byte) error {
	f, err := os.OpenFile(name, flag, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// ioReason says why writing the file name ("" for stdout) failed: in the
// learner's language for the common reasons, else as the system says it.
func (e *env) ioReason(name string, err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return e.p.T("grade.io_full")
	case errors.Is(err, syscall.EPIPE):
		return e.p.T("grade.io_pipe")
	case errors.Is(err, syscall.EROFS):
		return e.p.T("grade.io_read_only")
	case errors.Is(err, fs.ErrPermission):
		return e.p.T("grade.io_denied")
	case errors.Is(err, syscall.EISDIR):
		return e.p.T("grade.io_folder")
	case errors.Is(err, syscall.ENOTDIR):
		if file := e.fileOnPath(name); file != "" {
			return e.p.T("grade.io_not_folder", "File", file)
		}
	}
	return err.Error()
}

// fileOnPath returns the first folder of the path name, as given, that is
// a file rather than a folder, or "".
func (e *env) fileOnPath(name string) string {
	for d := filepath.Dir(name); d != filepath.Dir(d); d = filepath.Dir(d) {
		abs, err := e.abs(d)
		if err != nil {
			return ""
		}
		if info, err := os.Stat(abs); err == nil {
			if info.IsDir() {
				return ""
			}
			return d
		}
	}
	return ""
}

// terminal returns the file descriptor of v when v is a terminal: the one
// test of whether kurs may draw, wrap to the width or read single keys.
func terminal(v any) (int, bool) {
	f, ok := v.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0, false
	}
	return int(f.Fd()), true
}
