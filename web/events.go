package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/kurs-course/kurs/i18n"
)

// event is one server-sent event.
type event struct {
	name string
	data []byte
	// result, for a result event, is what the pages of its exercise show:
	// the events stream puts the rendered result into the event itself,
	// which saves the page a request after every check.
	result *resultNote
	// stream, for a result or checking event, is the events stream of
	// the page whose own request (a save, a check) started the check and
	// answers with the result: that stream does not send it, and the
	// server renders the result once.
	stream string
}

// resultNote announces a result of an exercise.
type resultNote struct {
	Exercise string `json:"exercise"`
	Status   string `json:"status"`
	Seq      int    `json:"seq"`
	// HTML is the result fragment, as GET /exercise/{id}/result answers,
	// in the page's language; only on a stream opened for the exercise.
	HTML string `json:"html,omitempty"`
}

// hub passes events to every open page. Subscribers' channels are never
// closed: a publisher could still be sending on one. A subscriber that
// leaves only unsubscribes; its channel is then garbage.
type hub struct {
	mu   sync.Mutex
	subs map[chan event]struct{}
}

func (h *hub) subscribe() chan event {
	ch := make(chan event, 32)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch
}

func (h *hub) unsubscribe(ch chan event) {
	h.mu.Lock()
	delete(h.subs, ch)
	h.mu.Unlock()
}

// publish sends e to every subscriber that has room; a page that lags
// behind misses events, and its next result event brings the latest
// result anyway.
func (h *hub) publish(e event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- e:
		default:
		}
	}
}

// pingEvery keeps idle streams open through proxies and lets the server
// notice pages that are gone.
const pingEvery = 15 * time.Second

// events streams results to a page. The first event, hello, carries the
// token and the server's instance: after a restart the page's token is
// stale, and the page takes the new one and fetches its result again.
// Only pages of this server's origin can read the stream (no CORS), so the
// token is as safe here as in the page.
//
// A stream opened for an exercise (?exercise=id&lang=xx, as its page opens
// it) carries that exercise's results rendered: the page shows one as soon
// as it arrives, with no request of its own in between. Results of other
// exercises come unrendered. A stream sends each result once, and neither
// a result nor the start of a check that the page's own request brings
// (the hello names the stream, and the page's requests name it back in
// X-Kurs-Stream): the answer to that request shows them.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ex, _ := s.course.Exercise(q.Get("exercise"))
	p := s.printers[s.lang]
	if l := q.Get("lang"); i18n.Supported(l) {
		p = s.printers[l]
	} else if c, err := r.Cookie(langCookie(r)); err == nil && i18n.Supported(c.Value) {
		p = s.printers[c.Value]
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	ch := s.hub.subscribe()
	defer s.hub.unsubscribe(ch)
	stream := strconv.FormatInt(s.streams.Add(1), 10)
	// known is the newest result of each exercise the page got or was
	// sent, by its number.
	known := map[string]int{}

	hello, _ := json.Marshal(map[string]string{"token": s.token, "instance": s.instance, "stream": stream})
	// retry: the browser reconnects a second after the stream breaks, e.g.
	// when kurs serve is restarted.
	if _, err := fmt.Fprintf(w, "retry: 1000\nevent: hello\ndata: %s\n\n", hello); err != nil {
		return
	}
	if err := rc.Flush(); err != nil {
		return
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		var err error
		select {
		case <-r.Context().Done():
			return
		case e := <-ch:
			if e.stream != "" && e.stream == stream && e.result == nil {
				continue // the page's own check began: it shows that itself
			}
			data := e.data
			if n := e.result; n != nil {
				note := *n
				last, ok := known[n.Exercise]
				if e.stream == stream || ok && n.Seq <= last {
					known[n.Exercise] = max(last, n.Seq)
					continue
				}
				known[n.Exercise] = n.Seq
				if ex != nil && n.Exercise == ex.ID {
					// Rendered now, it is the latest result, which may be
					// newer than the one announced: the page goes by the
					// number in the fragment.
					if html, seq, rerr := s.resultHTML(p, r, ex); rerr == nil {
						note.HTML = string(html)
						known[n.Exercise] = max(n.Seq, seq)
					}
				}
				data, _ = json.Marshal(note)
			}
			_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, data)
		case <-ping.C:
			_, err = fmt.Fprint(w, ": ping\n\n")
		}
		if err == nil {
			err = rc.Flush()
		}
		if err != nil {
			return
		}
	}
}
