// Package benchutil holds what the benchmarks of kurs share: a kurs built
// for the run, a workspace with the circuit breaker and a baseline module
// of the same file that go test checks, and how timings are summed up.
package benchutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Patience bounds the wait for one result; a result that takes longer is
// a failure of kurs, not a slow sample.
const Patience = 60 * time.Second

// baselineTest is the tiny test of the baseline module, shared with the
// checker's benchmark; the benchmarks run from the repository's root.
const baselineTest = "checker/testdata/baseline/circuitbreaker_test.go"

// Setup is a temporary folder with what a benchmark of saves works on:
// kurs, built from the repository; a workspace of it (English, not warmed
// up); and a baseline module with the circuit breaker's reference
// solution and a test of the seed's trace.
type Setup struct {
	Dir       string // the temporary folder; Close removes it
	Kurs      string // the kurs binary
	Workspace string // the workspace's folder
	Learner   string // the circuit breaker's file in the workspace
	Solution  []byte // the circuit breaker's reference solution
	// Wrong is the solution with its probe one tick late: it fails the
	// seed's trace at Allow(9), in kurs and in the baseline.
	Wrong    []byte
	baseline string // the baseline module's folder
}

// NewSetup makes a Setup in a new temporary folder whose name starts with
// kurs-bench-name-. It must run in the repository's root.
func NewSetup(name string) (*Setup, error) {
	solution, err := os.ReadFile(filepath.Join("exercises", "circuitbreaker", "solution", "circuitbreaker.go"))
	if err != nil {
		return nil, fmt.Errorf("run me from the repository's root: %w", err)
	}
	wrong := bytes.Replace(solution, []byte("now-b.openedAt >= b.wait"), []byte("now-b.openedAt > b.wait"), 1)
	if bytes.Equal(wrong, solution) {
		return nil, errors.New("the reference solution changed; cannot make the wrong variant")
	}
	tmp, err := os.MkdirTemp("", "kurs-bench-"+name+"-")
	if err != nil {
		return nil, err
	}
	s := &Setup{
		Dir:       tmp,
		Workspace: filepath.Join(tmp, "ws"),
		Learner:   filepath.Join(tmp, "ws", "circuitbreaker", "circuitbreaker.go"),
		Solution:  solution,
		Wrong:     wrong,
		baseline:  filepath.Join(tmp, "baseline"),
	}
	if err := s.make(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Setup) make() error {
	var err error
	if s.Kurs, err = BuildKurs(s.Dir); err != nil {
		return err
	}
	if out, err := exec.Command(s.Kurs, "init", s.Workspace, "--lang", "en", "--no-warm").CombinedOutput(); err != nil {
		return fmt.Errorf("kurs init: %v\n%s", err, out)
	}
	if err := os.Mkdir(s.baseline, 0o755); err != nil {
		return err
	}
	test, err := os.ReadFile(baselineTest)
	if err != nil {
		return err
	}
	for name, data := range map[string]string{
		"go.mod":                 "module example.com/baseline\n\ngo 1.22\n",
		"circuitbreaker_test.go": string(test),
		"circuitbreaker.go":      string(s.Solution),
	} {
		if err := os.WriteFile(filepath.Join(s.baseline, name), []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the setup's folder.
func (s *Setup) Close() error { return os.RemoveAll(s.Dir) }

// GoTest saves src as the baseline's circuit breaker and times a bare
// `go test -count=1` of it. A test that fails is a result too: passed
// says which; err is for a go test that could not test.
func (s *Setup) GoTest(src []byte) (d time.Duration, passed bool, err error) {
	if err := os.WriteFile(filepath.Join(s.baseline, "circuitbreaker.go"), src, 0o644); err != nil {
		return 0, false, err
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = s.baseline
	cmd.Env = BaselineEnv()
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d = time.Since(start)
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && bytes.Contains(out, []byte("--- FAIL"))) {
		return 0, false, fmt.Errorf("go test: %v\n%s", err, out)
	}
	return d, err == nil, nil
}

// BuildKurs builds kurs from the repository into dir and returns its
// path, linked statically (CGO_ENABLED=0) as make build and make install
// build it, so that a benchmark measures the kurs that learners run. It
// must run in the repository's root.
func BuildKurs(dir string) (string, error) {
	kurs := filepath.Join(dir, "kurs")
	cmd := exec.Command("go", "build", "-o", kurs, "./cmd/kurs")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build kurs: %v\n%s", err, out)
	}
	return kurs, nil
}

// BaselineEnv is the environment of a baseline's go command: this
// process's, with the settings kurs's checker gives its own go commands
// (offline, the installed toolchain, no go.work, no cgo, no GOFLAGS of the
// user's), so that both build alike.
func BaselineEnv() []string {
	return append(os.Environ(), "GOFLAGS=", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "CGO_ENABLED=0")
}

// Edit returns the file with a comment that makes each save different, as
// a learner's edit is.
func Edit(src []byte, i int) []byte {
	return fmt.Appendf(bytes.Clone(src), "\n// edit %d\n", i)
}

// Median returns the middle one of ds (of an even number, the upper).
func Median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// Report prints one line of timings: the label, then the median, the
// shortest and the longest of ds.
func Report(label string, ds []time.Duration) {
	fmt.Printf("%-40s median %6.3fs  min %6.3fs  max %6.3fs\n", label, Median(ds).Seconds(), slices.Min(ds).Seconds(), slices.Max(ds).Seconds())
}

// ReportWithin prints whether every one of ds took at most a second, the
// aim for a save's result.
func ReportWithin(ds []time.Duration) {
	within := "yes"
	if slices.Max(ds) > time.Second {
		within = "no"
	}
	fmt.Printf("every result within 1s: %s\n", within)
}

// Process is kurs running under a benchmark, with its standard input and
// output on pipes.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.Reader
	cmd    *exec.Cmd
	stderr lockedBuffer
	exited chan struct{} // closed when kurs has ended
}

// Start starts the setup's kurs with args.
func (s *Setup) Start(args ...string) (*Process, error) {
	p := &Process{cmd: exec.Command(s.Kurs, args...), exited: make(chan struct{})}
	var err error
	if p.Stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if p.Stdout, err = p.cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		_ = p.cmd.Wait() // how it ended does not matter, only that it did
		close(p.exited)
	}()
	return p, nil
}

// Login reads kurs serve's first line and returns the address it prints
// for logging in (with its key) and the server's base address. It reads
// a byte at a time, so that nothing after the line is taken from Stdout.
func (p *Process) Login() (login, base string, err error) {
	var line []byte
	one := make([]byte, 1)
	for {
		n, rerr := p.Stdout.Read(one)
		if n == 1 && one[0] == '\n' {
			break
		}
		line = append(line, one[:n]...)
		if rerr != nil {
			err = rerr
			break
		}
	}
	login = loginAddress.FindString(string(line))
	if login == "" {
		return "", "", fmt.Errorf("kurs serve printed %q (%v) and no address: %s", line, err, p.Stderr())
	}
	base, _, _ = strings.Cut(login, "/?")
	return login, base, nil
}

// loginAddress is the address with its key in kurs serve's first line.
var loginAddress = regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?key=[0-9a-f]+`)

// Stderr returns what kurs has written to its standard error so far, to
// explain a failure.
func (p *Process) Stderr() string { return p.stderr.String() }

// Interrupt asks kurs to end, as Ctrl+C does.
func (p *Process) Interrupt() error { return p.cmd.Process.Signal(os.Interrupt) }

// End waits up to grace for kurs to end; then it kills kurs and says so.
// After the first call, End returns nil at once.
func (p *Process) End(grace time.Duration) error {
	select {
	case <-p.exited:
		return nil
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return fmt.Errorf("kurs did not end within %v and was killed", grace)
	}
}

// lockedBuffer is a bytes.Buffer that a process may write to while the
// benchmark reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Summary prints one of the figures a benchmark is run for, on a line of
// its own that starts with "summary: ", so that `make bench` can gather
// every benchmark's figures at the end of its output.
func Summary(format string, args ...any) {
	fmt.Printf("summary: "+format+"\n", args...)
}
