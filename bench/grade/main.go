// Command grade measures batch grading: `kurs grade --submissions DIR -j N`
// against a baseline of `go test` run in N lanes, at equal parallelism, in
// the same run.
//
// A baseline is N go test processes at a time: each lane takes the next
// submission and tests all its exercises' packages in one `go test`, with
// hidden tests written for go test (testdata/*_test.go) and the reference
// beside them, until none is left. -baseline chooses them: tuned (`go test
// -count=1 -vet=off -trimpath`) and exercism (`go test -count=1 -json`,
// one per submission, as Exercism's test runner runs it) by default, and
// go-test (`go test -count=1`); the output names each. Rounds rotate
// which side goes first, so that the machine's load weighs on all alike.
// It reports, per submission, the wall time (the batch's wall time divided
// by its size) and the processor time (the process's and its children's),
// for both, and their ratios.
//
// Run it from the repository's root; it is not part of `make test`:
//
//	go run ./bench/grade                 # 24 submissions, -j 2, 3 rounds: about 2 minutes when idle
//	go run ./bench/grade -scale          # kurs's cost per submission at 10, 100 and 1,000
//	                                     # (and, on stderr, so far at each tenth of a batch of 100 or more)
//	go run ./bench/grade -profile        # where one batch's processor time goes (needs perf)
//
// The submissions are realistic: a mix of right (50 %), wrong (30 %) and
// broken (20 %) exercises, taken from the checker's corpus, the cases that
// hang or crash on purpose left out (they measure the time limit, not the
// grader). Every learner package gets an exported constant naming its
// submission, side and run, so that no two submissions share a build, not
// even with an earlier run or across the two sides: as with real students,
// each learner's package, the test program that imports it and the link
// are done anew. Both sides start from a warm build cache (the standard
// library, kurs's kit and judges, the testing package), as on a grading
// machine after its first run. The baseline's modules are written before
// its clock starts, so its time is go test's alone.
//
// Both sides' verdicts are checked against the corpus's want.json, so a
// fast but wrong grader would show.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
)

// exercises are the course's exercises the mix uses, and the corpus's
// prefix for each.
var exercises = []struct{ id, prefix string }{
	{"circuitbreaker", "cb"}, {"tokenbucket", "tb"}, {"bulkheadquiz", "quiz"},
}

// slow are corpus cases left out of the mix: they hang or crash on
// purpose and cost both sides their time limit, which measures the limit,
// not the grader.
var slow = []string{"busy-wait", "wait-for-token", "memory-bomb", "stack-overflow"}

// variant is one learner folder of the corpus with its verdict.
type variant struct {
	dir     string
	verdict string // pass, fail or error
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("bench/grade: ")
	sizes := flag.String("n", "24", "numbers of submissions per batch, comma-separated")
	jobs := flag.Int("j", 2, "kurs grade -j, and the number of go test lanes")
	rounds := flag.Int("rounds", 3, "rounds per size; each round times kurs and the baseline once, alternating which goes first")
	timeout := flag.Duration("timeout", 10*time.Second, "time limit per exercise, for kurs and go test alike")
	scale := flag.Bool("scale", false, "measure how kurs's cost per submission scales: -n 10,100,1000, one round, the baseline only up to -baseline-max")
	baselineMax := flag.Int("baseline-max", -1, "run the baseline only for sizes up to this (-1: every size, 0: none; -scale: 100)")
	profile := flag.Bool("profile", false, "instead of timing, record one kurs batch of -n submissions with perf and show its processor time by program")
	keep := flag.Bool("keep", false, "keep the generated submissions and print where they are")
	baselineNames := flag.String("baseline", "tuned,exercism", "the baselines, comma-separated: "+baselineList())
	flag.Parse()

	if *scale {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["n"] {
			*sizes = "10,100,1000"
		}
		if !set["rounds"] {
			*rounds = 1
		}
		if !set["baseline-max"] {
			*baselineMax = 100
		}
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			log.Fatalf("-n: %q is not a number of submissions", s)
		}
		ns = append(ns, n)
	}
	if *jobs < 1 || *rounds < 1 {
		log.Fatal("-j and -rounds must be at least 1")
	}
	if _, err := os.Stat("checker/testdata/submissions"); err != nil {
		log.Fatal("run me from the repository root: go run ./bench/grade")
	}
	work, err := os.MkdirTemp("", "kurs-bench-grade-")
	check(err)
	if *keep {
		log.Printf("working in %s", work)
	} else {
		defer os.RemoveAll(work)
	}

	var bases []baselineKind
	for _, name := range strings.Split(*baselineNames, ",") {
		k, ok := baselineKinds[strings.TrimSpace(name)]
		if !ok {
			log.Fatalf("-baseline: no baseline %q (%s)", name, baselineList())
		}
		bases = append(bases, k)
	}
	if len(bases) == 0 {
		log.Fatal("-baseline: name at least one")
	}

	kurs, err := benchutil.BuildKurs(work)
	check(err)
	b := &bench{kurs: kurs, work: work, run: time.Now().UnixNano(), jobs: *jobs, timeout: *timeout, variants: corpus()}

	// Warm both sides' caches, untimed: kurs's kit and judges, go's
	// standard library and testing package, for every baseline's flags.
	b.kursGrade(b.generate("warm-kurs", 2*b.jobs), nil)
	for _, k := range bases {
		b.baseline(b.generate("warm-go-"+k.name, 2*b.jobs), k)
	}

	if *profile {
		b.profile(ns[0])
		return
	}

	began := time.Now()
	fmt.Printf("kurs grade --submissions DIR -j %d against go test in %d lanes, each lane taking the next submission and testing all its exercises' packages in one go test. Baselines:\n",
		b.jobs, b.jobs)
	for _, k := range bases {
		fmt.Printf("  %s: %d `go %s PACKAGES` at a time (%s)\n", k.name, b.jobs, strings.Join(k.args, " "), k.about)
	}
	fmt.Printf("Submissions of %d exercises (%s), new for each side and round; rounds alternate which side goes first; warm build caches; time limit %s per exercise.\n",
		len(exercises), ids(), b.timeout)
	fmt.Printf("%d CPUs, %s %s/%s; load average (1 min) %s at the start.\n\n",
		runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH, load())
	fmt.Println("| N | round | side | wall | CPU | wall per submission | CPU per submission | verdicts right | load before, after |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	type sizeResult struct {
		n            int
		kurs         []sample
		base         map[string][]sample
		wallRat      map[string][]float64 // baseline / kurs, per round
		cpuRat       map[string][]float64
		withBaseline bool
	}
	var results []sizeResult
	for _, n := range ns {
		r := sizeResult{n: n, withBaseline: *baselineMax < 0 || n <= *baselineMax,
			base: map[string][]sample{}, wallRat: map[string][]float64{}, cpuRat: map[string][]float64{}}
		for round := range *rounds {
			kursSet := b.generate(fmt.Sprintf("n%d-r%d-kurs", n, round), n)
			var ks sample
			bs := map[string]sample{}
			sides := []func(){func() {
				before := load()
				ks = b.kursGrade(kursSet, nil)
				fmt.Println(row(n, round+1, "kurs grade -j "+strconv.Itoa(b.jobs), ks, before))
			}}
			if r.withBaseline {
				for _, k := range bases {
					sides = append(sides, func() {
						set := b.generate(fmt.Sprintf("n%d-r%d-go-%s", n, round, k.name), n)
						before := load()
						bs[k.name] = b.baseline(set, k)
						fmt.Println(row(n, round+1, fmt.Sprintf("%s, %d lanes", k.name, b.jobs), bs[k.name], before))
						if !*keep {
							os.RemoveAll(set.dir)
						}
					})
				}
			}
			// Each round another side goes first.
			for i := range sides {
				sides[(round+i)%len(sides)]()
			}
			r.kurs = append(r.kurs, ks)
			for name, sm := range bs {
				r.base[name] = append(r.base[name], sm)
				r.wallRat[name] = append(r.wallRat[name], sm.wall.Seconds()/ks.wall.Seconds())
				r.cpuRat[name] = append(r.cpuRat[name], sm.cpu.Seconds()/ks.cpu.Seconds())
			}
			if !*keep {
				os.RemoveAll(kursSet.dir)
			}
		}
		results = append(results, r)
	}

	fmt.Printf("\nPer submission, median of the rounds (ratio: a baseline in %d lanes / kurs grade -j %d, median of the rounds' ratios; above 1, kurs is faster):\n\n", b.jobs, b.jobs)
	fmt.Println("| N | baseline | kurs wall | baseline wall | wall ratio | kurs CPU | baseline CPU | CPU ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, r := range results {
		kw, kc := medianPer(r.kurs, r.n)
		if !r.withBaseline {
			fmt.Printf("| %d | — | %.3f s | — | — | %.3f s | — | — |\n", r.n, kw, kc)
			continue
		}
		for _, k := range bases {
			bw, bc := medianPer(r.base[k.name], r.n)
			fmt.Printf("| %d | %s | %.3f s | %.3f s | %.2f× | %.3f s | %.3f s | %.2f× |\n",
				r.n, k.name, kw, bw, median(r.wallRat[k.name]), kc, bc, median(r.cpuRat[k.name]))
		}
	}
	fmt.Println()
	for _, r := range results {
		if r.withBaseline {
			for _, k := range bases {
				benchutil.Summary("grade: %d submissions, %s (go %s) in %d lanes / kurs grade -j %d, per submission: wall %.2f×, CPU %.2f× (aim: at least 4× against tuned)",
					r.n, k.name, strings.Join(k.args, " "), b.jobs, b.jobs, median(r.wallRat[k.name]), median(r.cpuRat[k.name]))
			}
		}
	}
	if len(results) > 1 {
		first, last := results[0], results[len(results)-1]
		fw, fc := medianPer(first.kurs, first.n)
		lw, lc := medianPer(last.kurs, last.n)
		benchutil.Summary("grade: kurs per submission at %d / at %d submissions: wall %.2f×, CPU %.2f× (aim: flat, 1.0×)",
			last.n, first.n, lw/fw, lc/fc)
	}
	fmt.Printf("\nThe run took %s; load average (1 min) %s at the end.\n", time.Since(began).Round(time.Second), load())
}

// ids names the mix's exercises.
func ids() string {
	var s []string
	for _, ex := range exercises {
		s = append(s, ex.id)
	}
	return strings.Join(s, ", ")
}

// sample is one timed batch: its wall time, the processor time of the
// processes and their children, and how many verdicts were right of how
// many.
type sample struct {
	wall, cpu    time.Duration
	right, total int
}

func row(n, round int, side string, s sample, before string) string {
	return fmt.Sprintf("| %d | %d | %s | %.1f s | %.1f s | %.3f s | %.3f s | %d/%d | %s, %s |",
		n, round, side, s.wall.Seconds(), s.cpu.Seconds(), s.wall.Seconds()/float64(n), s.cpu.Seconds()/float64(n),
		s.right, s.total, before, load())
}

// medianPer returns the median wall and processor time per submission of
// samples of batches of n.
func medianPer(ss []sample, n int) (wall, cpu float64) {
	var w, c []float64
	for _, s := range ss {
		w, c = append(w, s.wall.Seconds()/float64(n)), append(c, s.cpu.Seconds()/float64(n))
	}
	return median(w), median(c)
}

// median returns the middle one of xs (of an even number, the mean of
// the two in the middle).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

type bench struct {
	kurs, work string
	run        int64 // makes this run's sources differ from any earlier run's
	jobs       int
	timeout    time.Duration
	variants   map[string]map[string][]variant // exercise → verdict → variants
}

// set is a folder of generated submissions and the verdict each exercise
// of each should get, keyed by "submission/exercise".
type set struct {
	name string
	dir  string
	ids  []string
	want map[string]string
}

// corpus reads the checker's corpus: for each exercise, the learner folders
// of the cases named after it, by verdict.
func corpus() map[string]map[string][]variant {
	root := "checker/testdata/submissions"
	entries, err := os.ReadDir(root)
	check(err)
	out := map[string]map[string][]variant{}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, "hostile-") || slices.ContainsFunc(slow, func(s string) bool { return strings.Contains(name, s) }) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, name, "want.json"))
		check(err)
		var w struct{ Exercises map[string]string }
		check(json.Unmarshal(data, &w))
		for _, ex := range exercises {
			v, ok := w.Exercises[ex.id]
			if !ok || !(strings.HasPrefix(name, ex.prefix+"-") || name == "all-pass") {
				continue
			}
			if out[ex.id] == nil {
				out[ex.id] = map[string][]variant{}
			}
			out[ex.id][v] = append(out[ex.id][v], variant{dir: filepath.Join(root, name, ex.id), verdict: v})
		}
	}
	for _, ex := range exercises {
		for _, v := range []string{"pass", "fail", "error"} {
			if len(out[ex.id][v]) == 0 {
				log.Fatalf("the corpus has no %s case for %s", v, ex.id)
			}
		}
	}
	return out
}

// generate makes n submissions in a new folder: each exercise of each
// submission is right (50 %), wrong (30 %) or broken (20 %), cycling
// through the corpus's variants.
func (b *bench) generate(name string, n int) *set {
	s := &set{name: name, dir: filepath.Join(b.work, name), want: map[string]string{}}
	for i := range n {
		id := fmt.Sprintf("student%04d", i)
		s.ids = append(s.ids, id)
		for e, ex := range exercises {
			k := (i*len(exercises) + e) % 10
			verdict := "pass"
			switch {
			case k >= 8:
				verdict = "error"
			case k >= 5:
				verdict = "fail"
			}
			vs := b.variants[ex.id][verdict]
			v := vs[(i+e)%len(vs)]
			s.want[id+"/"+ex.id] = v.verdict
			dst := filepath.Join(s.dir, id, ex.id)
			check(os.MkdirAll(dst, 0o755))
			files, err := filepath.Glob(filepath.Join(v.dir, "*.go"))
			check(err)
			first := true
			for _, f := range files {
				if strings.HasSuffix(f, "_test.go") {
					continue
				}
				data, err := os.ReadFile(f)
				check(err)
				if first {
					// An exported constant of its own makes every submission a
					// new build down to the link, as different code from
					// real students does; a comment alone would leave the
					// compiled package the same, and Go's cache would skip
					// the rest.
					data = fmt.Appendf(data, "\n// Added by bench/grade.\nconst BenchRun = %q\n", fmt.Sprintf("%s %s %d", id, name, b.run))
					first = false
				}
				check(os.WriteFile(filepath.Join(dst, filepath.Base(f)), data, 0o644))
			}
		}
	}
	return s
}

// kursArgs are the arguments of kurs grade for the set s, writing JSON to
// out.
func (b *bench) kursArgs(s *set, out string) []string {
	args := []string{"grade", "--submissions", s.dir, "--format", "json", "--output", out,
		"-j", strconv.Itoa(b.jobs), "--timeout", b.timeout.String()}
	for _, ex := range exercises {
		args = append(args, ex.id) // the course has more; the mix has these
	}
	return args
}

// kursGrade grades the set with kurs, run under wrap when it is given
// (a profiler's command line), and returns the sample. For a batch of at
// least 100, it prints kurs's cost per submission so far at each tenth
// of the batch that kurs reports, so that a long batch shows whether
// its cost grows as it goes.
func (b *bench) kursGrade(s *set, wrap []string) sample {
	out := filepath.Join(b.work, "kurs.json")
	argv := append(slices.Clone(wrap), b.kurs)
	argv = append(argv, b.kursArgs(s, out)...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var stderr bytes.Buffer
	pr, pw, err := os.Pipe()
	check(err)
	cmd.Stderr = pw
	start := time.Now()
	check(cmd.Start())
	pw.Close()
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			stderr.WriteString(line + "\n")
			m := progressLine.FindStringSubmatch(line)
			if m == nil || len(s.ids) < 100 || wrap != nil {
				continue
			}
			done, _ := strconv.Atoi(m[1])
			if done == 0 {
				continue
			}
			wall := time.Since(start).Seconds()
			cpu := "?"
			if c, ok := cpuSoFar(cmd.Process.Pid); ok {
				cpu = fmt.Sprintf("%.3f s", c.Seconds()/float64(done))
			}
			log.Printf("kurs at %d of %d: so far %.3f s wall and %s CPU per submission; load %s", done, len(s.ids), wall/float64(done), cpu, load())
		}
	}()
	err = cmd.Wait()
	<-read
	pr.Close()
	sm := sample{wall: time.Since(start), total: len(s.want)}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		log.Fatalf("kurs grade: %v\n%s", err, stderr.Bytes())
	}
	sm.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	data, err := os.ReadFile(out)
	check(err)
	var doc struct {
		Submissions []struct {
			ID        string
			Exercises []struct{ ID, Status string }
		}
	}
	check(json.Unmarshal(data, &doc))
	for _, sub := range doc.Submissions {
		for _, ex := range sub.Exercises {
			if s.want[sub.ID+"/"+ex.ID] == ex.Status {
				sm.right++
			}
		}
	}
	return sm
}

// baselineKind is a way of grading with go test.
type baselineKind struct {
	name  string
	args  []string // go's arguments before the packages
	about string
	json  bool // the output is go test's JSON events
}

// baselineKinds are the baselines -baseline names.
var baselineKinds = map[string]baselineKind{
	"go-test": {name: "go-test", args: []string{"test", "-count=1"}, about: "go test as a newcomer runs it"},
	"tuned": {name: "tuned", args: []string{"test", "-count=1", "-vet=off", "-trimpath"},
		about: "go test without vet, with paths trimmed: the cheapest go test that grades"},
	"exercism": {name: "exercism", args: []string{"test", "-count=1", "-json"}, json: true,
		about: "Exercism's test runner's way: one go test with JSON events per submission"},
}

// baselineList names the baselines, for -baseline's help.
func baselineList() string {
	return strings.Join(slices.Sorted(maps.Keys(baselineKinds)), ", ")
}

// baseline grades the set with go test in b.jobs lanes, as k says: each
// submission is a module with the learner's packages, the hidden _test.go
// files and the references, written before the clock starts; each lane
// runs one go test of the next submission's exercise packages until none
// is left. A package that does not build is the verdict error, a failing
// test fail.
func (b *bench) baseline(s *set, k baselineKind) sample {
	root := filepath.Join(b.work, "baseline-"+s.name)
	var pkgs []string
	for _, ex := range exercises {
		pkgs = append(pkgs, "./"+ex.id)
	}
	for _, id := range s.ids {
		mod := filepath.Join(root, id)
		check(os.MkdirAll(mod, 0o755))
		check(os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module bench\n\ngo 1.22\n"), 0o644))
		for _, ex := range exercises {
			check(os.CopyFS(filepath.Join(mod, ex.id), os.DirFS(filepath.Join(s.dir, id, ex.id))))
			check(writeReference(filepath.Join(mod, "reference", ex.id), ex.id))
			hidden, err := os.ReadFile(filepath.Join("bench", "grade", "testdata", ex.id+"_test.go"))
			check(err)
			check(os.WriteFile(filepath.Join(mod, ex.id, "hidden_test.go"), hidden, 0o644))
		}
	}
	defer os.RemoveAll(root)

	next := make(chan string)
	go func() {
		for _, id := range s.ids {
			next <- id
		}
		close(next)
	}()
	var (
		mu sync.Mutex
		sm = sample{total: len(s.want)}
		wg sync.WaitGroup
	)
	start := time.Now()
	for range b.jobs {
		wg.Go(func() {
			for id := range next {
				args := append(slices.Clone(k.args), "-timeout", b.timeout.String())
				args = append(args, pkgs...)
				cmd := exec.Command("go", args...)
				cmd.Dir = filepath.Join(root, id)
				cmd.Env = benchutil.BaselineEnv()
				out, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				if err != nil && !errors.As(err, &exit) {
					log.Fatalf("go test: %v", err)
				}
				if k.json {
					out = jsonOutput(out)
				}
				verdicts := goTestVerdicts(out)
				mu.Lock()
				sm.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				for _, ex := range exercises {
					if v, ok := verdicts[ex.id]; ok && v == s.want[id+"/"+ex.id] {
						sm.right++
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	sm.wall = time.Since(start)
	return sm
}

// progressLine is kurs grade's report, in a log, of each tenth of a batch
// graded: "30/300 submissions graded" (in any language, the numbers first).
var progressLine = regexp.MustCompile(`^(\d+)/(\d+)\s`)

// cpuSoFar returns the processor time that process pid and the children
// it has waited for have used, where /proc tells it.
func cpuSoFar(pid int) (time.Duration, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime, stime, cutime and cstime are the 12th to
	// the 15th of them, in clock ticks (100 a second on Linux).
	_, rest, ok := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 15 {
		return 0, false
	}
	var ticks int64
	for _, x := range f[11:15] {
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, true
}

// jsonOutput returns the text that go test's JSON events carry, with a
// summary line for each package's end as go test prints it without -json;
// lines that are not events (the go command's own errors) stay as they
// are.
func jsonOutput(out []byte) []byte {
	var text bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var ev struct{ Action, Package, Test, Output, FailedBuild string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			text.Write(sc.Bytes())
			text.WriteByte('\n')
			continue
		}
		if ev.Test != "" || ev.Package == "" {
			continue
		}
		switch ev.Action {
		case "pass":
			fmt.Fprintf(&text, "ok  \t%s\n", ev.Package)
		case "fail":
			if ev.FailedBuild != "" {
				fmt.Fprintf(&text, "FAIL\t%s [build failed]\n", ev.Package)
			} else {
				fmt.Fprintf(&text, "FAIL\t%s\n", ev.Package)
			}
		}
	}
	return text.Bytes()
}

// goTestVerdicts reads go test's summary lines, one per package: "ok",
// "FAIL … [build failed]" (or setup failed) for a package that does not
// build, else "FAIL". It returns the verdict by exercise.
func goTestVerdicts(out []byte) map[string]string {
	v := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasPrefix(f[1], "bench/") {
			continue
		}
		id := strings.TrimPrefix(f[1], "bench/")
		switch {
		case f[0] == "ok":
			v[id] = "pass"
		case f[0] == "FAIL" && (strings.Contains(sc.Text(), "[build failed]") || strings.Contains(sc.Text(), "[setup failed]")):
			v[id] = "error"
		case f[0] == "FAIL":
			v[id] = "fail"
		}
	}
	return v
}

// profile grades n new submissions with kurs under `perf record` (which
// follows kurs's children) and prints the processor time by program, and
// the wall time per submission.
func (b *bench) profile(n int) {
	if _, err := exec.LookPath("perf"); err != nil {
		log.Fatal("-profile needs perf (Debian: linux-perf)")
	}
	data := filepath.Join(b.work, "perf.data")
	s := b.generate(fmt.Sprintf("profile-n%d", n), n)
	before := load()
	sm := b.kursGrade(s, []string{"perf", "record", "-q", "-g", "-F", "999", "-o", data, "--"})
	fmt.Printf("kurs grade --submissions DIR -j %d of %d submissions under perf record -F 999: wall %.1f s (%.3f s per submission), CPU %.1f s (%.3f s per submission), %d/%d verdicts right, load %s, %s\n\n",
		b.jobs, n, sm.wall.Seconds(), sm.wall.Seconds()/float64(n), sm.cpu.Seconds(), sm.cpu.Seconds()/float64(n), sm.right, sm.total, before, load())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "perf", "report", "-i", data, "--no-children", "-g", "none", "--sort", "comm,dso", "--stdio", "-q").Output()
	if err != nil {
		log.Fatalf("perf report: %v", err)
	}
	// Each line: the share, the program (perf's comm) and where in it
	// (its own code, a library, or the kernel on its behalf).
	type part struct{ all, kernel float64 }
	parts := map[string]*part{}
	var kernel float64
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || !strings.HasSuffix(f[0], "%") {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
		if err != nil {
			continue
		}
		comm := f[1]
		if parts[comm] == nil {
			parts[comm] = &part{}
		}
		parts[comm].all += pct
		if f[len(f)-1] == "[kernel.kallsyms]" {
			parts[comm].kernel += pct
			kernel += pct
		}
	}
	comms := make([]string, 0, len(parts))
	for c := range parts {
		comms = append(comms, c)
	}
	slices.SortFunc(comms, func(a, b string) int { return cmp.Compare(parts[b].all, parts[a].all) })
	fmt.Println("Processor time by program (perf's comm: compile and link are the Go tools, exe the launchers (kurs started again), kurs the grader itself, kurs-learner the learner's programs; a judge is named after its exercise), each with the kernel's time on its behalf:")
	fmt.Println()
	fmt.Println("| program | share | of which in the kernel | CPU s per submission |")
	fmt.Println("|---|---|---|---|")
	per := sm.cpu.Seconds() / float64(n) / 100
	for _, c := range comms {
		if p := parts[c]; p.all >= 0.5 {
			fmt.Printf("| %s | %.1f %% | %.1f %% | %.3f |\n", c, p.all, p.kernel, p.all*per)
		}
	}
	fmt.Printf("\nIn the kernel, all programs together: %.1f %%.\n", kernel)
}

// writeReference writes the reference package of exercise id into dir:
// its solution's files, or for a quiz, whose right answers are data in
// exercise.json, a file that holds them as the learner's would.
func writeReference(dir, id string) error {
	sol := filepath.Join("exercises", id, "solution")
	if _, err := os.Stat(sol); err == nil {
		return os.CopyFS(dir, onlyGo(sol))
	}
	data, err := os.ReadFile(filepath.Join("exercises", id, "exercise.json"))
	if err != nil {
		return err
	}
	var meta struct {
		Answers []string `json:"answers"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return err
	}
	quoted := make([]string, len(meta.Answers))
	for i, a := range meta.Answers {
		quoted[i] = strconv.Quote(a)
	}
	src := fmt.Sprintf("package %s\n\nvar Answer = [%d]string{%s}\n", id, len(quoted), strings.Join(quoted, ", "))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, id+".go"), []byte(src), 0o644)
}

// onlyGo returns the .go files of dir as a file system.
func onlyGo(dir string) fs.FS {
	files := fstest.MapFS{}
	matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
	check(err)
	for _, m := range matches {
		data, err := os.ReadFile(m)
		check(err)
		files[filepath.Base(m)] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return files
}

// load returns the one-minute load average where the system tells it: on
// a shared machine, other work takes cores from both sides.
func load() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	avg, _, _ := strings.Cut(string(data), " ")
	return avg
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
