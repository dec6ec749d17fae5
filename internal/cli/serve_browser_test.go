package cli_test

import (
	"bytes"
	"context"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/cli"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/workspace"
)

// kurs serve opens the browser where there is a display: the opener gets
// the address of a page only the user can read, never the key, and that
// page, opened in a real browser, logs the browser in and shows the
// overview. The opener here records what it was given ($BROWSER), so that
// no test depends on the system's opener or starts a browser of its own.
func TestServeOpensTheBrowser(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("the opener is a shell script")
	}
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	ws := filepath.Join(t.TempDir(), "ws")
	_, _, err = workspace.Init(ws, c, workspace.Config{Course: "embedded", Lang: "en"}, "en")
	require.NoError(t, err)
	tmp := t.TempDir()
	record := filepath.Join(tmp, "opened")
	script := filepath.Join(tmp, "opener")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\necho \"$@\" > "+record+".new && mv "+record+".new "+record+"\n"), 0o755))
	env := map[string]string{"DISPLAY": ":0", "BROWSER": script, "KURS_CACHE": filepath.Join(tmp, "cache")}

	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		io := cli.IO{Out: pw, Err: &stderr, Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return ws, nil }}
		done <- cli.Main(ctx, []string{"serve", "--addr", "127.0.0.1:0"}, io)
		pw.Close()
	}()
	defer func() {
		cancel()
		<-done
	}()
	line := make([]byte, 4096)
	n, _ := pr.Read(line)
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/\?key=[0-9a-f]+`).FindStringSubmatch(string(line[:n]))
	require.NotNil(t, m, "kurs serve printed %q; stderr: %s", line[:n], stderr.String())
	login, host := m[0], m[1]

	var opened string
	browsertest.Until(t, "the opener ran", 30*time.Second, func() (bool, error) {
		data, err := os.ReadFile(record)
		opened = strings.TrimSpace(string(data))
		return err == nil, nil
	}, stderr.String)
	assert.NotContains(t, opened, "key=", "the key on the opener's command line")
	u, err := url.Parse(opened)
	require.NoError(t, err)
	require.Equal(t, "file", u.Scheme, "the opener got %q", opened)
	page := filepath.FromSlash(u.Path)
	info, err := os.Stat(page)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the page's mode")
	info, err = os.Stat(filepath.Dir(page))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "its folder's mode")
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(data), strings.ReplaceAll(login, "&", "&amp;"))

	for _, width := range []int{1280, 390} {
		browser := browsertest.Start(t, width, 800)
		bctx, bcancel := context.WithTimeout(browser, browsertest.Patience(t, 30*time.Second))
		err := chromedp.Do(bctx, chromedp.Navigate(opened), chromedp.WaitVisible(chromedp.CSS("#progress")))
		require.NoError(t, err, "%d px: the page the opener got did not lead to the overview", width)
		where, err := chromedp.Run(bctx, chromedp.Evaluate[string](`location.href`))
		require.NoError(t, err)
		heading, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("h1").innerText`))
		require.NoError(t, err)
		bcancel()
		assert.Equal(t, "http://"+host+"/", where, "%d px", width)
		assert.Equal(t, "Your course", heading, "%d px", width)
	}

	cancel()
	<-done
	done <- 0
	_, err = os.Stat(filepath.Dir(page))
	assert.True(t, os.IsNotExist(err), "the page's folder outlives the server: %v", err)
}
