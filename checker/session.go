package checker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"time"

	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/sandbox"
)

// Session is a running test program built with some files as the
// exercise's package, which the caller questions through its Learner: kurs
// validate runs the reference this way to learn what it does on each
// trace.
type Session struct {
	*harness.Learner
	cmd   *exec.Cmd
	tmp   string
	pipes []*os.File
	done  chan error
}

// Serve builds the exercise's test program with files as the exercise's
// package and starts it, ready for requests. A Problem means the files
// are refused or do not build. The caller must Close the session.
func (c *Checker) Serve(ctx context.Context, ex *course.Exercise, files []course.File) (*Session, *Problem, error) {
	c, done, err := c.withBuild()
	if err != nil {
		return nil, nil, err
	}
	defer done()
	src := sessionSources(ex, files)
	// The same static checks as a check, for any files but the course's
	// own reference (kurs validate reports the reference's imports on its
	// own, and still needs to know what it does).
	if !isReference(ex, files) {
		if p := inspect(ex.ID, src, ex.Imports); p != nil && !c.noDefences {
			return nil, p, nil
		}
	}
	tmp, err := os.MkdirTemp(c.TempDir, "kurs-serve-")
	if err != nil {
		return nil, nil, err
	}
	fail := func(p *Problem, err error) (*Session, *Problem, error) {
		os.RemoveAll(tmp)
		return nil, p, err
	}
	one := []*job{{Job: Job{Exercise: ex}, files: src}}
	mod, err := combinedModule(one)
	if err != nil {
		return fail(nil, err)
	}
	prog, _, p, err := c.buildLearner(ctx, tmp, mod, []*course.Exercise{ex}, one)
	if err != nil || p != nil {
		return fail(p, err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return fail(nil, err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return fail(nil, err)
	}
	s := &Session{tmp: tmp, pipes: []*os.File{reqR, reqW, repR, repW}, done: make(chan error, 1)}
	s.cmd = c.learnerCommand(ctx, tmp, []string{prog, ex.ID, "serve"})
	s.cmd.Env = append(s.cmd.Env, "KURS_PIPES="+passFiles(s.cmd, reqR, repW))
	out := &capped{limit: DefaultOutputCap}
	s.cmd.Stdout, s.cmd.Stderr = out, out
	if err := s.cmd.Start(); err != nil {
		s.Close()
		return nil, nil, err
	}
	reqR.Close()
	repW.Close()
	go func() { s.done <- s.cmd.Wait() }()
	s.Learner = harness.NewLearner(reqW, repR)
	// The learner's package is initialised before the program is ready,
	// and its init may hang: the wait is bounded like a check's run.
	ready := make(chan error, 1)
	go func() { ready <- s.Ready() }()
	select {
	case err := <-ready:
		if err == nil {
			return s, nil, nil
		}
	case <-time.After(c.timeout()):
		s.Close()
		return nil, &Problem{Kind: ProblemTimeout}, nil
	}
	s.Close() // waits for the program's end, so its output is complete
	detail := lastWords(out.Tail())
	if detail == "" {
		detail = lastWords(out.String())
	}
	return nil, &Problem{Kind: ProblemCrash, Detail: detail}, nil
}

// sessionSources returns files as the learner's files of ex.
func sessionSources(ex *course.Exercise, files []course.File) []source {
	src := make([]source, len(files))
	for i, f := range files {
		src[i] = source{Name: f.Name, Path: path.Join(ex.ID, f.Name), Data: f.Data, Size: int64(len(f.Data))}
	}
	return src
}

// ServeKey returns a name for everything that decides what a Session of
// Serve(ctx, ex, files) answers to request, which names what the caller
// asks of it: the session's program (files, the exercise's test program
// and API check, its support packages, the harness), the exercise's
// reference and suite, from which its judge makes the random traces
// (RandomTraces), the go command, kurs itself (build.Self) and the
// limits. A caller that keeps what a session answered, as kurs validate
// does, keeps it in the Builder (Build.Remember) under this key, so that
// a change to any of it runs the session again.
func (c *Checker) ServeKey(ex *course.Exercise, files []course.File, request []byte) (string, error) {
	if c.Build == nil {
		return "", errors.New("checker: ServeKey needs a Builder")
	}
	mod, err := moduleFiles(ex, sessionSources(ex, files), false)
	if err != nil {
		return "", err
	}
	judge, err := moduleFiles(ex, nil, true)
	if err != nil {
		return "", err
	}
	for name, data := range judge {
		mod["\x00judge/"+name] = data
	}
	mod["\x00serve"] = fmt.Appendf(nil, "serve 1\nkurs %s\nexercise %s\ntimeout %s\nmemory %d\ndefences %t\ndirect %t\n",
		build.Self(), ex.ID, c.timeout(), c.memory(), !c.noDefences, !c.noDirect)
	mod["\x00request"] = request
	return c.Build.Key(mod)
}

// Close ends the program and removes what it left.
func (s *Session) Close() error {
	for _, f := range s.pipes {
		f.Close()
	}
	if s.cmd != nil && s.cmd.Process != nil {
		sandbox.Kill(s.cmd)
		<-s.done
	}
	return os.RemoveAll(s.tmp)
}

// RandomTraces returns the random traces of the exercise's hidden tests as
// its judge makes them with seed, or where the driver's generator panics.
func (c *Checker) RandomTraces(ctx context.Context, ex *course.Exercise, seed uint64) ([]harness.Generated, error) {
	c, done, err := c.withBuild()
	if err != nil {
		return nil, err
	}
	defer done()
	judge, err := c.judge(ctx, ex)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(c.TempDir, "kurs-traces-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	suite, err := json.Marshal(ex.Suite)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "suite.json"), suite, 0o644); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	launcher, _ := c.Build.Launcher(ctx) // without it, kurs itself launches
	cmd := sandbox.Command(ctx, sandbox.Policy{Memory: DefaultMemory, Launcher: launcher}, judge, "traces", filepath.Join(tmp, "suite.json"))
	cmd.Env = []string{fmt.Sprintf("KURS_SEED=%d", seed)}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("random traces of %s: %w: %s", ex.ID, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var gens []harness.Generated
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var g harness.Generated
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return nil, err
		}
		gens = append(gens, g)
	}
	return gens, sc.Err()
}

// isReference reports whether files are the exercise's reference solution.
func isReference(ex *course.Exercise, files []course.File) bool {
	ref, err := ex.Solution()
	if err != nil || len(ref) != len(files) {
		return false
	}
	for i := range ref {
		if ref[i].Name != files[i].Name || !bytes.Equal(ref[i].Data, files[i].Data) {
			return false
		}
	}
	return true
}
