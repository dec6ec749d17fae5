package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Driver connects the harness to an exercise. The same driver is built
// twice: into the learner's program, where the exercise's package is the
// learner's, and into the judge, where it is the reference.
type Driver interface {
	// Judge runs hidden test t in the judge, asking the learner's program
	// through l, and returns nil when the learner's answers match. An
	// error means the learner's program stopped answering.
	Judge(t Test, seed uint64, l *Learner) (*Failure, error)
	// Serve answers one request in the learner's program.
	Serve(req Request, r *Replier)
}

// Main runs the program as the judge ("judge SUITE.json") or as the
// learner's program ("serve"), as the first argument says. The checker
// passes each its ends of the two pipes between them in KURS_PIPES, and
// the judge its settings in KURS_SEED and KURS_DEADLINE.
func Main(d Driver) {
	var err error
	switch {
	case len(os.Args) == 2 && os.Args[1] == "serve":
		err = serve(d)
	case len(os.Args) == 3 && os.Args[1] == "judge":
		err = judge(d, os.Args[2])
	case len(os.Args) == 3 && os.Args[1] == "traces":
		err = traces(d, os.Args[2])
	default:
		err = fmt.Errorf("usage: %s serve | judge SUITE.json | traces SUITE.json", os.Args[0])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kurs harness:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// pipes returns the two files named in KURS_PIPES.
func pipes() (*os.File, *os.File, error) {
	a, b, ok := strings.Cut(os.Getenv("KURS_PIPES"), ",")
	x, err1 := strconv.ParseUint(a, 10, 64)
	y, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return nil, nil, fmt.Errorf("no pipes in KURS_PIPES")
	}
	return os.NewFile(uintptr(x), "kurs-in"), os.NewFile(uintptr(y), "kurs-out"), nil
}

// serve answers the judge's requests until it closes its pipe.
func serve(d Driver) error {
	in, out, err := pipes()
	if err != nil {
		return err
	}
	debug.SetTraceback("single")
	r := newReplier(out)
	r.ready()
	dec := json.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	for {
		var req Request
		if err := dec.Decode(&req); err != nil {
			r.flush()
			return nil
		}
		d.Serve(req, r)
		r.done()
	}
}

// judge runs the suite against the learner's program and writes a record
// per test to standard output.
func judge(d Driver, suitePath string) error {
	out, in, err := pipes()
	if err != nil {
		return err
	}
	suite, err := readSuite(suitePath)
	if err != nil {
		return err
	}
	seed, _ := strconv.ParseUint(os.Getenv("KURS_SEED"), 10, 64)
	deadline, err := time.ParseDuration(os.Getenv("KURS_DEADLINE"))
	if err != nil || deadline <= 0 {
		deadline = 10 * time.Second
	}
	l := NewLearner(out, in)
	j := &judgeState{enc: json.NewEncoder(os.Stdout)}
	time.AfterFunc(deadline, func() { j.timeout(l); os.Exit(0) })

	if l.Ready() != nil {
		// The learner's program died before its package was initialised:
		// no test began, which the checker reports as such.
		return nil
	}
	for _, t := range suite.Tests {
		j.begin(t.Name)
		var f *Failure
		var err error
		if value, _, panicked := Catch("", func() { f, err = d.Judge(t, seed, l) }); panicked {
			// The reference or the driver panicked: a mistake in the
			// course, which kurs validate names; the test cannot pass.
			f, err = &Failure{Kind: Panicked, Panic: "reference: " + value}, nil
		}
		if err != nil && f == nil {
			// The learner's program is gone: this test has no result, and
			// the checker tells why from the program's last words.
			return nil
		}
		r := Record{Kind: "result", Test: t.Name, Status: "pass"}
		switch {
		case f != nil && f.Pass:
			r.Failure = f
		case f != nil:
			r.Status, r.Failure = "fail", f
		}
		j.result(r)
	}
	j.send(Record{Kind: "done"})
	return nil
}

// Generated is one random trace as the judge makes it, or the panic of the
// driver's generator, for "traces" mode.
type Generated struct {
	Test  string `json:"test"`
	Index int    `json:"index"`
	Trace *Trace `json:"trace,omitempty"`
	Panic string `json:"panic,omitempty"`
}

// traces writes every random trace of the suite, as the judge would make
// them with KURS_SEED, one JSON line each: kurs validate runs them on the
// reference.
func traces(d Driver, suitePath string) error {
	gen, ok := d.(interface {
		RandomTrace(seed uint64, i int) Trace
		HasRandom() bool
	})
	if !ok || !gen.HasRandom() {
		return nil
	}
	suite, err := readSuite(suitePath)
	if err != nil {
		return err
	}
	seed, _ := strconv.ParseUint(os.Getenv("KURS_SEED"), 10, 64)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for _, t := range suite.Tests {
		for i := range t.Random {
			g := Generated{Test: t.Name, Index: i}
			var tr Trace
			if value, _, panicked := Catch("", func() { tr = gen.RandomTrace(seed, i) }); panicked {
				g.Panic = value
				_ = enc.Encode(g)
				break
			}
			g.Trace = &tr
			if err := enc.Encode(g); err != nil {
				return err
			}
		}
	}
	return nil
}

func readSuite(name string) (Suite, error) {
	var suite Suite
	data, err := os.ReadFile(name)
	if err != nil {
		return suite, err
	}
	if err := json.Unmarshal(data, &suite); err != nil {
		return suite, fmt.Errorf("read suite: %w", err)
	}
	return suite, nil
}

// judgeState writes records, one at a time, and knows which test runs.
type judgeState struct {
	mu       sync.Mutex
	enc      *json.Encoder
	test     string
	reported bool
	stopped  bool
}

func (j *judgeState) send(r Record) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.stopped {
		_ = j.enc.Encode(r)
	}
}

func (j *judgeState) begin(test string) {
	j.mu.Lock()
	j.test, j.reported = test, false
	j.mu.Unlock()
	// Announce the test, so that a crash of the learner's program is
	// blamed on it.
	j.send(Record{Kind: "start", Test: test})
}

func (j *judgeState) result(r Record) {
	j.send(r)
	j.mu.Lock()
	j.reported = true
	j.mu.Unlock()
}

// timeout reports the running test as timed out, at the step the
// learner's code was stuck in, and stops all further records.
func (j *judgeState) timeout(l *Learner) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.test != "" && !j.reported {
		_ = j.enc.Encode(Record{Kind: "result", Test: j.test, Status: "fail", Failure: l.timeout()})
	}
	j.stopped = true
}
