// Package browsertest starts Debian's Chromium, headless, for the browser
// tests of kurs's pages: one way to find it, start it (one browser for all
// the tests of a test binary, a private window for each), log it in as the
// user who started kurs serve, and end it, for every package that has such
// a test. It also says how long a test waits for an event (Patience,
// Until): as long as the machine's load makes it take, not a fixed time.
package browsertest

import (
	"context"
	"math"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// SlowdownEnv names the environment variable that multiplies every wait
// of Patience, for machines slower than the load average tells.
const SlowdownEnv = "KURS_TEST_SLOWDOWN"

// Patience returns how long to wait for an event that an idle machine
// delivers well within base: base times the load per processor (the
// one-minute load average over the number of processors, at least 1) and
// times $KURS_TEST_SLOWDOWN when set, but never past the test's own
// deadline (go test -timeout) less a minute for the test to report. A
// test on a machine kept busy by others waits longer instead of failing.
func Patience(t testing.TB, base time.Duration) time.Duration {
	d := Scale(base)
	if dt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := dt.Deadline(); ok {
			d = min(d, max(base, time.Until(end)-time.Minute))
		}
	}
	return d
}

// Scale returns base times the load per processor and times
// $KURS_TEST_SLOWDOWN when set, at most an hour: Patience without a test's
// deadline, for waits that have no testing.TB, such as a testscript
// command's.
func Scale(base time.Duration) time.Duration {
	scale := max(1, load()/float64(runtime.NumCPU()))
	if f, err := strconv.ParseFloat(os.Getenv(SlowdownEnv), 64); err == nil && f > 0 {
		scale *= f
	}
	return time.Duration(math.Min(float64(base)*scale, float64(time.Hour)))
}

// load returns the one-minute load average, or 0 where there is none.
func load() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(data) + " 0")[0], 64)
	return f
}

// Until calls cond until it reports true, and fails the test when it has
// not after Patience(base), asked again at each round so that a load that
// grows during the wait lengthens it. The last error cond returned, and
// what explain says (if not nil), are in the failure.
func Until(t testing.TB, what string, base time.Duration, cond func() (bool, error), explain func() string) {
	t.Helper()
	start := time.Now()
	var err error
	for {
		var ok bool
		if ok, err = cond(); ok && err == nil {
			return
		}
		if waited := time.Since(start); waited > Patience(t, base) {
			more := ""
			if explain != nil {
				more = explain()
			}
			t.Fatalf("waiting for %s: not there after %s (last error: %v)\n%s", what, waited.Round(time.Second), err, more)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Login opens the address that kurs serve printed, with its key, in the
// browser, as the learner does: the server sets the session cookie and
// sends the browser on to the same page without the key. Every later
// page of that server opens in this browser as the owner's.
func Login(t testing.TB, browser context.Context, address string) {
	t.Helper()
	u, err := url.Parse(address)
	if err != nil || u.Query().Get("key") == "" {
		t.Fatalf("%q is not an address to log in with", address)
	}
	ctx, cancel := context.WithTimeout(browser, Patience(t, 30*time.Second))
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(address)); err != nil {
		t.Fatalf("open %s: %v", address, err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatalf("open %s: %v", address, err)
	}
	if strings.Contains(loc, "key=") || !strings.HasPrefix(loc, "http://"+u.Host+"/") {
		t.Fatalf("after logging in the browser is at %s, not at the overview without the key", loc)
	}
}

// Path returns the Chromium to drive. Without one the test is skipped,
// or fails when the CI variable is set: in CI the browser tests must run.
func Path(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is missing, and CI is set: the browser test must run in CI (apt-get install -y chromium)")
	}
	t.Skip("skipping the browser test: chromium is not installed (apt-get install -y chromium); in CI it is required")
	return ""
}

// shared is the one Chromium of a test binary: the first Start starts
// it, every test gets a browser context of its own in it, and Main ends
// it after the last test. Starting Chromium costs more processor time
// than most of the tests that use it; a new browser context (as private
// as a browser of its own: own cookies, storage and cache, own window)
// costs little.
var shared struct {
	sync.Mutex
	main   bool               // Main runs the tests
	ctx    context.Context    // the browser's first tab, nil before the first Start
	cancel context.CancelFunc // ends the browser
}

// Main runs the tests of a package whose tests call Start, with one
// Chromium for all of them, and ends it after the last; it returns m.Run's
// code. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
func Main(m *testing.M) int {
	shared.Lock()
	shared.main = true
	shared.Unlock()
	code := m.Run()
	shared.Lock()
	defer shared.Unlock()
	if shared.ctx != nil {
		stop(shared.ctx, shared.cancel)
		shared.ctx = nil
	}
	return code
}

// stop ends a browser: it asks it to close, and kills its process by its
// id if it has not ended within a while.
func stop(browser context.Context, cancel context.CancelFunc) {
	if c := chromedp.FromContext(browser); c != nil && c.Browser != nil {
		if p := c.Browser.Process(); p != nil {
			defer p.Kill()
		}
	}
	ctx, done := context.WithTimeout(browser, Scale(10*time.Second))
	chromedp.Cancel(ctx)
	done()
	cancel()
}

// Start opens a window of w×h pixels in a new browser context of a
// headless Chromium and returns its context; the window and its browser
// context (cookies, storage, cache) end with the test. Where TestMain runs
// the tests with Main, the tests share one Chromium: the first Start
// starts it, and so does a Start after it crashed. Otherwise each test
// starts a Chromium of its own. A start that fails on a busy machine is
// tried up to three times.
func Start(t testing.TB, w, h int) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(sharedBrowser(t), chromedp.WithNewBrowserContext())
	// The first Run opens the window and binds it to its context: it must
	// not run under a timeout, so a watchdog ends a start that hangs.
	watchdog := time.AfterFunc(Patience(t, 30*time.Second), cancel)
	err := chromedp.Do(ctx)
	if watchdog.Stop() && err == nil {
		t.Cleanup(cancel)
	} else {
		cancel()
		t.Fatalf("chromium opened no window: %v", err)
	}
	// Size the window as --window-size sizes a browser's first one, but
	// to the width asked even below 500 px, a phone's.
	sctx, done := context.WithTimeout(ctx, Patience(t, 30*time.Second))
	defer done()
	win, err := chromedp.CallBrowser(sctx, browser.GetWindowForTarget, browser.GetWindowForTargetParams{TargetID: chromedp.FromContext(ctx).Target.TargetID})
	if err == nil {
		_, err = chromedp.CallBrowser(sctx, browser.SetWindowBounds, browser.SetWindowBoundsParams{
			WindowID: win.WindowID, Bounds: &browser.Bounds{Width: int64(w), Height: int64(h), WindowState: browser.WindowStateNormal}})
	}
	if err != nil {
		t.Fatalf("sizing the window to %d×%d: %v", w, h, err)
	}
	return ctx
}

// sharedBrowser returns the test binary's running Chromium, and starts it
// first if there is none or it has ended. Without Main, it starts a
// browser for the test alone, which ends with the test.
func sharedBrowser(t testing.TB) context.Context {
	t.Helper()
	chrome := Path(t)
	shared.Lock()
	defer shared.Unlock()
	if !shared.main {
		ctx, cancel := startBrowser(t, chrome)
		t.Cleanup(func() { stop(ctx, cancel) })
		return ctx
	}
	if shared.ctx != nil && shared.ctx.Err() == nil {
		return shared.ctx
	}
	if shared.ctx != nil {
		t.Log("chromium has ended; starting it again")
		shared.cancel()
	}
	shared.ctx, shared.cancel = startBrowser(t, chrome)
	return shared.ctx
}

// startBrowser starts a headless Chromium, trying up to three times, and
// returns its first tab's context and the function that ends it. The
// flags keep it off the network (loopback pages only) and out of the
// user's profile.
func startBrowser(t testing.TB, chrome string) (context.Context, context.CancelFunc) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(chrome),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-dev-shm-usage", true),
		)
		ctx, cancelBrowser := chromedp.NewContext(alloc)
		// The first Run starts the browser; it must not run under a timeout.
		err := chromedp.Do(ctx)
		if err == nil {
			return ctx, func() { cancelBrowser(); cancelAlloc() }
		}
		cancelBrowser()
		cancelAlloc()
		if attempt >= 3 {
			t.Fatalf("chromium did not start: %v", err)
		}
		t.Logf("chromium did not start (attempt %d): %v", attempt, err)
	}
}
