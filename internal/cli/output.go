package cli

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/kurs-course/kurs/internal/atomicfile"
	"github.com/kurs-course/kurs/internal/term"
	"github.com/kurs-course/kurs/internal/termdoc"
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

// stdout returns the Terminal of the verb's output: the one place that
// knows whether it is a terminal, how wide and whether it takes colours.
func (e *env) stdout() *term.Terminal {
	if e.outTerm == nil || e.outTerm.Writer() != e.Out {
		e.outTerm = term.New(e.Out, e.Getenv)
	}
	return e.outTerm
}

// stderr returns the Terminal of the verb's messages (see stdout).
func (e *env) stderr() *term.Terminal {
	if e.errTerm == nil || e.errTerm.Writer() != e.Err {
		e.errTerm = term.New(e.Err, e.Getenv)
	}
	return e.errTerm
}

// say writes the message id, kurs's own words, to the output: on a
// terminal wrapped to its width at spaces.
func (e *env) say(id string, kv ...any) {
	e.stdout().Println(e.p.T(id, kv...))
}

// sayErr writes the message id to stderr as say writes to the output.
func (e *env) sayErr(id string, kv ...any) {
	e.stderr().Println(e.p.T(id, kv...))
}

// screen describes where a verb's output goes: stdout's Terminal as it is
// now, for the verbs that lay a screen out.
type screen struct {
	tty   bool // a terminal: clear it, colour it
	fd    int
	width int
	color bool
	t     *term.Terminal
}

// screen finds out whether stdout is a terminal and how wide it is. A pipe
// or file gets plain text at the width in COLUMNS, else 80 columns.
func (e *env) screen() screen {
	t := e.stdout()
	return screen{tty: t.IsTerminal(), fd: t.Fd(), width: t.Width(), color: t.Color(), t: t}
}

// wrap returns the width to wrap an explanation's prose to: on a terminal
// as the lesson's, elsewhere 0, so that a file or a pipe gets each line
// whole, the same whatever COLUMNS says.
func (s screen) wrap() int { return s.t.TextWidth() }

// fit wraps each line of text, kurs's words, to the screen as say does.
func (s screen) fit(text string) string { return s.t.Fit(text) }

// text returns the rendering options for running text on this screen.
func (s screen) text() termdoc.Options {
	return termdoc.Options{Width: min(s.width, maxTextWidth), Color: s.color}
}

// terminal returns the file descriptor of v when v is a terminal (see
// term.FD).
func terminal(v any) (int, bool) { return term.FD(v) }
