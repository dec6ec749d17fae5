package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
)

// observe is put into the page: it notes, for every new verdict the page
// shows, its check number and the time on the machine's clock in
// milliseconds since 1970, the clock time.Now reads too.
const observe = `(() => {
  window.kursSeen = [];
  let last = document.querySelector("#verdict")?.dataset.seq;
  new MutationObserver(() => {
    const v = document.querySelector("#verdict");
    if (v && v.dataset.seq !== last) {
      last = v.dataset.seq;
      window.kursSeen.push(performance.timeOrigin + performance.now());
    }
  }).observe(document.getElementById("result"), { childList: true, subtree: true });
  return "";
})()`

// pageLatency opens the breaker's page in Chromium and times n saves from
// outside the page (writing the file, as an editor does) and n saves in
// the page's editor, each until the page shows the new verdict.
func pageLatency(url, login, learner string, wrong, right []byte, n int) error {
	ctx, stop, ok, err := newChromium()
	if err != nil {
		return err
	}
	if !ok {
		fmt.Println("page: skipped, Chromium is not installed (apt-get install chromium)")
		return nil
	}
	defer stop()
	within := func(d time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
		c, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return chromedp.Do(c, actions...)
	}
	// Logged in at the printed address, as the learner's browser is.
	if err := within(benchutil.Patience, chromedp.Navigate(login)); err != nil {
		return fmt.Errorf("log in: %w", err)
	}
	if err := within(benchutil.Patience, chromedp.Navigate(url+"/exercise/circuitbreaker"),
		chromedp.WaitVisible(chromedp.CSS("#verdict")), chromedp.WaitVisible(chromedp.CSS(".cm-content"))); err != nil {
		return fmt.Errorf("open the page: %w", err)
	}
	if err := within(benchutil.Patience, chromedp.Evaluate[chromedp.Void](observe)); err != nil {
		return err
	}
	seen := 0
	// await waits for the page's next verdict and returns when it
	// appeared, on the machine's clock.
	await := func() (time.Time, error) {
		deadline := time.Now().Add(benchutil.Patience)
		for time.Now().Before(deadline) {
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			times, err := chromedp.Run(c, chromedp.Evaluate[[]float64](`window.kursSeen`))
			cancel()
			if err != nil {
				return time.Time{}, err
			}
			if len(times) > seen {
				seen = len(times)
				ms := times[len(times)-1]
				return time.UnixMilli(int64(ms)).Add(time.Duration(ms-float64(int64(ms))) * time.Millisecond), nil
			}
			time.Sleep(5 * time.Millisecond)
		}
		return time.Time{}, errors.New("the page showed no new result in time")
	}

	var outside, inPage []time.Duration
	for i := range n {
		src := wrong
		if i%2 == 1 {
			src = right
		}
		start := time.Now()
		if err := os.WriteFile(learner, benchutil.Edit(src, 1000+i), 0o644); err != nil {
			return err
		}
		at, err := await()
		if err != nil {
			return fmt.Errorf("outside save %d: %w", i, err)
		}
		outside = append(outside, at.Sub(start))
	}
	// The page takes in the last outside save before the learner types.
	time.Sleep(time.Second)
	for i := range n {
		src := wrong
		if i%2 == 1 {
			src = right
		}
		// Typing is not timed; saving is, from the key press on.
		if err := within(benchutil.Patience, chromedp.Focus(chromedp.CSS(".cm-content")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
			return err
		}
		c, cancelType := context.WithTimeout(ctx, benchutil.Patience)
		_, err := chromedp.Call(c, input.InsertText, input.InsertTextParams{Text: string(benchutil.Edit(src, 2000+i))})
		cancelType()
		if err != nil {
			return err
		}
		start := time.Now()
		if err := within(benchutil.Patience, chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
			return err
		}
		at, err := await()
		if err != nil {
			return fmt.Errorf("save in the page %d: %w", i, err)
		}
		inPage = append(inPage, at.Sub(start))
	}
	fmt.Printf("in a page (Chromium), %d saves of each kind:\n", n)
	benchutil.Report("saved in another editor, to the result:", outside)
	benchutil.Report("saved in the page (Ctrl+S), to the result:", inPage)
	return nil
}
