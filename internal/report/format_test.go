package report_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/report"
)

// TestFormatNames makes sure --format offers, and its messages list, the
// formats of one submission and of a batch in the order users know.
func TestFormatNames(t *testing.T) {
	assert.Equal(t, []string{"json", "junit", "gradescope", "github", "text"}, report.FormatNames(false))
	assert.Equal(t, []string{"json", "junit", "csv", "text", "html"}, report.FormatNames(true))
	for _, f := range report.Formats() {
		got, ok := report.LookupFormat(f.Name)
		assert.True(t, ok, f.Name)
		assert.Equal(t, f.Name, got.Name)
		if f.Note != "" {
			for _, lang := range i18n.Languages {
				assert.True(t, i18n.Has(lang, f.Note), "%s: kurs help grade has no note %s on %s", lang, f.Note, f.Name)
			}
		}
	}
	_, ok := report.LookupFormat("xml")
	assert.False(t, ok)
}

var errFull = errors.New("no space left on device")

// fullWriter takes n bytes and then fails, as a full disk or a pipe whose
// reader has gone does.
type fullWriter struct{ n int }

func (w *fullWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, errFull
}

// TestFormatsReturnWriteErrors makes sure that no format takes a document
// that could not be written for a written one: whether the writer fails at
// once, halfway or at the last byte, every format returns its error.
func TestFormatsReturnWriteErrors(t *testing.T) {
	p := i18n.New("en")
	graded := fixture(t)
	for _, f := range report.Formats() {
		var writers []func(w io.Writer) error
		if f.Single != nil {
			writers = append(writers, func(w io.Writer) error { return f.Single(w, p, graded, fixtureRun) })
		}
		if f.Batch != nil {
			writers = append(writers, func(w io.Writer) error { return f.Batch(w, p, classBatch(), nil) })
		}
		if f.Summary != nil {
			writers = append(writers, func(w io.Writer) error { return f.Summary(w, p, graded, fixtureRun) })
		}
		require.NotEmpty(t, writers, "%s describes nothing", f.Name)
		for i, write := range writers {
			var whole bytes.Buffer
			require.NoError(t, write(&whole), "%s #%d", f.Name, i)
			size := whole.Len()
			require.NotZero(t, size, "%s #%d writes nothing", f.Name, i)
			for _, n := range []int{0, size / 2, size - 1} {
				err := write(&fullWriter{n: n})
				assert.ErrorIs(t, err, errFull, "%s #%d failing after %d of %d bytes", f.Name, i, n, size)
			}
		}
	}
}
