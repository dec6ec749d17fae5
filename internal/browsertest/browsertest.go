// Package browsertest starts Debian's Chromium, headless, for the browser
// tests of kurs's pages: one way to find it, start it and end it, for
// every package that has such a test.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

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

// Start starts a headless Chromium with a window of w×h pixels and
// returns its context; the browser ends with the test. A start that fails
// on a busy machine is tried up to three times. The flags keep it off the
// network (loopback pages only) and out of the user's profile.
func Start(t testing.TB, w, h int) context.Context {
	t.Helper()
	chrome := Path(t)
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
			chromedp.UserDataDir(t.TempDir()),
			chromedp.WindowSize(w, h),
		)
		ctx, cancelBrowser := chromedp.NewContext(alloc)
		// The first Run starts the browser; it must not run under a timeout.
		err := chromedp.Do(ctx)
		if err == nil {
			t.Cleanup(cancelAlloc)
			t.Cleanup(cancelBrowser)
			return ctx
		}
		cancelBrowser()
		cancelAlloc()
		if attempt >= 3 {
			t.Fatalf("chromium did not start: %v", err)
		}
		t.Logf("chromium did not start (attempt %d): %v", attempt, err)
	}
}
