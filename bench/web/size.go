package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
)

// weighed are the pages whose weight as sent is measured: the lesson with
// the circuit breaker's state diagram, and the exercise page.
var weighed = []struct{ path, what string }{
	{"/lesson/fehlertoleranz/", "lesson with the breaker's state diagram"},
	{"/exercise/circuitbreaker", "exercise page"},
}

// aimKB is the most the lesson with the breaker's diagram may weigh as
// sent, with every asset it loads.
const aimKB = 150

// newChromium starts a headless Chromium with a fresh profile and returns
// its context; stop ends it and removes the profile. ok is false when
// Chromium is not installed.
func newChromium() (ctx context.Context, stop func(), ok bool, err error) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		return nil, nil, false, nil
	}
	profile, err := os.MkdirTemp("", "kurs-bench-chromium-")
	if err != nil {
		return nil, nil, false, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 800))
	ctx, cancel := chromedp.NewContext(alloc)
	stop = func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(profile)
	}
	if err := chromedp.Do(ctx); err != nil {
		stop()
		return nil, nil, false, fmt.Errorf("start chromium: %w", err)
	}
	return ctx, stop, true, nil
}

// pageSizes weighs each page of weighed as a browser receives it: in
// Chromium, every response's bytes on the wire (headers and body, as
// compressed as the server sent it) until the page has loaded and two
// seconds passed without a new request, the event stream left out (it
// never ends). Without Chromium, it weighs the HTML and the scripts,
// styles and images it names, fetched as a browser would (gzip
// accepted). It also says whether the lesson's diagram arrives as SVG in
// the HTML and whether a diagram library is loaded.
func pageSizes(base, login string) error {
	for _, p := range weighed {
		html, err := fetchText(base + p.path)
		if err != nil {
			return err
		}
		page := string(html)
		fmt.Printf("%s (%s): <svg> in the HTML: %s; a diagram library loaded: %s\n", p.path, p.what,
			yes(strings.Contains(page, "<svg")), yes(strings.Contains(strings.ToLower(page), "mermaid.min.js") || strings.Contains(page, "class=\"mermaid\"")))
	}
	ctx, stop, ok, err := newChromium()
	if err != nil {
		return err
	}
	if !ok {
		fmt.Println("page weights: Chromium is not installed (apt-get install chromium); weighing the HTML and the assets it names instead")
		for _, p := range weighed {
			total, files, err := staticWeight(base, p.path)
			if err != nil {
				return err
			}
			report(p.path, p.what, total, files)
		}
		return nil
	}
	defer stop()
	// The browser logs in at the printed address, as the learner's does.
	c, cancel := context.WithTimeout(ctx, benchutil.Patience)
	err = chromedp.Do(c, chromedp.Navigate(login))
	cancel()
	if err != nil {
		return err
	}
	for _, p := range weighed {
		total, files, err := browserWeight(ctx, base+p.path)
		if err != nil {
			return fmt.Errorf("%s: %w", p.path, err)
		}
		report(p.path, p.what, total, files)
	}
	return nil
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// report prints a page's weight and what it is made of, and the summary
// line of the lesson.
func report(path, what string, total float64, files map[string]float64) {
	fmt.Printf("%s (%s): %.1f KB as sent, in %d responses:\n", path, what, total/1000, len(files))
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return int(files[b] - files[a]) })
	for _, n := range names {
		fmt.Printf("  %8.1f KB  %s\n", files[n]/1000, n)
	}
	if path == weighed[0].path {
		benchutil.Summary("web: %s with every asset it loads, as sent: %.1f KB (aim: at most %d KB)", what, total/1000, aimKB)
	} else {
		benchutil.Summary("web: %s with every asset it loads, as sent: %.1f KB", what, total/1000)
	}
}

// browserWeight opens url in a new tab and sums the bytes of every
// response it receives, by path.
func browserWeight(browser context.Context, url string) (float64, map[string]float64, error) {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	var (
		mu    sync.Mutex
		urls  = map[network.RequestID]string{}
		files = map[string]float64{}
		last  = time.Now()
	)
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls[ev.RequestID] = ev.Request.URL
			last = time.Now()
		case *network.EventLoadingFinished:
			u := strings.TrimPrefix(urls[ev.RequestID], strings.SplitN(url, "/", 4)[0]+"//"+strings.SplitN(url, "/", 4)[2])
			files[u] += ev.EncodedDataLength
			last = time.Now()
		}
	})
	if err != nil {
		return 0, nil, err
	}
	c, cancelNav := context.WithTimeout(ctx, benchutil.Patience)
	defer cancelNav()
	// Each page as on a first visit: nothing from an earlier page's
	// assets in the browser's cache.
	if _, err := chromedp.Call(c, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		return 0, nil, err
	}
	if err := chromedp.Do(c, chromedp.Navigate(url)); err != nil {
		return 0, nil, err
	}
	for {
		mu.Lock()
		quiet := time.Since(last)
		mu.Unlock()
		if quiet > 2*time.Second || c.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	var total float64
	for _, n := range files {
		total += n
	}
	return total, files, nil
}

// staticWeight fetches the page at path and every script, style sheet and
// image its HTML names, accepting gzip, and sums their bodies as sent.
func staticWeight(base, path string) (float64, map[string]float64, error) {
	raw, html, err := fetch(base + path)
	if err != nil {
		return 0, nil, err
	}
	files := map[string]float64{path: float64(len(raw))}
	for _, attr := range []string{`src="`, `href="`} {
		for rest := string(html); ; {
			i := strings.Index(rest, attr)
			if i < 0 {
				break
			}
			rest = rest[i+len(attr):]
			ref, _, _ := strings.Cut(rest, `"`)
			if !strings.HasPrefix(ref, "/assets/") {
				continue
			}
			body, err := fetchRaw(base + ref)
			if err != nil {
				return 0, nil, err
			}
			files[ref] = float64(len(body))
		}
	}
	var total float64
	for _, n := range files {
		total += n
	}
	return total, files, nil
}

// fetchRaw gets url as a browser would, gzip accepted, and returns the
// body as sent, still compressed.
func fetchRaw(url string) ([]byte, error) {
	raw, _, err := fetch(url)
	return raw, err
}

// fetchText gets url as fetchRaw does and returns the body as read.
func fetchText(url string) ([]byte, error) {
	_, text, err := fetch(url)
	return text, err
}

// fetch gets url with gzip accepted and returns the body as sent and as
// read.
func fetch(url string) (raw, text []byte, err error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept-Encoding", "gzip")
	if session != nil {
		req.AddCookie(session)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: benchutil.Patience}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	if raw, err = io.ReadAll(resp.Body); err != nil {
		return nil, nil, err
	}
	if resp.Header.Get("Content-Encoding") != "gzip" {
		return raw, raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, err
	}
	text, err = io.ReadAll(zr)
	return raw, text, err
}

// session is the cookie that logging in at the address kurs serve
// printed gave; every request of the benchmark carries it.
var session *http.Cookie

// logIn opens the printed address, with its key, and keeps the session
// cookie that the server sets.
func logIn(login string) error {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout: benchutil.Patience}
	resp, err := client.Get(login)
	if err != nil {
		return err
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if strings.HasPrefix(c.Name, "kurs_session_") {
			session = c
			return nil
		}
	}
	return fmt.Errorf("logging in at %s set no session cookie (%s)", login, resp.Status)
}

// get gets url with the session cookie.
func get(url string) (*http.Response, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	req.AddCookie(session)
	return http.DefaultClient.Do(req)
}
