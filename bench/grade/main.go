// Command grade measures batch grading: it makes N synthetic submissions
// (a mix of right, wrong and broken exercises, taken from the checker's
// corpus), grades them with `kurs grade --submissions`, and, in the same
// run, with the naive baseline: one `go test` process per submission and
// exercise, run in sequence, with hidden tests written for go test
// (testdata/*_test.go). It reports submissions per minute for both, the
// ratio, and the cost per submission as N grows.
//
// Run it by hand from the repository root; it is not part of `make test`:
//
//	go run ./bench/grade                  # N = 10 and 50, about 2 minutes
//	go run ./bench/grade -n 10,50,200     # about 10 minutes on 2 cores
//
// Every learner package gets an exported constant naming its submission
// and the run, so no two submissions share a build, not even with an
// earlier run: as with real students, the learner's package, the test
// program that imports it and the link are done anew each time, for kurs
// and for the baseline alike. Both
// start from a warm build cache (the standard library, kurs's harness, the
// testing package), as on a grading machine after the first run.
//
// Both sides' verdicts are checked against the corpus's want.json, so a
// fast but wrong grader would show.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
)

// exercises are the course's exercises and the corpus's prefix for each.
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
	sizes := flag.String("n", "10,50", "numbers of submissions to measure, comma-separated")
	jobs := flag.Int("j", runtime.NumCPU(), "kurs grade -j")
	timeout := flag.Duration("timeout", 10*time.Second, "time limit per exercise, for kurs and go test alike")
	keep := flag.Bool("keep", false, "keep the generated submissions and print where they are")
	withBaseline := flag.Bool("baseline", true, "also run the baseline (turn off to compare kurs settings, e.g. -j, alone)")
	flag.Parse()

	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			log.Fatalf("-n: %q is not a number of submissions", s)
		}
		ns = append(ns, n)
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

	kurs, err := benchutil.BuildKurs(work)
	check(err)
	variants := corpus()
	b := &bench{kurs: kurs, work: work, run: time.Now().UnixNano(), jobs: *jobs, timeout: *timeout, variants: variants}

	// Warm both sides' caches with a few submissions, untimed.
	warm := b.generate("warm", 3)
	b.kursGrade(warm)
	b.baseline(warm)

	fmt.Printf("%d CPUs, %s %s/%s; kurs grade -j %d; time limit %s per exercise\n\n",
		runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH, *jobs, *timeout)
	fmt.Println("| N | kurs | baseline | kurs per minute | baseline per minute | speed-up | kurs s per submission | baseline s per submission | verdicts right (kurs, baseline) | load before, after |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range ns {
		set := b.generate(fmt.Sprintf("n%d", n), n)
		before := load()
		kd, kRight := b.kursGrade(set)
		bd, bRight := time.Duration(0), 0
		if *withBaseline {
			bd, bRight = b.baseline(set)
		}
		total := n * len(exercises)
		perMin := func(d time.Duration) float64 { return float64(n) / d.Minutes() }
		fmt.Printf("| %d | %.1f s | %.1f s | %.0f | %.0f | %.2f× | %.3f | %.3f | %d/%d, %d/%d | %s, %s |\n",
			n, kd.Seconds(), bd.Seconds(), perMin(kd), perMin(bd), bd.Seconds()/kd.Seconds(),
			kd.Seconds()/float64(n), bd.Seconds()/float64(n), kRight, total, bRight, total, before, load())
		if !*keep {
			os.RemoveAll(set.dir)
		}
	}
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
	s := &set{dir: filepath.Join(b.work, name), want: map[string]string{}}
	for i := range n {
		id := fmt.Sprintf("student%03d", i)
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

// kursGrade grades the set with kurs and returns the time it took and how
// many verdicts were right.
func (b *bench) kursGrade(s *set) (time.Duration, int) {
	out := filepath.Join(b.work, "kurs.json")
	start := time.Now()
	args := []string{"grade", "--submissions", s.dir, "--format", "json", "--output", out,
		"-j", strconv.Itoa(b.jobs), "--timeout", b.timeout.String()}
	for _, ex := range exercises {
		args = append(args, ex.id) // the course has more; the mix has these
	}
	cmd := exec.Command(b.kurs, args...)
	cmd.Stderr = os.Stderr
	err := cmd.Run()
	elapsed := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		log.Fatalf("kurs grade: %v", err)
	}
	data, err := os.ReadFile(out)
	check(err)
	var doc struct {
		Submissions []struct {
			ID        string
			Exercises []struct{ ID, Status string }
		}
	}
	check(json.Unmarshal(data, &doc))
	right := 0
	for _, sub := range doc.Submissions {
		for _, ex := range sub.Exercises {
			if s.want[sub.ID+"/"+ex.ID] == ex.Status {
				right++
			}
		}
	}
	return elapsed, right
}

// baseline grades the set the naive way: for each submission and exercise
// in turn, a module with the learner's files, the hidden _test.go file and
// the reference, and one `go test` of it. A build failure is the verdict
// error, a failing test fail.
func (b *bench) baseline(s *set) (time.Duration, int) {
	right := 0
	start := time.Now()
	for _, id := range s.ids {
		for _, ex := range exercises {
			mod := filepath.Join(b.work, "baseline", id, ex.id)
			check(os.MkdirAll(mod, 0o755))
			check(os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module bench\n\ngo 1.22\n"), 0o644))
			check(os.CopyFS(filepath.Join(mod, ex.id), os.DirFS(filepath.Join(s.dir, id, ex.id))))
			check(writeReference(filepath.Join(mod, "reference", ex.id), ex.id))
			hidden, err := os.ReadFile(filepath.Join("bench", "grade", "testdata", ex.id+"_test.go"))
			check(err)
			check(os.WriteFile(filepath.Join(mod, ex.id, "hidden_test.go"), hidden, 0o644))

			cmd := exec.Command("go", "test", "-count=1", "-timeout", b.timeout.String(), "./"+ex.id)
			cmd.Dir = mod
			cmd.Env = benchutil.BaselineEnv()
			out, err := cmd.CombinedOutput()
			verdict := "pass"
			switch {
			case err == nil:
			case strings.Contains(string(out), "[build failed]") || strings.Contains(string(out), "[setup failed]"):
				verdict = "error"
			default:
				verdict = "fail"
			}
			if s.want[id+"/"+ex.id] == verdict {
				right++
			}
			check(os.RemoveAll(mod))
		}
	}
	return time.Since(start), right
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
// a shared machine, other work takes cores from the parallel grader first.
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
