package harness

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The judge and the learner's program talk over two pipes, in lines simple
// enough to parse fast and strictly. The judge asks:
//
//	t ARG ...                  a trace made by New(ARG, ...)
//	c CALL ARG ...             the next step of that trace
//	x                          the end of the request: run the traces
//	m "name"                   a measurement, a request of its own
//
// Arguments are numbers as strconv.FormatFloat writes them. A step carries
// nothing but the call: what the judge expects stays in the judge. The
// learner's program answers:
//
//	r                          ready: the learner's package is initialised
//	s TRACE STEP "ret" "obs"   what step STEP of trace TRACE returned and
//	                           left to observe (step 0: after New)
//	p TRACE STEP "value" "at"  the step panicked, with its value and the
//	                           learner's file:line
//	o TRACE STEP "value" "at"  the observation after the step panicked
//	m "claim"                  the answer to a measurement
//	d                          the request is answered
//
// Values are Go-quoted strings. Nothing the learner's program sends is a
// verdict: the judge compares it with the reference.

// Request is one question of the judge: traces to run on the learner's
// code, or a named measurement.
type Request struct {
	Traces  []Trace
	Measure string
}

// appendRequest appends req in the protocol's words. Call names are the
// driver's identifiers, never blank.
func appendRequest(b []byte, req Request) ([]byte, error) {
	if req.Measure != "" {
		b = append(b, "m "...)
		b = strconv.AppendQuote(b, req.Measure)
		return append(b, '\n'), nil
	}
	args := func(b []byte, xs []float64) []byte {
		for _, x := range xs {
			b = append(b, ' ')
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		}
		return append(b, '\n')
	}
	for _, tr := range req.Traces {
		b = args(append(b, 't'), tr.New)
		for _, s := range tr.Steps {
			if s.Call == "" || strings.ContainsAny(s.Call, " \t\n\r") {
				return nil, fmt.Errorf("call %q: not a name", s.Call)
			}
			b = args(append(append(b, "c "...), s.Call...), s.Args)
		}
	}
	return append(b, "x\n"...), nil
}

// readRequest reads the judge's next request; io.EOF means the judge has
// no more.
func readRequest(r *bufio.Reader) (Request, error) {
	return (&requestReader{r: r}).read()
}

// requestReader reads the judge's requests. A request's lines are read
// whole and made one string, and its steps and arguments are cut from one
// slice each: a request of 256 traces costs a few allocations, not one or
// more per line, which was most of the learner's program's processor time
// (memory the runtime asks the kernel for, page by page).
type requestReader struct {
	r    *bufio.Reader
	text []byte // the lines of the request being read, kept for the next
}

// read reads the next request. It stops reading at a line that ends a
// request ("x", "m …") or that is none of the protocol's, and then parses
// the lines in order, so that the first bad one is the error.
func (rr *requestReader) read() (Request, error) {
	text := rr.text[:0]
	var readErr error
	for {
		start := len(text)
		var err error
		for {
			var chunk []byte
			chunk, err = rr.r.ReadSlice('\n')
			text = append(text, chunk...)
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil {
			// A line cut off by the end is no line.
			text, readErr = text[:start], err
			break
		}
		if line := text[start:]; len(line) < 2 || (line[0] != 't' && line[0] != 'c') || (line[1] != ' ' && line[1] != '\n') {
			break
		}
	}
	rr.text = text[:0]
	return parseRequest(string(text), readErr)
}

// parseRequest parses the lines of one request, each ending in a newline;
// readErr is why the reading stopped before the request's end, if it did.
func parseRequest(s string, readErr error) (Request, error) {
	var req Request
	// Room for every step and every argument: a line holds at most one
	// step, and a line's arguments are fewer than its spaces.
	lines := strings.Count(s, "\n")
	steps := make([]Step, 0, lines)
	args := make([]float64, 0, strings.Count(s, " "))
	first := 0 // the running trace's first step in steps
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "x":
			return req, nil
		case "m":
			name, err := strconv.Unquote(rest)
			if err != nil || len(req.Traces) > 0 {
				return Request{}, fmt.Errorf("bad request %.40q", line)
			}
			return Request{Measure: name}, nil
		case "t":
			a, err := parseArgs(&args, rest)
			if err != nil {
				return Request{}, err
			}
			if req.Traces == nil {
				req.Traces = make([]Trace, 0, strings.Count(s, "\nt")+1)
			}
			req.Traces = append(req.Traces, Trace{New: a})
			first = len(steps)
		case "c":
			call, rest, _ := strings.Cut(rest, " ")
			a, err := parseArgs(&args, rest)
			if err != nil || call == "" || len(req.Traces) == 0 {
				return Request{}, fmt.Errorf("bad request %.40q", line)
			}
			steps = append(steps, Step{Call: call, Args: a})
			req.Traces[len(req.Traces)-1].Steps = steps[first:len(steps):len(steps)]
		default:
			return Request{}, fmt.Errorf("bad request %.40q", line)
		}
	}
	if readErr == io.EOF && len(req.Traces) > 0 {
		readErr = io.ErrUnexpectedEOF
	}
	return Request{}, readErr
}

// parseArgs parses space-separated numbers into the end of *arena, and
// returns them; none is nil.
func parseArgs(arena *[]float64, s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	start := len(*arena)
	for {
		f, rest, more := strings.Cut(s, " ")
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("bad argument %.40q", f)
		}
		*arena = append(*arena, x)
		if !more {
			break
		}
		s = rest
	}
	return (*arena)[start:len(*arena):len(*arena)], nil
}

// QuoteFields joins values as Go-quoted strings, separated by spaces: the
// form of a claim with several parts.
func QuoteFields(values ...string) string {
	var b []byte
	for i, v := range values {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendQuote(b, v)
	}
	return string(b)
}

// UnquoteFields splits what QuoteFields joined; ok is false for anything
// else.
func UnquoteFields(s string) (values []string, ok bool) {
	for s != "" {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, false
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			return nil, false
		}
		values = append(values, v)
		s = s[len(q):]
		if s != "" {
			if s[0] != ' ' || len(s) == 1 {
				return nil, false
			}
			s = s[1:]
		}
	}
	return values, true
}

// MaxValue bounds each value the learner's program reports; longer ones are
// cut, since no expected value comes near it. Reports cut further, to what
// a reader can take in, and say how much they cut.
const MaxValue = 64 << 10

// maxLine bounds one line from the learner's program (a measurement may be
// long: every pick of a simulation).
const maxLine = 8 << 20

// ErrGone means the learner's program died, closed its pipe or broke the
// protocol; what it sent before still counts.
var ErrGone = errors.New("the learner's program stopped answering")

// Reply is what the learner's code did on one trace.
type Reply struct {
	// Results holds, for New and then every step that returned, what it
	// returned and what was observed after it.
	Results []Result
	// Panicked reports that step PanicStep (0: New or its observation)
	// panicked; Panic is the value as printed, Frame the learner's
	// file:line.
	Panicked  bool
	PanicStep int
	Panic     string
	Frame     string
	// InObserve reports that the observation after the step panicked,
	// not the call.
	InObserve bool
}

// Learner is the judge's side of the conversation with the learner's
// program. It also remembers how far the running trace got, so that a
// timeout can say where the learner's code was stuck.
type Learner struct {
	w   *bufio.Writer
	r   *bufio.Reader
	buf []byte // the request being written, kept for the next

	mu      sync.Mutex
	running *Trace // the trace whose replies are being read
	index   int    // its number among the test's random traces
	partial Reply  // what has arrived for it
	base    int    // the number of the request's first trace
	observe string // what is observed after each call, e.g. "State()"
	seed    uint64 // the seed of random traces, 0 for a fixed one
	gone    bool
	vals    values // the values read so far
}

// Mark says what the next request runs: traces observed by observe and,
// for random traces, their seed and the number of the first.
func (l *Learner) Mark(observe string, seed uint64, base int) {
	l.mu.Lock()
	l.observe, l.seed, l.base = observe, seed, base
	l.mu.Unlock()
}

// NewLearner returns the judge's client of the learner's program, which
// reads requests from w and answers on r.
func NewLearner(w io.Writer, r io.Reader) *Learner {
	return &Learner{w: bufio.NewWriterSize(w, 64<<10), r: bufio.NewReaderSize(r, 64<<10)}
}

// Ready waits until the learner's program reports that its package is
// initialised. Lines before that are ignored.
func (l *Learner) Ready() error {
	for {
		line, err := l.line()
		if err != nil {
			return err
		}
		if string(line) == "r" {
			return nil
		}
	}
}

// Run runs traces on the learner's code and calls each with the reply to
// every trace in order, as soon as it is complete. When each returns true
// Run still reads the rest of the request's replies, so the conversation
// stays in step, but calls each no more.
func (l *Learner) Run(traces []Trace, each func(i int, r Reply) (stop bool)) error {
	if err := l.send(Request{Traces: traces}); err != nil {
		return err
	}
	stopped := false
	next := 0
	l.begin(traces, next)
	for {
		line, err := l.line()
		if err != nil {
			return err
		}
		if len(line) == 1 && line[0] == 'd' {
			if next != len(traces) {
				return l.broken("request answered after %d of %d traces", next, len(traces))
			}
			l.begin(nil, 0)
			return nil
		}
		kind, ti, si, a, b, err := parseLine(line, &l.vals)
		if err != nil {
			return l.broken("%v", err)
		}
		if ti != next || next >= len(traces) {
			return l.broken("reply for trace %d while trace %d runs", ti, next)
		}
		tr := &traces[ti]
		done := false
		l.mu.Lock()
		switch {
		case kind == 's' && si == len(l.partial.Results) && si <= len(tr.Steps):
			l.partial.Results = append(l.partial.Results, Result{Ret: a, Obs: b})
			done = si == len(tr.Steps)
		case kind != 's' && si == len(l.partial.Results) && si <= len(tr.Steps):
			l.partial.Panicked, l.partial.PanicStep, l.partial.Panic, l.partial.Frame = true, si, a, b
			l.partial.InObserve = kind == 'o'
			done = true
		default:
			l.mu.Unlock()
			return l.broken("unexpected reply %.40q", line)
		}
		rep := l.partial
		l.mu.Unlock()
		if !done {
			continue
		}
		next++
		l.begin(traces, next)
		if !stopped {
			stopped = each(ti, rep)
		}
	}
}

// Measure asks the learner's program for a named measurement and returns
// its claim.
func (l *Learner) Measure(name string) (string, error) {
	if err := l.send(Request{Measure: name}); err != nil {
		return "", err
	}
	var claim string
	got := false
	for {
		line, err := l.line()
		if err != nil {
			return "", err
		}
		switch {
		case len(line) == 1 && line[0] == 'd' && got:
			return claim, nil
		case len(line) > 2 && line[0] == 'm' && line[1] == ' ' && !got:
			if claim, err = strconv.Unquote(string(line[2:])); err != nil {
				return "", l.broken("bad measurement")
			}
			got = true
		default:
			return "", l.broken("unexpected reply %.40q", line)
		}
	}
}

// Where returns the trace that is running and what has arrived of it, for
// a timeout report; ok is false between traces.
func (l *Learner) Where() (tr Trace, partial Reply, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running == nil {
		return Trace{}, Reply{}, false
	}
	p := l.partial
	p.Results = append([]Result(nil), p.Results...)
	return *l.running, p, true
}

func (l *Learner) begin(traces []Trace, i int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = Reply{}
	l.running = nil
	if i < len(traces) {
		// Room for a result after New and after every step.
		l.partial.Results = make([]Result, 0, len(traces[i].Steps)+1)
		l.running = &traces[i]
		l.index = l.base + i
	}
}

func (l *Learner) send(req Request) error {
	if l.gone {
		return ErrGone
	}
	data, err := appendRequest(l.buf[:0], req)
	if err != nil {
		return err
	}
	l.buf = data
	if _, err := l.w.Write(data); err != nil {
		return l.broken("write: %v", err)
	}
	if err := l.w.Flush(); err != nil {
		return l.broken("write: %v", err)
	}
	return nil
}

func (l *Learner) line() ([]byte, error) {
	if l.gone {
		return nil, ErrGone
	}
	var buf []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if err == nil && buf == nil {
			// The whole line was in the buffer: no copy. It is valid
			// until the next read, and its values are copied out by then.
			return chunk[:len(chunk)-1], nil
		}
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			return nil, l.broken("line over %d bytes", maxLine)
		}
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			l.gone = true
			return nil, ErrGone
		}
	}
}

func (l *Learner) broken(format string, args ...any) error {
	l.gone = true
	return fmt.Errorf("%w: %s", ErrGone, fmt.Sprintf(format, args...))
}

// parseLine parses an "s", "p" or "o" line. Values are taken from vals,
// when it holds them, and kept there (see values); vals may be nil.
func parseLine(line []byte, vals *values) (kind byte, ti, si int, a, b string, err error) {
	if kind, ti, si, a, b, ok := parsePlain(line, vals); ok {
		return kind, ti, si, a, b, nil
	}
	return parseGeneral(line)
}

// parseGeneral parses any line as parseLine does.
func parseGeneral(line []byte) (kind byte, ti, si int, a, b string, err error) {
	// Formatted only when needed: a judge reads tens of thousands of lines.
	bad := errUnreadable{line: string(line[:min(len(line), 40)])}
	if len(line) < 2 || (line[0] != 's' && line[0] != 'p' && line[0] != 'o') || line[1] != ' ' {
		return 0, 0, 0, "", "", bad
	}
	kind = line[0]
	rest := string(line[2:])
	field := func() (int, bool) {
		num, tail, ok := cutSpace(rest)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(num)
		rest = tail
		return n, err == nil && n >= 0
	}
	var ok1, ok2 bool
	if ti, ok1 = field(); !ok1 {
		return 0, 0, 0, "", "", bad
	}
	if si, ok2 = field(); !ok2 {
		return 0, 0, 0, "", "", bad
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil || len(rest) <= len(q) || rest[len(q)] != ' ' {
		return 0, 0, 0, "", "", bad
	}
	if a, err = strconv.Unquote(q); err != nil {
		return 0, 0, 0, "", "", bad
	}
	rest = rest[len(q)+1:]
	if b, err = strconv.Unquote(rest); err != nil {
		return 0, 0, 0, "", "", bad
	}
	return kind, ti, si, clip(a), clip(b), nil
}

// parsePlain parses a line as parseLine does, without a copy of it, when
// it is in the form nearly every line has: both numbers plain digits,
// both values quoted without an escape and valid UTF-8, for which
// strconv.Unquote returns what is between the quotes. ok is false for any
// other line, which parseLine then parses the general way.
func parsePlain(line []byte, vals *values) (kind byte, ti, si int, a, b string, ok bool) {
	if len(line) < 2 || (line[0] != 's' && line[0] != 'p' && line[0] != 'o') || line[1] != ' ' {
		return 0, 0, 0, "", "", false
	}
	rest := line[2:]
	var ok1, ok2 bool
	ti, rest, ok1 = plainNumber(rest)
	si, rest, ok2 = plainNumber(rest)
	if !ok1 || !ok2 {
		return 0, 0, 0, "", "", false
	}
	qa, rest, ok1 := plainQuoted(rest)
	if !ok1 || len(rest) == 0 || rest[0] != ' ' {
		return 0, 0, 0, "", "", false
	}
	qb, rest, ok2 := plainQuoted(rest[1:])
	if !ok2 || len(rest) != 0 {
		return 0, 0, 0, "", "", false
	}
	return line[0], ti, si, clip(vals.get(qa)), clip(vals.get(qb)), true
}

// plainNumber reads up to 18 decimal digits and the space after them.
func plainNumber(b []byte) (n int, rest []byte, ok bool) {
	i := 0
	for i < len(b) && i <= 18 && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int(b[i]-'0')
		i++
	}
	if i == 0 || i > 18 || i >= len(b) || b[i] != ' ' {
		return 0, nil, false
	}
	return n, b[i+1:], true
}

// plainQuoted reads a quoted value without a backslash or a newline,
// valid UTF-8, and returns what is between the quotes.
func plainQuoted(b []byte) (value, rest []byte, ok bool) {
	if len(b) < 2 || b[0] != '"' {
		return nil, nil, false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 {
		return nil, nil, false
	}
	value = b[1 : 1+end]
	if bytes.IndexByte(value, '\\') >= 0 || bytes.IndexByte(value, '\n') >= 0 || !utf8.Valid(value) {
		return nil, nil, false
	}
	return value, b[end+2:], true
}

// values keeps the values a judge has read, so that a value seen before
// costs no new string: a learner's program repeats a few values ("true",
// "closed") tens of thousands of times.
type values struct{ m map[string]string }

// get returns b as a string, the one kept if there is one.
func (v *values) get(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if v == nil {
		return string(b)
	}
	if s, ok := v.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(b) <= maxKeptValue && len(v.m) < maxKeptValues {
		if v.m == nil {
			v.m = map[string]string{}
		}
		v.m[s] = s
	}
	return s
}

// Bounds of what values keeps: the short values a program repeats, not
// whatever a learner's program makes up.
const (
	maxKeptValue  = 64
	maxKeptValues = 1024
)

// errUnreadable is a reply line that is not in the protocol.
type errUnreadable struct{ line string }

func (e errUnreadable) Error() string { return fmt.Sprintf("unreadable reply %q", e.line) }

func cutSpace(s string) (before, after string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}

// clip cuts a value to MaxValue bytes at a rune boundary.
func clip(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	i := MaxValue
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// Replier is the learner's program's side of the conversation: it writes
// answers, flushing at the end of every request and at least every
// flushEvery, so that the judge learns how far a trace got even when the
// learner's code hangs.
type Replier struct {
	mu   sync.Mutex
	w    *bufio.Writer
	buf  []byte        // the line being written, kept for the next
	stop chan struct{} // closed by close: the flushing ends
}

const flushEvery = 50 * time.Millisecond

func newReplier(w io.Writer) *Replier {
	r := &Replier{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{})}
	go func() {
		t := time.NewTicker(flushEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				r.flush()
			case <-r.stop:
				return
			}
		}
	}()
	return r
}

// close flushes what is left and ends the flushing, so that a Replier in
// the checker's own process leaves nothing running.
func (r *Replier) close() {
	close(r.stop)
	r.flush()
}

func (r *Replier) flush() {
	r.mu.Lock()
	_ = r.w.Flush()
	r.mu.Unlock()
}

func (r *Replier) write(b []byte) {
	r.mu.Lock()
	_, _ = r.w.Write(b)
	r.mu.Unlock()
}

func (r *Replier) ready() { r.write([]byte("r\n")); r.flush() }

func (r *Replier) done() { r.write([]byte("d\n")); r.flush() }

// Step reports what step si (0: New) of trace ti returned and left to
// observe.
func (r *Replier) Step(ti, si int, ret, obs string) { r.record('s', ti, si, ret, obs) }

// Panicked reports that step si of trace ti panicked with value at the
// learner's frame; inObserve says the observation after the step did.
func (r *Replier) Panicked(ti, si int, value, frame string, inObserve bool) {
	kind := byte('p')
	if inObserve {
		kind = 'o'
	}
	r.record(kind, ti, si, value, frame)
}

func (r *Replier) record(kind byte, ti, si int, a, b string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	buf := append(r.buf[:0], kind, ' ')
	buf = strconv.AppendInt(buf, int64(ti), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(si), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendQuote(buf, clip(a))
	buf = append(buf, ' ')
	buf = strconv.AppendQuote(buf, clip(b))
	buf = append(buf, '\n')
	_, _ = r.w.Write(buf)
	r.buf = buf
}

// Measured reports the claim that answers a measurement.
func (r *Replier) Measured(claim string) {
	r.write([]byte("m " + strconv.Quote(claim) + "\n"))
}
