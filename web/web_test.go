package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/atomicfile"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/workspace"
)

// fakeWatcher stands in for package watch: the test says which exercise
// was saved.
type fakeWatcher struct{ ch chan string }

func (f *fakeWatcher) Changes() <-chan string { return f.ch }
func (f *fakeWatcher) Close() error           { return nil }

// testServer is a Server on a loopback port with a fresh workspace.
type testServer struct {
	*Server
	url    string
	port   string
	dir    string
	watch  *fakeWatcher
	client *http.Client
	login  string       // the address kurs serve would print, with the key
	cookie *http.Cookie // the session cookie that login gave
}

// logIn opens the address that logs a browser in, as the owner does, and
// returns the session cookie it gets: HttpOnly, SameSite=Strict, for this
// server's port alone; the answer sends the browser on to the same page
// without the key.
func logIn(t *testing.T, s *Server, addr net.Addr) *http.Cookie {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(s.LoginURL(addr))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, "/", resp.Header.Get("Location"), "on to the overview, without the key")
	_, port, _ := net.SplitHostPort(addr.String())
	for _, c := range resp.Cookies() {
		if c.Name == "kurs_session_"+port {
			assert.True(t, c.HttpOnly, "no script reads the session")
			assert.Equal(t, http.SameSiteStrictMode, c.SameSite, "no other site's request carries it")
			assert.NotContains(t, c.Value, s.key, "the cookie is not the key")
			return c
		}
	}
	t.Fatalf("logging in set no session cookie: %v", resp.Cookies())
	return nil
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "ws")
	_, _, err = workspace.Init(dir, c, workspace.Config{Course: "embedded", Lang: "en"}, "en")
	require.NoError(t, err)
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	fw := &fakeWatcher{ch: make(chan string)}
	s, err := New(Options{Workspace: ws, Course: c, Lang: "en", Watcher: fw})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return &testServer{Server: s, url: "http://" + ln.Addr().String(), port: port, dir: dir, watch: fw,
		client: &http.Client{
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			// An event stream that should have been refused would
			// otherwise keep a test waiting for its end.
			Timeout: time.Minute,
		},
		login: s.LoginURL(ln.Addr()), cookie: logIn(t, s, ln.Addr())}
}

// do sends a request as the owner's browser and returns the status and
// body; a header "Cookie" replaces the session cookie (empty: none, as
// another user's request).
func (ts *testServer) do(t *testing.T, method, path string, form url.Values, header map[string]string) (int, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, ts.url+path, body)
	require.NoError(t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if _, ok := header["Cookie"]; !ok {
		req.AddCookie(ts.cookie)
	}
	for k, v := range header {
		switch {
		case k == "Host":
			req.Host = v
		case k == "Cookie" && v == "":
		default:
			req.Header.Set(k, v)
		}
	}
	resp, err := ts.client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

func (ts *testServer) get(t *testing.T, path string) (int, string) {
	t.Helper()
	return ts.do(t, "GET", path, nil, nil)
}

// post sends a form with the token, as the page does.
func (ts *testServer) post(t *testing.T, path string, form url.Values) (int, string) {
	t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set(tokenField, ts.token)
	return ts.do(t, "POST", path, form, map[string]string{"Origin": ts.url, "X-Kurs-Fragment": "1"})
}

// write saves a learner's file as an editor does, atomically: see
// saveElsewhere in the browser tests for why.
func (ts *testServer) write(t *testing.T, rel, data string) {
	t.Helper()
	require.NoError(t, atomicfile.WriteFile(filepath.Join(ts.dir, filepath.FromSlash(rel)), []byte(data), 0o644))
}

func (ts *testServer) progress(t *testing.T) *workspace.Progress {
	t.Helper()
	p, err := ts.ws.Progress()
	require.NoError(t, err)
	return p
}

func TestHostsAllowed(t *testing.T) {
	loop := newHosts(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8421})
	all := newHosts(&net.TCPAddr{IP: net.IPv4zero, Port: 8421})
	v6 := newHosts(&net.TCPAddr{IP: net.IPv6loopback, Port: 8421})
	for _, tt := range []struct {
		h    hosts
		host string
		want bool
	}{
		{loop, "127.0.0.1:8421", true},
		{loop, "localhost:8421", true},
		{loop, "LOCALHOST:8421", true},
		{loop, "[::1]:8421", true},
		{loop, "127.0.0.1:8422", false},
		{loop, "127.0.0.1", false}, // port 80 is not ours
		{loop, "attacker.example:8421", false},
		{loop, "localhost.attacker.example:8421", false},
		{loop, "192.168.1.5:8421", false},
		{loop, "", false},
		{all, "192.168.1.5:8421", true}, // any address of ours, but no names
		{all, "[fe80::1]:8421", true},
		{all, "attacker.example:8421", false},
		{v6, "[::1]:8421", true},
	} {
		assert.Equal(t, tt.want, tt.h.allowed(tt.host), "%q", tt.host)
	}
}

// TestGuard sends what a hostile page or a DNS-rebinding attack can make
// a browser send, and what the UI's own page sends.
func TestGuard(t *testing.T) {
	ts := newTestServer(t)
	own := map[string]string{"Origin": ts.url, "X-Kurs-Fragment": "1"}
	withToken := func() url.Values { return url.Values{tokenField: {ts.token}} }

	code, body := ts.do(t, "GET", "/", nil, map[string]string{"Host": "attacker.example:" + ts.port})
	assert.Equal(t, http.StatusMisdirectedRequest, code, "a rebound name")
	assert.Contains(t, body, "attacker.example")
	assert.NotContains(t, body, ts.token)
	code, _ = ts.do(t, "GET", "/", nil, map[string]string{"Host": "localhost:" + ts.port})
	assert.Equal(t, http.StatusOK, code, "localhost is ours")
	code, _ = ts.do(t, "GET", "/events", nil, map[string]string{"Host": "attacker.example:" + ts.port})
	assert.Equal(t, http.StatusMisdirectedRequest, code, "the event stream carries the token: never to a rebound name")

	code, body = ts.do(t, "POST", "/exercise/circuitbreaker/hint", url.Values{}, own)
	assert.Equal(t, http.StatusForbidden, code, "no token")
	assert.Contains(t, body, "token")
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/hint", url.Values{tokenField: {strings.Repeat("0", 32)}}, own)
	assert.Equal(t, http.StatusForbidden, code, "a wrong token")
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/hint", withToken(), map[string]string{"Origin": "http://attacker.example"})
	assert.Equal(t, http.StatusForbidden, code, "another site's form, even with the token")
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/hint", withToken(), map[string]string{"Origin": "null"})
	assert.Equal(t, http.StatusForbidden, code, "an opaque origin")
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/hint", withToken(), map[string]string{"Sec-Fetch-Site": "cross-site"})
	assert.Equal(t, http.StatusForbidden, code, "a cross-site request without Origin")
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/hint", withToken(), map[string]string{"Host": "attacker.example:" + ts.port, "Origin": "http://attacker.example:" + ts.port})
	assert.Equal(t, http.StatusMisdirectedRequest, code, "a rebound name with a stolen token")
	assert.Equal(t, 0, ts.progress(t).Of("circuitbreaker").HintsSeen, "no refused request changed anything")

	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/hint", withToken(), own)
	assert.Equal(t, http.StatusOK, code, "the page's own request")
	code, _ = ts.do(t, "POST", "/exercise/circuitbreaker/hint", url.Values{}, map[string]string{tokenHeader: ts.token, "Sec-Fetch-Site": "same-origin", "X-Kurs-Fragment": "1"})
	assert.Equal(t, http.StatusOK, code, "the token in the header")
	assert.Equal(t, 2, ts.progress(t).Of("circuitbreaker").HintsSeen)

	req, err := http.NewRequest("GET", ts.url+"/", nil)
	require.NoError(t, err)
	req.AddCookie(ts.cookie)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "script-src 'self'")
	assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
}

// missingMessage finds a message id that the catalogs lack: the printer
// shows those as [id].
var missingMessage = regexp.MustCompile(`\[[a-z_]+\.[a-z_.]+\]`)

func TestPagesInBothLanguages(t *testing.T) {
	ts := newTestServer(t)
	paths := []string{"/", "/exercise/circuitbreaker/result", "/nope", "/exercise/nope"}
	for _, l := range ts.course.Lessons {
		paths = append(paths, "/lesson/"+l.ID+"/")
	}
	for _, ex := range ts.course.Exercises {
		paths = append(paths, "/exercise/"+ex.ID)
	}
	for _, lang := range []string{"de", "en"} {
		for _, p := range paths {
			code, body := ts.get(t, p+"?lang="+lang)
			want := http.StatusOK
			if strings.Contains(p, "nope") {
				want = http.StatusNotFound
			}
			assert.Equal(t, want, code, "%s in %s", p, lang)
			assert.NotRegexp(t, missingMessage, body, "%s in %s", p, lang)
			if !strings.HasSuffix(p, "/result") {
				assert.Contains(t, body, `<html lang="`+lang+`">`, "%s", p)
			}
		}
	}
	_, de := ts.get(t, "/?lang=de")
	assert.Contains(t, de, "Dein Kurs")
	_, en := ts.get(t, "/?lang=en")
	assert.Contains(t, en, "Your course")

	// The lesson: tables, highlighted Go, and the diagram drawn as SVG in
	// the page: no diagram library, no CDN.
	_, lesson := ts.get(t, "/lesson/resilienz-2/?lang=en")
	assert.Contains(t, lesson, "<table>")
	assert.Regexp(t, `<figure class="diagram"><svg [^>]*aria-roledescription="stateDiagram"`, lesson)
	assert.NotContains(t, lesson, "stateDiagram-v2", "the diagram's source stays out of the page")
	assert.Contains(t, lesson, `<span class="kd">func</span>`, "Go highlighted with classes")
	assert.NotContains(t, lesson, "mermaid.min", "no diagram library")
	assert.NotContains(t, lesson, "cdn.")
	assert.Contains(t, lesson, `<h3 id="s5">Step 5`, "headings are numbered the same in both languages")
	_, lessonDE := ts.get(t, "/lesson/resilienz-2/?lang=de")
	assert.Contains(t, lessonDE, `<h3 id="s5">Schritt 5`)
}

// English pages link lessons by their English ids, German ones by the
// German, and the language switch goes to the lesson's id in the other
// language.
func TestLessonIDsPerLanguage(t *testing.T) {
	ts := newTestServer(t)
	_, en := ts.get(t, "/?lang=en")
	for _, id := range []string{"resilience-1", "resilience-2", "fault-tolerance", "load-balancing"} {
		assert.Contains(t, en, `href="/lesson/`+id+`/"`)
	}
	assert.NotContains(t, en, "/lesson/fehlertoleranz/")
	_, de := ts.get(t, "/?lang=de")
	assert.Contains(t, de, `href="/lesson/fehlertoleranz/"`)
	assert.NotContains(t, de, "/lesson/fault-tolerance/")
	_, ex := ts.get(t, "/exercise/bulkheadpool?lang=en")
	assert.Contains(t, ex, `<a href="/lesson/fault-tolerance/">`)
	code, lesson := ts.get(t, "/lesson/fault-tolerance/?lang=en")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, lesson, `href="/lesson/fehlertoleranz/?lang=de"`)
	_, lesson = ts.get(t, "/lesson/fehlertoleranz/?lang=de")
	assert.Contains(t, lesson, `href="/lesson/fault-tolerance/?lang=en"`)
}

func TestLanguageIsRemembered(t *testing.T) {
	ts := newTestServer(t)
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	ts.client.Jar = jar
	_, body := ts.get(t, "/?lang=de")
	assert.Contains(t, body, "Dein Kurs")
	_, body = ts.get(t, "/exercise/tokenbucket")
	assert.Contains(t, body, `<html lang="de">`, "the choice holds on other pages")
	_, body = ts.get(t, "/?lang=en")
	assert.Contains(t, body, "Your course")
	_, body = ts.get(t, "/")
	assert.Contains(t, body, "Your course")
}

// TestRawHTMLOff makes sure course Markdown cannot put script into the
// learner's browser: a course from --course is text, not code.
func TestRawHTMLOff(t *testing.T) {
	html, err := newMarkdown().render("# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n")
	require.NoError(t, err)
	assert.NotContains(t, string(html), "<script>")
	assert.NotContains(t, string(html), "<img")
	assert.Contains(t, string(html), `<h1 id="s1">Title</h1>`)
}

// templateMessage finds message ids in the templates.
var templateMessage = regexp.MustCompile(`\.T "([a-z_]+\.[a-z_.]+)"`)

// webMessage finds the web UI's message ids in its Go files, also where
// they are not passed to T directly (refuse, logf).
var webMessage = regexp.MustCompile(`"(web\.[a-z_]+\.?[a-z_.]*)"`)

// TestMessagesExist checks the ids the templates and the server use, which
// the i18n package's scan of Go files does not all see, against both
// catalogs.
func TestMessagesExist(t *testing.T) {
	var ids []string
	require.NoError(t, fs.WalkDir(templateFS, "templates", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(templateFS, p)
		for _, m := range templateMessage.FindAllSubmatch(data, -1) {
			ids = append(ids, string(m[1]))
		}
		return err
	}))
	sources, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, name := range sources {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		for _, m := range webMessage.FindAllSubmatch(data, -1) {
			ids = append(ids, string(m[1]))
		}
	}
	require.Contains(t, ids, "web.refused.host")
	require.Contains(t, ids, "web.log.check")
	require.Contains(t, ids, "web.quiz.case")
	for _, lang := range i18n.Languages {
		keys, err := i18n.Keys(lang)
		require.NoError(t, err)
		for _, id := range ids {
			assert.Contains(t, keys, id, "%s catalogs lack %s", lang, id)
		}
	}
}

const quizBefore = `// Package bulkheadquiz: my notes stay.
package bulkheadquiz

// Answer: first case 1, then case 2.
var Answer = [2]string{"a", ""} // my first guess
`

func TestQuizAnswerIsWrittenToTheFile(t *testing.T) {
	ts := newTestServer(t)
	ts.write(t, "bulkheadquiz/bulkheadquiz.go", quizBefore)

	_, page := ts.get(t, "/exercise/bulkheadquiz")
	assert.Regexp(t, `name="case1" value="A" checked`, page, "the page shows the answer in the file")
	assert.NotRegexp(t, `name="case2" value="[A-D]" checked`, page)

	code, body := ts.post(t, "/exercise/bulkheadquiz/answer", url.Values{"case1": {"D"}, "case2": {"A"}})
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `data-status="pass"`, "graded at once")
	assert.Contains(t, body, "Case 1: right")
	data, err := os.ReadFile(filepath.Join(ts.dir, "bulkheadquiz", "bulkheadquiz.go"))
	require.NoError(t, err)
	assert.Equal(t, strings.Replace(quizBefore, `[2]string{"a", ""}`, `[2]string{"D", "A"}`, 1), string(data),
		"only the answer changes; the learner's comments stay")
	backups, err := filepath.Glob(filepath.Join(ts.dir, ".kurs", "backup", "*", "bulkheadquiz", "bulkheadquiz.go"))
	require.NoError(t, err)
	require.Len(t, backups, 1)
	old, err := os.ReadFile(backups[0])
	require.NoError(t, err)
	assert.Equal(t, quizBefore, string(old), "the backup holds the file as it was")
	ep := ts.progress(t).Of("bulkheadquiz")
	assert.Equal(t, "pass", ep.Status)
	assert.True(t, ep.Passed)

	// A letter that is no option changes nothing.
	code, body = ts.post(t, "/exercise/bulkheadquiz/answer", url.Values{"case1": {"Z"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "“Z” is not one of the options")
	after, err := os.ReadFile(filepath.Join(ts.dir, "bulkheadquiz", "bulkheadquiz.go"))
	require.NoError(t, err)
	assert.Equal(t, string(data), string(after))
}

func TestQuizAnswerSetElsewhereIsNotOverwritten(t *testing.T) {
	ts := newTestServer(t)
	src := "package bulkheadquiz\n\nvar Answer = [2]string{\"\", \"\"}\n\nfunc init() { Answer[0] = \"B\" }\n"
	ts.write(t, "bulkheadquiz/bulkheadquiz.go", src)
	code, body := ts.post(t, "/exercise/bulkheadquiz/answer", url.Values{"case1": {"D"}, "case2": {"A"}})
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "bulkheadquiz/bulkheadquiz.go:5")
	data, err := os.ReadFile(filepath.Join(ts.dir, "bulkheadquiz", "bulkheadquiz.go"))
	require.NoError(t, err)
	assert.Equal(t, src, string(data))
}

func TestQuizAnswerWithoutFileUsesTheSkeleton(t *testing.T) {
	ts := newTestServer(t)
	require.NoError(t, os.Remove(filepath.Join(ts.dir, "bulkheadquiz", "bulkheadquiz.go")))
	code, body := ts.post(t, "/exercise/bulkheadquiz/answer?lang=de", url.Values{"case1": {"D"}, "case2": {"B"}})
	require.Equal(t, http.StatusOK, code, body)
	data, err := os.ReadFile(filepath.Join(ts.dir, "bulkheadquiz", "bulkheadquiz.go"))
	require.NoError(t, err)
	assert.Contains(t, string(data), `var Answer = [2]string{"D", "B"}`)
	assert.Contains(t, string(data), "Prüfe deine Antwort", "the skeleton in the reader's language")
}

// TestNothingOutsideTheWorkspace points an exercise folder at a folder
// outside the workspace: the page must neither write there nor show it.
func TestNothingOutsideTheWorkspace(t *testing.T) {
	ts := newTestServer(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "bulkheadquiz.go")
	require.NoError(t, os.WriteFile(secret, []byte(quizBefore), 0o644))
	quizDir := filepath.Join(ts.dir, "bulkheadquiz")
	require.NoError(t, os.RemoveAll(quizDir))
	if err := os.Symlink(outside, quizDir); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	code, body := ts.post(t, "/exercise/bulkheadquiz/answer", url.Values{"case1": {"D"}, "case2": {"A"}})
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "outside the workspace")
	code, body = ts.post(t, "/exercise/bulkheadquiz/reset", nil)
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "outside the workspace")
	data, err := os.ReadFile(secret)
	require.NoError(t, err)
	assert.Equal(t, quizBefore, string(data), "the file outside is untouched")
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing new outside")

	// A learner's file that is a link to elsewhere is not shown.
	target := filepath.Join(outside, "secret.txt")
	require.NoError(t, os.WriteFile(target, []byte("package tokenbucket // SECRET"), 0o644))
	link := filepath.Join(ts.dir, "tokenbucket", "zz.go")
	require.NoError(t, os.Symlink(target, link))
	p := ts.progress(t)
	p.Of("tokenbucket").Passed = true
	require.NoError(t, ts.ws.SaveProgress(p))
	code, body = ts.get(t, "/exercise/tokenbucket/solution")
	assert.Equal(t, http.StatusOK, code)
	assert.NotContains(t, body, "SECRET")

	// Paths in the URL name exercises, never files.
	for _, p := range []string{"/exercise/..%2f..%2fetc/solution", "/assets/../web.go", "/assets/%2e%2e/web.go", "/lesson/..%2fexercises"} {
		code, body := ts.get(t, p)
		assert.Contains(t, []int{http.StatusNotFound, http.StatusBadRequest, http.StatusTemporaryRedirect}, code, p)
		assert.NotContains(t, body, "package web", p)
	}
}

func TestHintsOneAtATime(t *testing.T) {
	ts := newTestServer(t)
	code, body := ts.post(t, "/exercise/tokenbucket/hint", nil)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, 1, strings.Count(body, "<li "))
	assert.Contains(t, body, "Show hint 2 of 5")
	for range 6 {
		ts.post(t, "/exercise/tokenbucket/hint", nil)
	}
	assert.Equal(t, 5, ts.progress(t).Of("tokenbucket").HintsSeen, "never more than there are")
	_, page := ts.get(t, "/exercise/tokenbucket")
	assert.Contains(t, page, "That was the last hint")
	assert.NotContains(t, page, `id="hint-button"`)
	assert.Contains(t, page, "<code>capacity</code>", "hints are Markdown")
	assert.Equal(t, 0, ts.progress(t).Of("circuitbreaker").HintsSeen)
}

func TestSolutionOnlyAfterPassing(t *testing.T) {
	ts := newTestServer(t)
	code, body := ts.get(t, "/exercise/circuitbreaker/solution")
	assert.Equal(t, http.StatusForbidden, code)
	assert.NotContains(t, body, "openedAt")

	ref, err := fs.ReadFile(kurs.Content(), "exercises/circuitbreaker/solution/circuitbreaker.go")
	require.NoError(t, err)
	ts.write(t, "circuitbreaker/circuitbreaker.go", strings.Replace(string(ref), "package circuitbreaker", "package circuitbreaker // MINE", 1))
	code, body = ts.post(t, "/exercise/circuitbreaker/check", nil)
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `id="solution-link"`)
	code, body = ts.get(t, "/exercise/circuitbreaker/solution")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "MINE", "the learner's file")
	assert.Contains(t, body, "reference solution of the exercise", "beside the reference")
}

func TestReset(t *testing.T) {
	ts := newTestServer(t)
	mine := "package tokenbucket\n\n// my attempt\n"
	ts.write(t, "tokenbucket/tokenbucket.go", mine)
	code, body := ts.post(t, "/exercise/tokenbucket/reset", nil)
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, "previous files are in .kurs/backup/")
	data, err := os.ReadFile(filepath.Join(ts.dir, "tokenbucket", "tokenbucket.go"))
	require.NoError(t, err)
	assert.NotEqual(t, mine, string(data))
	backups, err := filepath.Glob(filepath.Join(ts.dir, ".kurs", "backup", "*", "tokenbucket", "tokenbucket.go"))
	require.NoError(t, err)
	require.Len(t, backups, 1)
	code, body = ts.post(t, "/exercise/tokenbucket/reset", nil)
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, "nothing changed")
}

// sse reads server-sent events.
type sse struct {
	r    *bufio.Reader
	stop func()
}

func (ts *testServer) events(t *testing.T) *sse {
	t.Helper()
	return ts.eventsAt(t, "/events")
}

// eventsAt reads the event stream at path, such as an exercise's page
// opens it.
func (ts *testServer) eventsAt(t *testing.T, path string) *sse {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", ts.url+path, nil)
	require.NoError(t, err)
	req.AddCookie(ts.cookie)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	s := &sse{r: bufio.NewReader(resp.Body), stop: func() { cancel(); resp.Body.Close() }}
	t.Cleanup(s.stop)
	return s
}

// next returns the next event's name and data.
func (s *sse) next(t *testing.T) (string, map[string]any) {
	t.Helper()
	var name string
	var data map[string]any
	timer := time.AfterFunc(browsertest.Patience(t, 30*time.Second), s.stop)
	defer timer.Stop()
	for {
		line, err := s.r.ReadString('\n')
		require.NoError(t, err, "the event stream ended")
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &data))
		case line == "" && name != "":
			return name, data
		}
	}
}

// TestLiveResults saves code, lets the watcher report it, and follows the
// event stream to the result.
func TestLiveResults(t *testing.T) {
	ts := newTestServer(t)
	ev := ts.events(t)
	name, hello := ev.next(t)
	require.Equal(t, "hello", name)
	assert.Equal(t, ts.token, hello["token"], "the page learns the token, e.g. after a restart")

	ref, err := fs.ReadFile(kurs.Content(), "exercises/tokenbucket/solution/tokenbucket.go")
	require.NoError(t, err)
	noCap := strings.Replace(string(ref), "min(b.capacity, b.tokens+float64(now-b.last)*b.rate)", "b.tokens+float64(now-b.last)*b.rate", 1)
	require.NotEqual(t, string(ref), noCap)
	ts.write(t, "tokenbucket/tokenbucket.go", noCap)
	ts.watch.ch <- "tokenbucket"
	name, data := ev.next(t)
	assert.Equal(t, "checking", name)
	assert.Equal(t, "tokenbucket", data["exercise"])
	name, data = ev.next(t)
	require.Equal(t, "result", name)
	assert.Equal(t, map[string]any{"exercise": "tokenbucket", "status": "fail", "seq": float64(1)}, data)

	_, frag := ts.get(t, "/exercise/tokenbucket/result")
	assert.Contains(t, frag, `id="trace"`, "the trace as a table")
	assert.Contains(t, frag, `<polyline class="learner"`, "tokens over time as a plot")
	assert.Contains(t, frag, "Allow(100)")
	assert.Equal(t, "fail", ts.progress(t).Of("tokenbucket").Status, "recorded as kurs check does")

	// The next save is checked again.
	ts.write(t, "tokenbucket/tokenbucket.go", string(ref))
	ts.watch.ch <- "tokenbucket"
	name, _ = ev.next(t)
	assert.Equal(t, "checking", name)
	name, data = ev.next(t)
	require.Equal(t, "result", name)
	assert.Equal(t, map[string]any{"exercise": "tokenbucket", "status": "pass", "seq": float64(2)}, data)
}

// TestLiveResultsCarryTheResult: the stream of an exercise's page brings
// each result of that exercise rendered in the page's language, as the
// page would fetch it; the results of other exercises are only announced.
func TestLiveResultsCarryTheResult(t *testing.T) {
	ts := newTestServer(t)
	ev := ts.eventsAt(t, "/events?exercise=tokenbucket&lang=de")
	name, _ := ev.next(t)
	require.Equal(t, "hello", name)

	ref, err := fs.ReadFile(kurs.Content(), "exercises/tokenbucket/solution/tokenbucket.go")
	require.NoError(t, err)
	ts.write(t, "tokenbucket/tokenbucket.go", string(ref))
	ts.watch.ch <- "tokenbucket"
	name, _ = ev.next(t)
	require.Equal(t, "checking", name)
	name, data := ev.next(t)
	require.Equal(t, "result", name)
	assert.Equal(t, "pass", data["status"])
	html, _ := data["html"].(string)
	_, frag := ts.get(t, "/exercise/tokenbucket/result?lang=de")
	assert.Equal(t, frag, html, "the result as the page would fetch it")
	assert.Contains(t, html, `data-seq="1"`)
	assert.Contains(t, html, "Tests bestanden", "in the page's language")

	ts.write(t, "circuitbreaker/circuitbreaker.go", breakerSkeletonEdit(t, ts))
	ts.watch.ch <- "circuitbreaker"
	name, _ = ev.next(t)
	require.Equal(t, "checking", name)
	name, data = ev.next(t)
	require.Equal(t, "result", name)
	assert.Equal(t, "circuitbreaker", data["exercise"])
	assert.NotContains(t, data, "html", "another exercise's result is only announced")
}

// TestOwnResultIsNotRenderedTwice: a page's own check gets its result in
// the answer, so its events stream sends neither the check's start nor its
// result, while another page of the exercise gets both, rendered; a check
// that finds the files checked already (the watcher after the page's save)
// tells no page anything.
func TestOwnResultIsNotRenderedTwice(t *testing.T) {
	ts := newTestServer(t)
	watched := make(chan string, 4)
	ts.checked = func(id string) { watched <- id }
	mine := ts.eventsAt(t, "/events?exercise=tokenbucket&lang=en")
	other := ts.eventsAt(t, "/events?exercise=tokenbucket&lang=en")
	_, hello := mine.next(t)
	_, otherHello := other.next(t)
	id, _ := hello["stream"].(string)
	require.NotEmpty(t, id, "the hello names the stream")
	require.NotEqual(t, id, otherHello["stream"], "each stream has a name of its own")

	result := func(ev *sse) map[string]any {
		t.Helper()
		name, _ := ev.next(t)
		require.Equal(t, "checking", name)
		name, data := ev.next(t)
		require.Equal(t, "result", name)
		return data
	}
	form := url.Values{tokenField: {ts.token}}
	code, body := ts.do(t, "POST", "/exercise/tokenbucket/check", form,
		map[string]string{"Origin": ts.url, "X-Kurs-Fragment": "1", streamHeader: id})
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, `data-seq="1"`, "the answer brings the result")
	seen := result(other)
	assert.Equal(t, float64(1), seen["seq"])
	assert.Contains(t, seen["html"], `data-seq="1"`, "another page of the exercise gets it rendered")

	ts.watch.ch <- "tokenbucket" // the same files: no check, nothing to tell
	assert.Equal(t, "tokenbucket", <-watched)

	ref, err := fs.ReadFile(kurs.Content(), "exercises/tokenbucket/solution/tokenbucket.go")
	require.NoError(t, err)
	ts.write(t, "tokenbucket/tokenbucket.go", string(ref))
	ts.watch.ch <- "tokenbucket"
	for _, ev := range []*sse{mine, other} {
		// The next event of each stream is this check's.
		next := result(ev)
		assert.Equal(t, float64(2), next["seq"])
		assert.Contains(t, next["html"], `data-seq="2"`, "a newer result comes rendered to every page")
	}
}

// breakerSkeletonEdit returns the breaker's file in ts with a comment
// added: a save that changes it.
func breakerSkeletonEdit(t *testing.T, ts *testServer) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ts.dir, "circuitbreaker", "circuitbreaker.go"))
	require.NoError(t, err)
	return string(data) + "\n// saved\n"
}

// TestSameFilesAreNotCheckedTwice: editors often write a file twice, and
// the quiz form checks the file it has just written, which the watcher then
// reports too.
func TestSameFilesAreNotCheckedTwice(t *testing.T) {
	ts := newTestServer(t)
	ex, _ := ts.course.Exercise("bulkheadquiz")
	ctx := context.Background()
	_, checked, err := ts.loop.CheckIfChanged(ctx, ex)
	require.NoError(t, err)
	assert.True(t, checked, "never checked: check")
	_, checked, err = ts.loop.CheckIfChanged(ctx, ex)
	require.NoError(t, err)
	assert.False(t, checked, "the same files: no check")
	ts.write(t, "bulkheadquiz/bulkheadquiz.go", quizBefore)
	o, checked, err := ts.loop.CheckIfChanged(ctx, ex)
	require.NoError(t, err)
	assert.True(t, checked, "changed: check")
	assert.Equal(t, 2, o.Seq)
}

func TestServeStopsWithItsContext(t *testing.T) {
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	dir := t.TempDir()
	_, _, err = workspace.Init(dir, c, workspace.Config{Course: "embedded", Lang: "en"}, "en")
	require.NoError(t, err)
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	s, err := New(Options{Workspace: ws, Course: c})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()

	// An open event stream ends properly when the server stops, rather
	// than being cut off when Shutdown gives up on it.
	req, err := http.NewRequest("GET", "http://"+ln.Addr().String()+"/events", nil)
	require.NoError(t, err)
	req.AddCookie(logIn(t, s, ln.Addr()))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	first := make([]byte, 1)
	_, err = io.ReadFull(resp.Body, first)
	require.NoError(t, err, "the stream has begun")
	cancel()
	_, err = io.ReadAll(resp.Body)
	assert.NoError(t, err, "the stream ends cleanly")
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(browsertest.Patience(t, 30*time.Second)):
		t.Fatal("Serve did not return after its context ended")
	}
	_, err = net.Dial("tcp", ln.Addr().String())
	assert.Error(t, err, "the port is closed")
}

// TestLessonFigures serves a course from a folder, as --course does, with a
// figure next to the lesson's text.
func TestLessonFigures(t *testing.T) {
	fsys := fstest.MapFS{}
	require.NoError(t, fs.WalkDir(kurs.Content(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(kurs.Content(), p)
		fsys[p] = &fstest.MapFile{Data: data}
		return err
	}))
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`
	fsys["lessons/resilienz-2/states.svg"] = &fstest.MapFile{Data: []byte(svg)}
	en := string(fsys["lessons/resilienz-2/en.md"].Data)
	fsys["lessons/resilienz-2/en.md"] = &fstest.MapFile{Data: []byte(en + "\n![The states](states.svg)\n")}
	c, err := course.Load(fsys)
	require.NoError(t, err)
	dir := t.TempDir()
	_, _, err = workspace.Init(dir, c, workspace.Config{Course: "embedded", Lang: "en"}, "en")
	require.NoError(t, err)
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	s, err := New(Options{Workspace: ws, Course: c, Lang: "en"})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()
	cookie := logIn(t, s, ln.Addr())
	get := func(p string) (int, string, string) {
		req, err := http.NewRequest("GET", base+p, nil)
		require.NoError(t, err)
		req.AddCookie(cookie)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}

	code, _, page := get("/lesson/resilienz-2")
	require.Equal(t, http.StatusOK, code, "redirected to the address with a slash")
	assert.Contains(t, page, `<img src="states.svg" alt="The states">`)
	code, ct, body := get("/lesson/resilienz-2/states.svg")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "image/svg+xml", ct)
	assert.Equal(t, svg, body)
	for _, p := range []string{"/lesson/resilienz-2/en.md", "/lesson/resilienz-2/lesson.json", "/lesson/resilienz-2/missing.png",
		"/lesson/resilienz-2/..%2f..%2fexercises%2fcircuitbreaker%2fsolution%2fcircuitbreaker.go", "/lesson/nope/states.svg"} {
		code, _, body := get(p)
		assert.Equal(t, http.StatusNotFound, code, p)
		assert.NotContains(t, body, "package circuitbreaker", p)
	}
}

// TestLanguageChoiceRemembered: a page opened with ?lang= is the reader's
// choice, remembered for this server only (a browser sends a cookie of
// 127.0.0.1 to every port, and another kurs serve may serve a workspace
// in the other language); the page's own requests in the background do
// not choose again.
func TestLanguageChoiceRemembered(t *testing.T) {
	ts := newTestServer(t)
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	client := &http.Client{Jar: jar, Timeout: time.Minute}
	u, err := url.Parse(ts.url)
	require.NoError(t, err)
	jar.SetCookies(u, []*http.Cookie{ts.cookie})
	get := func(path string, header map[string]string) (string, []*http.Cookie) {
		t.Helper()
		req, err := http.NewRequest("GET", ts.url+path, nil)
		require.NoError(t, err)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(b), resp.Cookies()
	}
	_, set := get("/?lang=de", nil)
	require.Len(t, set, 1)
	assert.Equal(t, "kurs_lang_"+ts.port, set[0].Name)
	page, _ := get("/", nil)
	assert.Contains(t, page, "Dein Kurs", "the choice is remembered")

	_, set = get("/exercise/circuitbreaker/result?lang=en", map[string]string{"X-Kurs-Fragment": "1"})
	assert.Empty(t, set, "a fragment for the page names the page's language, no new choice")
	page, _ = get("/", nil)
	assert.Contains(t, page, "Dein Kurs")

	// A choice made on another port is not this server's.
	_, body := ts.do(t, "GET", "/", nil, map[string]string{"Cookie": "kurs_lang_1=de; " + ts.cookie.Name + "=" + ts.cookie.Value})
	assert.Contains(t, body, "Your course")
}

// TestLoginURLOfEveryInterface: a server bound to every interface prints
// the loopback address, which logs the owner's browser in; an address of
// all interfaces, such as http://[::]:8080, is none a browser can open.
func TestLoginURLOfEveryInterface(t *testing.T) {
	ts := newTestServer(t)
	port, err := strconv.Atoi(ts.port)
	require.NoError(t, err)
	for _, ip := range []net.IP{net.IPv4zero, net.IPv6unspecified} {
		addr := &net.TCPAddr{IP: ip, Port: port}
		login := ts.LoginURL(addr)
		assert.True(t, strings.HasPrefix(login, "http://127.0.0.1:"+ts.port+"/?key="), "%v prints %s", ip, login)
		assert.NotNil(t, logIn(t, ts.Server, addr), "%s logs in", login)
		assert.True(t, newHosts(addr).allowed("127.0.0.1:"+ts.port), "a server on %v answers to its printed address", ip)
	}
}
