// Command web weighs the pages of the web UI (kurs serve) as a browser
// receives them, and measures how long it takes from a save
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
//	go run ./bench/web -latency=false  # only weigh the pages
//
// The weight is that of the lesson with the circuit breaker's state
// diagram and of the exercise page, with every asset they load, as sent
// (compressed where the server compresses): in Chromium, every response's
// bytes on the wire; without it, the HTML and the assets it names. It
// also says whether the lesson's diagram arrives as <svg> in the HTML.
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
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
	"github.com/kurs-course/kurs/internal/watch"
)

// pageRun says whether to time saves in a real page too.
var pageRun *bool

func main() {
	n := flag.Int("n", 20, "number of saves to time")
	pageRun = flag.Bool("page", true, "also time saves in a real page (needs Chromium)")
	latency := flag.Bool("latency", true, "time saves to results (off: only weigh the pages)")
	flag.Parse()
	if !*latency {
		*n = 0
	}
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
	s, err := benchutil.NewSetup("web")
	if err != nil {
		return err
	}
	defer s.Close()
	right, wrong := s.Solution, s.Wrong
	// The wrong variant fails its test: that is a result too.
	goTest := func(src []byte) (time.Duration, error) {
		d, _, err := s.GoTest(src)
		return d, err
	}

	// kurs serve, in its own process, interrupted at the end.
	srv, err := s.Start("serve", "--addr", "127.0.0.1:0", "--workspace", s.Workspace)
	if err != nil {
		return err
	}
	defer func() {
		_ = srv.Interrupt()
		_ = srv.End(10 * time.Second)
	}()
	login, m, err := srv.Login()
	if err != nil {
		return err
	}
	if err := logIn(login); err != nil {
		return err
	}
	go func() { _, _ = io.Copy(io.Discard, srv.Stdout) }()

	if err := pageSizes(m, login); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}

	// The event stream, as the page reads it.
	resp, err := get(m + "/events")
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
		deadline := time.After(benchutil.Patience)
		for {
			select {
			case e, ok := <-events:
				if !ok {
					return time.Time{}, fmt.Errorf("the event stream ended: %s", srv.Stderr())
				}
				if e.status == want {
					return e.at, nil
				}
			case <-deadline:
				return time.Time{}, fmt.Errorf("no %s result within %v", want, benchutil.Patience)
			}
		}
	}
	fragment := func(want string) error {
		r, err := get(m + "/exercise/circuitbreaker/result")
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
		if err := os.WriteFile(s.Learner, benchutil.Edit(src, -1-i), 0o644); err != nil {
			return err
		}
		if _, err := await(want); err != nil {
			return err
		}
		if _, err := goTest(benchutil.Edit(src, -1-i)); err != nil {
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
		if err := os.WriteFile(s.Learner, benchutil.Edit(src, i), 0o644); err != nil {
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
		d, err := goTest(benchutil.Edit(src, i))
		if err != nil {
			return err
		}
		testTimes = append(testTimes, d)
	}

	em, pm, tm := benchutil.Median(eventTimes), benchutil.Median(pageTimes), benchutil.Median(testTimes)
	fmt.Printf("saves timed: %d (wrong and right alternating; each followed by the baseline)\n", n)
	benchutil.Report("kurs serve, save to result event:", eventTimes)
	benchutil.Report("kurs serve, save to result fetched:", pageTimes)
	benchutil.Report("go test -count=1 after the same edit:", testTimes)
	fmt.Printf("(kurs serve's times include the watcher's %v debounce)\n", watch.DefaultDebounce)
	fmt.Printf("ratio of medians, event / go test:   %.2fx\n", em.Seconds()/tm.Seconds())
	fmt.Printf("ratio of medians, fetched / go test: %.2fx\n", pm.Seconds()/tm.Seconds())
	benchutil.Summary("web: kurs serve, save to result fetched / go test -count=1 after the same edit: %.2f× (medians of %d saves, interleaved)", pm.Seconds()/tm.Seconds(), n)
	benchutil.ReportWithin(pageTimes)
	if !*pageRun {
		return nil
	}
	return pageLatency(m, login, s.Learner, wrong, right, n)
}
