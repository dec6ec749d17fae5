// Command web measures how long the web UI (kurs serve) takes from a save
// to the result a page shows, next to a bare `go test -count=1` of the same
// files after the same edit, both in the same run and alternating, so that
// the machine's load weighs on both alike (the aim: a save's result within
// 1 s). Then it measures the same in a real page, with Chromium: from a
// save in another editor, and from a save in the page's own editor
// (Ctrl+S), until the page shows the new result.
//
// Run it from the repository's root:
//
//	go run ./bench/web            # 20 saves of each kind
//	go run ./bench/web -n 50
//	go run ./bench/web -page=false  # without Chromium
//
// It builds kurs into a temporary folder, creates a workspace there,
// starts `kurs serve --addr 127.0.0.1:0` on it and follows its event stream
// as a page does. Each save alternates between a wrong and a right breaker
// (so the result the page shows changes every time) and is timed twice:
// until the server announces the result (the event), and until the page
// has fetched the result it then shows (the fragment; the browser's own
// drawing of it is not included). The baseline is a module with the same
// file and a small test of the seed's trace, edited the same way. The
// page's times are taken by the page itself: it notes when each new
// verdict appears in it. Everything it creates is removed at the end, and
// the server and the browser it started are stopped.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/kurs-course/kurs/internal/watch"
)

// baselineTest is the tiny test of the baseline module: the seed's trace.
const baselineTest = `package circuitbreaker

import "testing"

func TestSeedTrace(t *testing.T) {
	b := New(3, 5)
	b.Failure(0)
	b.Failure(1)
	b.Success()
	b.Failure(2)
	b.Failure(3)
	b.Failure(4)
	if b.Allow(8) || !b.Allow(9) || b.Allow(9) {
		t.Fatal("wrong")
	}
	b.Failure(9)
	if b.Allow(13) || !b.Allow(14) {
		t.Fatal("wrong")
	}
	b.Success()
	if b.State() != "closed" {
		t.Fatal(b.State())
	}
}
`

// pageRun says whether to time saves in a real page too.
var pageRun *bool

// patience bounds the wait for one result; a result that takes longer is
// a failure of kurs serve, not a slow sample.
const patience = 60 * time.Second

func main() {
	n := flag.Int("n", 20, "number of saves to time")
	pageRun = flag.Bool("page", true, "also time saves in a real page (needs Chromium)")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "bench/web:", err)
		os.Exit(1)
	}
}

// event is a result the server announced.
type event struct {
	at     time.Time
	status string
}

func run(n int) error {
	right, err := os.ReadFile(filepath.Join("exercises", "circuitbreaker", "solution", "circuitbreaker.go"))
	if err != nil {
		return fmt.Errorf("run me from the repository's root: %w", err)
	}
	// The probe one tick late: fails the seed's trace at Allow(9).
	wrong := bytes.Replace(right, []byte("now-b.openedAt >= b.wait"), []byte("now-b.openedAt > b.wait"), 1)
	if bytes.Equal(wrong, right) {
		return errors.New("the reference solution changed; cannot make the wrong variant")
	}
	tmp, err := os.MkdirTemp("", "kurs-bench-web-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	kurs := filepath.Join(tmp, "kurs")
	if out, err := exec.Command("go", "build", "-o", kurs, "./cmd/kurs").CombinedOutput(); err != nil {
		return fmt.Errorf("build kurs: %v\n%s", err, out)
	}
	ws := filepath.Join(tmp, "ws")
	if out, err := exec.Command(kurs, "init", ws, "--lang", "en", "--no-warm").CombinedOutput(); err != nil {
		return fmt.Errorf("kurs init: %v\n%s", err, out)
	}
	learner := filepath.Join(ws, "circuitbreaker", "circuitbreaker.go")

	base := filepath.Join(tmp, "baseline")
	if err := os.Mkdir(base, 0o755); err != nil {
		return err
	}
	for name, data := range map[string]string{
		"go.mod":                 "module example.com/baseline\n\ngo 1.22\n",
		"circuitbreaker_test.go": baselineTest,
		"circuitbreaker.go":      string(right),
	} {
		if err := os.WriteFile(filepath.Join(base, name), []byte(data), 0o644); err != nil {
			return err
		}
	}
	goTest := func(src []byte) (time.Duration, error) {
		if err := os.WriteFile(filepath.Join(base, "circuitbreaker.go"), src, 0o644); err != nil {
			return 0, err
		}
		cmd := exec.Command("go", "test", "-count=1", ".")
		cmd.Dir = base
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		// The wrong variant fails its test: that is a result too.
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && bytes.Contains(out, []byte("--- FAIL"))) {
			return 0, fmt.Errorf("go test: %v\n%s", err, out)
		}
		return d, nil
	}

	// kurs serve, in its own process, stopped by its pid at the end.
	srv := exec.Command(kurs, "serve", "--addr", "127.0.0.1:0", "--workspace", ws)
	stdout, err := srv.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = srv.Process.Kill()
			<-done
		}
	}()
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() {
		return fmt.Errorf("kurs serve printed no address: %s", stderr.String())
	}
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(sc.Text())
	if m == "" {
		return fmt.Errorf("kurs serve printed %q", sc.Text())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()

	// The event stream, as the page reads it.
	resp, err := http.Get(m + "/events")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	events := make(chan event, 16)
	go func() {
		r := bufio.NewReader(resp.Body)
		name := ""
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(events)
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name == "result":
				var d struct{ Exercise, Status string }
				if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d) == nil && d.Exercise == "circuitbreaker" {
					events <- event{time.Now(), d.Status}
				}
			}
		}
	}()
	await := func(want string) (time.Time, error) {
		deadline := time.After(patience)
		for {
			select {
			case e, ok := <-events:
				if !ok {
					return time.Time{}, fmt.Errorf("the event stream ended: %s", stderr.String())
				}
				if e.status == want {
					return e.at, nil
				}
			case <-deadline:
				return time.Time{}, fmt.Errorf("no %s result within %v", want, patience)
			}
		}
	}
	fragment := func(want string) error {
		r, err := http.Get(m + "/exercise/circuitbreaker/result")
		if err != nil {
			return err
		}
		defer r.Body.Close()
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		if !bytes.Contains(body, []byte(`data-status="`+want+`"`)) {
			return fmt.Errorf("the page would show the wrong result:\n%s", body)
		}
		return nil
	}

	// Warm up: one save of each kind, and one go test of each.
	for i, src := range [][]byte{wrong, right} {
		want := []string{"fail", "pass"}[i]
		if err := os.WriteFile(learner, edit(src, -1-i), 0o644); err != nil {
			return err
		}
		if _, err := await(want); err != nil {
			return err
		}
		if _, err := goTest(edit(src, -1-i)); err != nil {
			return err
		}
	}

	var eventTimes, pageTimes, testTimes []time.Duration
	for i := range n {
		src, want := wrong, "fail"
		if i%2 == 1 {
			src, want = right, "pass"
		}
		start := time.Now()
		if err := os.WriteFile(learner, edit(src, i), 0o644); err != nil {
			return err
		}
		seen, err := await(want)
		if err != nil {
			return err
		}
		if err := fragment(want); err != nil {
			return err
		}
		eventTimes = append(eventTimes, seen.Sub(start))
		pageTimes = append(pageTimes, time.Since(start))
		d, err := goTest(edit(src, i))
		if err != nil {
			return err
		}
		testTimes = append(testTimes, d)
	}

	em, pm, tm := median(eventTimes), median(pageTimes), median(testTimes)
	fmt.Printf("saves timed: %d (wrong and right alternating; each followed by the baseline)\n", n)
	report := func(label string, ds []time.Duration) {
		fmt.Printf("%-40s median %6.3fs  min %6.3fs  max %6.3fs\n", label, median(ds).Seconds(), slices.Min(ds).Seconds(), slices.Max(ds).Seconds())
	}
	report("kurs serve, save to result event:", eventTimes)
	report("kurs serve, save to result fetched:", pageTimes)
	report("go test -count=1 after the same edit:", testTimes)
	fmt.Printf("(kurs serve's times include the watcher's %v debounce)\n", watch.DefaultDebounce)
	fmt.Printf("ratio of medians, event / go test:   %.2fx\n", em.Seconds()/tm.Seconds())
	fmt.Printf("ratio of medians, fetched / go test: %.2fx\n", pm.Seconds()/tm.Seconds())
	within := "yes"
	if slices.Max(pageTimes) > time.Second {
		within = "no"
	}
	fmt.Printf("every result within 1s: %s\n", within)
	if !*pageRun {
		return nil
	}
	return pageLatency(m, learner, wrong, right, n)
}

// edit returns the file with a comment that makes each save different, as
// a learner's edit is.
func edit(src []byte, i int) []byte {
	return fmt.Appendf(bytes.Clone(src), "\n// edit %d\n", i)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
