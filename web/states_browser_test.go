package web_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/course"
)

// TestPageListsSayWhatKursListSays: an exercise that passed and now fails,
// one that passed and was reset, and one never begun show on the page's
// overview with the state, mark and points that kurs list prints for them,
// in both languages, on a wide screen and a phone's.
func TestPageListsSayWhatKursListSays(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test takes a while; skipped with -short")
	}
	// The browser tests wait on the page most of their time: they run
	// beside each other (one Chromium, server and workspace each).
	t.Parallel()
	browsertest.Path(t)
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	reference := func(id string) []byte {
		data, err := fs.ReadFile(c.FS(), "exercises/"+id+"/solution/"+id+".go")
		require.NoError(t, err)
		return data
	}
	for _, tc := range []struct {
		lang          string
		width, height int
	}{{"en", 1280, 800}, {"de", 390, 844}} {
		t.Run(tc.lang, func(t *testing.T) {
			dir := newWorkspace(t, tc.lang)
			write := func(id string, data []byte) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, id, id+".go"), data, 0o644))
			}
			write("circuitbreaker", reference("circuitbreaker"))
			write("backoff", reference("backoff"))
			code, out := kursCmd(t, dir, "check", "circuitbreaker", "backoff")
			require.Zero(t, code, out)
			write("circuitbreaker", []byte(breakerLate))
			code, out = kursCmd(t, dir, "check", "circuitbreaker")
			require.NotZero(t, code, out)
			code, out = kursCmd(t, dir, "reset", "backoff")
			require.Zero(t, code, out)
			code, list := kursCmd(t, dir, "list")
			require.Zero(t, code, list)

			srv, b := servedTab(t, dir, tc.width, tc.height)
			b.do("open the overview", chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.CSS("ul.exercises")))
			for _, id := range []string{"circuitbreaker", "backoff", "tokenbucket"} {
				var line string
				for l := range strings.Lines(list) {
					if f := strings.Fields(l); len(f) > 1 && f[1] == id {
						line = l
					}
				}
				require.NotEmpty(t, line, "kurs list names %s:\n%s", id, list)
				sel := `document.querySelector('li.exercise[data-exercise="` + id + `"] `
				mark := b.eval(id+"'s mark", sel+`.mark').textContent`)
				state := b.eval(id+"'s state", sel+`.state').textContent`)
				points := b.eval(id+"'s points", sel+`.points').textContent`)
				assert.Equal(t, strings.Fields(line)[0], mark, "the page marks %s as kurs list does: %q", id, line)
				assert.Contains(t, line, "  "+state+"  ", "the page's state of %s is kurs list's: %q", id, line)
				assert.True(t, strings.HasSuffix(strings.TrimSpace(line), points), "the page's points of %s are kurs list's: page %q, list %q", id, points, line)
				shown := b.eval(id+" is on screen", sel+`.state').getBoundingClientRect().right <= window.innerWidth ? "yes" : "no"`)
				assert.Equal(t, "yes", shown, "the state of %s fits the %d px screen", id, tc.width)
			}
			// Both exercises passed once: the overview counts them, and
			// their best points, as kurs list's progress line does.
			summary := b.eval("the progress line", `document.querySelector("#progress p").textContent`)
			assert.True(t, strings.HasPrefix(summary, "2 "), "two exercises passed once: %q", summary)
			assert.Contains(t, list, ": "+summary+"\n", "the page's progress is kurs list's")
		})
	}
}
