//go:build !kurs_learner

package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// The judge's side of Main. A learner's program, built with LearnerTag,
// leaves it out: it holds no way to judge, and links no encoding/json.

// judge runs the suite against the learner's program and writes a record
// per test to standard output.
func judge(d Driver, suitePath string) error {
	limitSelf()
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

// timeout describes where the running trace was when time ran out.
func (l *Learner) timeout() *Failure {
	tr, rep, ok := l.Where()
	l.mu.Lock()
	f := &Failure{Kind: Timeout, Observe: l.observe}
	if l.seed != 0 {
		f.Seed, f.Index = l.seed, l.index
	}
	l.mu.Unlock()
	if !ok {
		return f
	}
	f.New = tr.New
	f.Call = FormatCall("New", tr.New)
	for i, res := range rep.Results {
		if i == 0 {
			continue
		}
		s := tr.Steps[i-1]
		f.Done = append(f.Done, Done{Call: FormatCall(s.Call, s.Args), Got: res})
	}
	if n := len(rep.Results); n > 0 && n <= len(tr.Steps) {
		f.Step = n
		f.Call = FormatCall(tr.Steps[n-1].Call, tr.Steps[n-1].Args)
	}
	return f
}
