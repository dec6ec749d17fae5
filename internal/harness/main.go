package harness

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
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
	answer(d, in, out)
	return nil
}

// Serve answers the judge's requests read from in on out, until in ends,
// as a learner's program does: it is the learner's side of the protocol.
// The checker calls it itself for a quiz whose answers are constants
// known without running the learner's code.
func Serve(d Driver, in io.Reader, out io.Writer) { answer(d, in, out) }

// answer answers the requests read from in on out, until in ends.
func answer(d Driver, in io.Reader, out io.Writer) {
	r := newReplier(out)
	r.ready()
	rr := &requestReader{r: bufio.NewReaderSize(in, 64<<10)}
	for {
		req, err := rr.read()
		if err != nil {
			r.close()
			return
		}
		d.Serve(req, r)
		r.done()
	}
}
