package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/workspace"
)

// TestExit pins down the one mapping from what went wrong to the exit
// code and to what stderr says.
func TestExit(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	running := context.Background()
	for _, c := range []struct {
		name   string
		ctx    context.Context
		err    error
		code   int
		stderr string
	}{
		{"success", running, nil, ExitOK, ""},
		{"a failure the output has shown", running, errFailed, ExitFail, ""},
		{"a failure with its reason", running, &failedError{"kurs: the request was refused"}, ExitFail, "kurs: the request was refused\n"},
		{"bad usage", running, &usageError{"kurs: unknown verb x"}, ExitUsage, "kurs: unknown verb x\n"},
		{"bad usage reported already", running, &usageError{}, ExitUsage, ""},
		{"no workspace", running, fmt.Errorf("%w in /home/ada", workspace.ErrNotFound), ExitUsage,
			"kurs: there is no kurs workspace (kurs.toml) in /home/ada/course or above. Create one with 'kurs init DIR', or name it with --workspace DIR.\n"},
		{"setup", running, &fs.PathError{Op: "open", Path: "kurs.toml", Err: fs.ErrPermission}, ExitUsage, "kurs: open kurs.toml: permission denied\n"},
		{"interrupted", ended, context.Canceled, ExitUsage, "kurs: interrupted; nothing was left running\n"},
		{"a write error outweighs a failing exercise", running, errors.Join(&usageError{"kurs: cannot write r.xml"}, errFailed), ExitUsage, "kurs: cannot write r.xml\n"},
		{"a failing exercise outweighs success", running, errors.Join(nil, errFailed), ExitFail, ""},
		{"several errors, each said in order", running, errors.Join(&failedError{"one"}, &usageError{"two"}, &usageError{"three"}), ExitUsage, "one\ntwo\nthree\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr bytes.Buffer
			e := &env{IO: IO{Err: &stderr, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return "/home/ada/course", nil }}, ctx: c.ctx, p: i18n.New("en")}
			assert.Equal(t, c.code, e.exit(c.err))
			assert.Equal(t, c.stderr, stderr.String())
		})
	}
}

// failingWriter fails every write, as stdout does on a full disk or when
// the program reading it has gone.
type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// wholeClass is the JSON document of a batch of one submission, which
// kurs grade merge writes in any batch format without checking anything.
const wholeClass = `{"version": 1, "course": "sha256:c0ffee", "kurs": "v1.2.0", "seed": 1, "exercise_ids": ["bulkheadquiz"],
 "submissions": [{"id": "anna", "version": 1, "status": "pass", "score": 2, "max_score": 2,
  "exercises": [{"id": "bulkheadquiz", "status": "pass", "score": 2, "max_score": 2, "message": "", "tests": []}]}]}`

// TestWriteErrorsExitTwo makes sure a document that could not be written
// is never taken for written: kurs says why, in the learner's language,
// and exits 2.
func TestWriteErrorsExitTwo(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "class.json"), []byte(wholeClass), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644))
	for _, c := range []struct {
		name   string
		args   []string
		stdout error
		stderr string
	}{
		{"stdout on a full disk", []string{"--format", "csv"}, syscall.ENOSPC,
			"kurs: cannot write the results to standard output: the disk is full\n"},
		{"stdout on a full disk, in German", []string{"--format", "csv", "--lang", "de"}, syscall.ENOSPC,
			"kurs: die Ergebnisse lassen sich nicht auf die Standardausgabe schreiben: der Datenträger ist voll\n"},
		{"stdout through a closed pipe", []string{"--format", "json"}, syscall.EPIPE,
			"kurs: cannot write the results to standard output: the program reading them has closed the pipe\n"},
		{"the text beside --output", []string{"--format", "json", "--output", "out/class.json"}, syscall.ENOSPC,
			"kurs: cannot write the results to standard output: the disk is full\n"},
		{"--output in a file", []string{"--format", "csv", "--output", "notes.txt/grades.csv"}, nil,
			"kurs: cannot write notes.txt/grades.csv: notes.txt is a file, not a folder\n"},
		{"--csv in a file, in German", []string{"--csv", "notes.txt/a/grades.csv", "--lang", "de"}, nil,
			"kurs: notes.txt/a/grades.csv lässt sich nicht schreiben: notes.txt ist eine Datei, kein Ordner\n"},
		{"--output that is a folder", []string{"--format", "json", "--output", "."}, nil,
			"kurs: cannot write .: that is a folder\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			io := IO{Out: &stdout, Err: &stderr, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil }}
			if c.stdout != nil {
				io.Out = failingWriter{c.stdout}
			}
			code := Main(context.Background(), append([]string{"grade", "merge", "class.json"}, c.args...), io)
			assert.Equal(t, ExitUsage, code)
			assert.Equal(t, c.stderr, stderr.String())
		})
	}
}
