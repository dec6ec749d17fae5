// Command start measures how fast kurs starts: `kurs version` and
// `kurs help` against `go version`, and kurs as the sandbox's launcher
// against a static Go binary that does nothing, all in the same run, round
// by round and in alternating order, so that the machine's load weighs on
// both sides alike. It reports the median wall and processor time of each
// and the ratios of the medians.
//
// Run it from the repository's root:
//
//	go run ./bench/start          # 41 rounds
//	go run ./bench/start -n 101
//
// The launcher is measured as a check uses it: the launcher program that
// kurs builds and keeps in its cache (build.Builder.Launcher), started
// with the limits of an unconfined policy, executes the static binary
// (launcher → static), and the same with the confinement a learner's
// program gets (seccomp, Landlock, namespaces); its baseline is the static
// binary started directly. What a launcher adds is the difference; its
// start should be close to any static binary's. The same two with kurs
// itself as the launcher (the fallback when there is no launcher program,
// and the only launcher before there was one) run in the same rounds, and
// the last lines compare the two launchers. kurs is built by `make build`,
// as a user builds it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/sandbox"
)

func main() {
	n := flag.Int("n", 41, "number of rounds")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "bench/start: -n must be at least 1")
		os.Exit(2)
	}
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "bench/start:", err)
		os.Exit(1)
	}
}

// sample is one run of a command: its wall time and its processor time
// (user and system, the program it executed included).
type sample struct{ wall, cpu time.Duration }

// subject is one command measured, made afresh for each run.
type subject struct {
	label string
	cmd   func() *exec.Cmd
	runs  []sample
}

func (s *subject) run() error {
	cmd := s.cmd()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", s.label, err, out.String())
	}
	s.runs = append(s.runs, sample{wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()})
	return nil
}

// median returns the middle value of the runs' field f.
func (s *subject) median(f func(sample) time.Duration) time.Duration {
	var ds []time.Duration
	for _, r := range s.runs {
		ds = append(ds, f(r))
	}
	return benchutil.Median(ds)
}

func wall(s sample) time.Duration { return s.wall }
func cpu(s sample) time.Duration  { return s.cpu }

// pair is a command and its baseline, run one after the other.
type pair struct{ kurs, base *subject }

func run(n int) error {
	if _, err := os.Stat(filepath.Join("cmd", "kurs")); err != nil {
		return errors.New("run me from the repository's root")
	}
	dir, err := os.MkdirTemp("", "kurs-bench-start-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	kurs, err := buildKurs(dir)
	if err != nil {
		return err
	}
	static, err := buildStatic(dir)
	if err != nil {
		return err
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	ctx := context.Background()
	program, err := launcherProgram(ctx)
	if err != nil {
		return err
	}
	// kurs in English and outside any workspace, as a first `kurs help`.
	env := append(os.Environ(), "KURS_LANG=en")
	plain := func(name string, args ...string) func() *exec.Cmd {
		return func() *exec.Cmd {
			cmd := exec.Command(name, args...)
			cmd.Dir, cmd.Env = dir, env
			return cmd
		}
	}
	launched := func(launcher string, p sandbox.Policy) func() *exec.Cmd {
		return func() *exec.Cmd { return sandbox.CommandFrom(ctx, launcher, p, static) }
	}
	goVersion := func() *subject { return &subject{label: "go version", cmd: plain(goCmd, "version")} }
	staticAlone := func() *subject { return &subject{label: "static binary", cmd: plain(static)} }
	pairs := []pair{
		{&subject{label: "kurs version", cmd: plain(kurs, "version")}, goVersion()},
		{&subject{label: "kurs help", cmd: plain(kurs, "help")}, goVersion()},
		{&subject{label: "launcher → static binary", cmd: launched(program, sandbox.Policy{})}, staticAlone()},
		{&subject{label: "confined launcher → static binary", cmd: launched(program, sandbox.Policy{Confine: true})}, staticAlone()},
		{&subject{label: "kurs as launcher → static binary", cmd: launched(kurs, sandbox.Policy{})}, staticAlone()},
		{&subject{label: "confined kurs as launcher → static", cmd: launched(kurs, sandbox.Policy{Confine: true})}, staticAlone()},
	}
	// The launchers against each other: the subjects of the pairs above,
	// measured in the same rounds.
	versus := []pair{{pairs[4].kurs, pairs[2].kurs}, {pairs[5].kurs, pairs[3].kurs}}
	fmt.Printf("kurs %s, go %s, launcher %s, %d rounds; sandbox layers: %s\n", kurs, goCmd, program, n, sandbox.Layers())
	// One unmeasured round loads the binaries into the page cache.
	for _, p := range pairs {
		for _, s := range []*subject{p.kurs, p.base} {
			if err := s.run(); err != nil {
				return err
			}
			s.runs = nil
		}
	}
	for i := range n {
		for _, p := range pairs {
			order := []*subject{p.kurs, p.base}
			if i%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for _, s := range order {
				if err := s.run(); err != nil {
					return err
				}
			}
		}
	}
	fmt.Printf("%-36s %12s %12s\n", "median of "+fmt.Sprint(n), "wall", "cpu")
	for _, p := range pairs {
		for _, s := range []*subject{p.kurs, p.base} {
			fmt.Printf("%-36s %10.2fms %10.2fms\n", s.label, ms(s.median(wall)), ms(s.median(cpu)))
		}
		fmt.Printf("%s / %s: wall %.2f×, cpu %.2f× (median of the rounds' ratios: wall %.2f×, cpu %.2f×)\n",
			p.kurs.label, p.base.label,
			ratio(p.kurs.median(wall), p.base.median(wall)), ratio(p.kurs.median(cpu), p.base.median(cpu)),
			roundRatio(p, wall), roundRatio(p, cpu))
	}
	for _, p := range versus {
		fmt.Printf("%s / %s: wall %.2f×, cpu %.2f× (median of the rounds' ratios: wall %.2f×, cpu %.2f×)\n",
			p.kurs.label, p.base.label,
			ratio(p.kurs.median(wall), p.base.median(wall)), ratio(p.kurs.median(cpu), p.base.median(cpu)),
			roundRatio(p, wall), roundRatio(p, cpu))
	}
	return nil
}

// launcherProgram returns the launcher program as kurs builds it and keeps
// it in its cache.
func launcherProgram(ctx context.Context) (string, error) {
	b, err := build.New(build.Options{})
	if err != nil {
		return "", err
	}
	defer b.Close()
	return b.Launcher(ctx)
}

// roundRatio is the median, over the rounds, of kurs's time over its
// baseline's in the same round: less swayed by load that changes between
// rounds than the ratio of the medians.
func roundRatio(p pair, f func(sample) time.Duration) float64 {
	var rs []float64
	for i := range p.kurs.runs {
		rs = append(rs, ratio(f(p.kurs.runs[i]), f(p.base.runs[i])))
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// buildKurs builds kurs into dir as `make build` builds it, flags and
// environment included, and returns its path.
func buildKurs(dir string) (string, error) {
	kurs := filepath.Join(dir, "kurs")
	if out, err := exec.Command("make", "-s", "build", "BIN="+kurs).CombinedOutput(); err != nil {
		return "", fmt.Errorf("make build: %v\n%s", err, out)
	}
	return kurs, nil
}

// buildStatic builds a Go program that does nothing, statically linked, as
// the go command builds a learner's program.
func buildStatic(dir string) (string, error) {
	src := filepath.Join(dir, "static")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	for name, data := range map[string]string{
		"go.mod":  "module example.com/static\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(dir, "static-binary")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir, cmd.Env = src, benchutil.BaselineEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the static binary: %v\n%s", err, out)
	}
	return bin, nil
}
