package cli

import (
	"fmt"
	"html"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// openBrowser shows the page at login, the address with the server's key,
// in the user's browser, as Jupyter does: the key never goes on a command
// line, where every user of the computer could read it (ps). It writes a
// page that sends the browser on to login into a new folder only the user
// may enter, readable by the user alone, and has the system's opener show
// that file: xdg-open on Linux and the BSDs, open on macOS, the URL
// handler on Windows, or the program that $BROWSER names (its first entry,
// %s replaced by the file's address or the address appended, as Python's
// webbrowser reads it). It returns a function that removes the folder,
// which the server calls when it stops. failed is called, from another
// goroutine, when the opener started but ends with an error.
func openBrowser(e *env, login string, failed func(error)) (cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "kurs-serve-")
	if err != nil {
		return func() {}, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	name := filepath.Join(dir, "open.html")
	if err := writeNew(name, redirectPage(e, login)); err != nil {
		cleanup()
		return func() {}, err
	}
	path := filepath.ToSlash(name)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // C:/… on Windows
	}
	page := (&url.URL{Scheme: "file", Path: path}).String()
	argv := opener(e.Getenv("BROWSER"), page)
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		cleanup()
		return func() {}, err
	}
	// The opener hands the page on and ends; waiting for it reaps it.
	go func() {
		if err := cmd.Wait(); err != nil {
			failed(fmt.Errorf("%s: %w", filepath.Base(argv[0]), err))
		}
	}()
	return cleanup, nil
}

// writeNew writes data to a file that must not exist yet, readable by
// its owner alone.
func writeNew(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// redirectPage is the page that sends the browser on to login, with a
// link for a browser that does not follow it by itself.
func redirectPage(e *env, login string) []byte {
	u := html.EscapeString(login)
	return []byte(`<!DOCTYPE html>
<html lang="` + html.EscapeString(e.p.Lang()) + `">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0;url=` + u + `">
<title>kurs</title>
</head>
<body>
<p><a href="` + u + `">` + html.EscapeString(e.p.T("web.serve.redirect")) + `</a></p>
</body>
</html>
`)
}

// opener returns the command that shows page: the program that browser
// (the value of $BROWSER) names, else the system's opener.
func opener(browser, page string) []string {
	if first, _, _ := strings.Cut(browser, string(os.PathListSeparator)); strings.TrimSpace(first) != "" {
		argv := strings.Fields(first)
		replaced := false
		for i, a := range argv {
			if strings.Contains(a, "%s") {
				argv[i], replaced = strings.ReplaceAll(a, "%s", page), true
			}
		}
		if !replaced {
			argv = append(argv, page)
		}
		return argv
	}
	switch runtime.GOOS {
	case "darwin":
		return []string{"open", page}
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", page}
	}
	return []string{"xdg-open", page}
}

// hasDisplay reports whether a browser could be shown: always on macOS and
// Windows, elsewhere when an X or Wayland display is set (not over a plain
// SSH login or in a container).
func hasDisplay(getenv func(string) string) bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}
