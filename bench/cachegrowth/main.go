// Command cachegrowth measures how much kurs's cache grows when kurs grade
// grades distinct submissions: issue 33 asks that 1,000 of them add less
// than 50 MB, where they once added 2.29 GB of kept objects that no later
// build could use.
//
// It builds kurs, gives it a cache of its own (KURS_CACHE in a new
// temporary folder), warms it with one untimed batch of two submissions
// (kits, judges, the standard library built for the race detector), then
// grades -n submissions with kurs grade -j and measures every folder of
// the cache before and after, as du does (allocated blocks) and by the
// files' sizes. Every submission is each exercise's reference with an
// exported constant of its own, so that no two share a build, down to the
// link and the race detector's build of bulkheadpool; every one must pass.
//
// Run it from the repository's root; it is not part of make test (the
// cheaper TestGradeRunLeavesNoGoBuildEntries in internal/build and
// cache.txtar are):
//
//	go run ./bench/cachegrowth                  # 1,000 submissions of circuitbreaker, tokenbucket and bulkheadpool
//	go run ./bench/cachegrowth -n 100 -exercises circuitbreaker
package main

import (
	"bytes"
	"encoding/json"
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
	"syscall"
	"time"

	"github.com/kurs-course/kurs/bench/internal/benchutil"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("bench/cachegrowth: ")
	n := flag.Int("n", 1000, "submissions to grade")
	jobs := flag.Int("j", 2, "kurs grade -j")
	list := flag.String("exercises", "circuitbreaker,tokenbucket,bulkheadpool", "the exercises of each submission, comma-separated")
	flag.Parse()
	if _, err := os.Stat("exercises"); err != nil {
		log.Fatal("run me from the repository root: go run ./bench/cachegrowth")
	}
	ids := strings.Split(*list, ",")
	work, err := os.MkdirTemp("", "kurs-bench-cachegrowth-")
	check(err)
	defer os.RemoveAll(work)
	kurs, err := benchutil.BuildKurs(work)
	check(err)
	cache := filepath.Join(work, "cache")
	check(os.Mkdir(cache, 0o700))

	grade := func(name string, count int) (time.Duration, bool) {
		dir := generate(work, name, ids, count)
		out := filepath.Join(work, name+".json")
		args := append([]string{"grade", "--submissions", dir, "--format", "json", "--output", out, "-j", strconv.Itoa(*jobs)}, ids...)
		cmd := exec.Command(kurs, args...)
		cmd.Env = append(os.Environ(), "KURS_CACHE="+cache)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			log.Fatalf("kurs grade: %v\n%s", err, stderr.Bytes())
		}
		took := time.Since(start)
		raced := passed(out, count*len(ids))
		check(os.RemoveAll(dir))
		return took, raced
	}
	// A race build that ran out of time on a busy machine while it built
	// the standard library leaves the rest of that work to the measured
	// run: warm until the race detector ran.
	for round := 0; ; round++ {
		if _, raced := grade(fmt.Sprintf("warm%d", round), 2); raced || round == 4 {
			break
		}
		log.Print("the race detector did not run while warming; warming again")
	}
	before := measure(cache)
	took, _ := grade("graded", *n)
	after := measure(cache)

	fmt.Printf("kurs grade -j %d of %d distinct submissions (%s, each passing), on a warm cache of its own; %d CPUs, %s; %s.\n\n",
		*jobs, *n, strings.Join(ids, ", "), runtime.NumCPU(), runtime.Version(), took.Round(time.Second))
	fmt.Println("| folder | before (du) | after (du) | growth (du) | growth (file sizes) |")
	fmt.Println("|---|---|---|---|---|")
	var names []string
	for name := range after {
		names = append(names, name)
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var total, totalBytes int64
	for _, name := range names {
		b, a := before[name], after[name]
		fmt.Printf("| %s | %s | %s | %s | %s |\n", name, mib(b.disk), mib(a.disk), mib(a.disk-b.disk), mib(a.bytes-b.bytes))
		total += a.disk - b.disk
		totalBytes += a.bytes - b.bytes
	}
	fmt.Printf("| all | | | %s | %s |\n\n", mib(total), mib(totalBytes))
	benchutil.Summary("cachegrowth: kurs grade of %d distinct submissions (%s) grew the cache by %s (du), %.1f KiB a submission (aim: under 50 MB for 1,000)",
		*n, strings.Join(ids, ", "), mib(total), float64(total)/1024/float64(*n))
}

// usage is what a folder holds: allocated blocks, as du counts them, and
// the files' sizes.
type usage struct{ disk, bytes int64 }

// measure returns the usage of each entry of the cache, following no
// link (go-build may be one).
func measure(cache string) map[string]usage {
	m := map[string]usage{}
	entries, err := os.ReadDir(cache)
	check(err)
	for _, e := range entries {
		var u usage
		_ = filepath.WalkDir(filepath.Join(cache, e.Name()), func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				u.disk += st.Blocks * 512
			}
			if info.Mode().IsRegular() {
				u.bytes += info.Size()
			}
			return nil
		})
		m[e.Name()] = u
	}
	return m
}

// generate writes count submissions of the exercises ids into a new
// folder under work and returns it: each the reference (for a quiz, the
// corpus's right answers) with an exported constant of its own.
func generate(work, name string, ids []string, count int) string {
	dir := filepath.Join(work, name)
	for i := range count {
		for _, id := range ids {
			files, err := filepath.Glob(filepath.Join("exercises", id, "solution", "*.go"))
			check(err)
			if len(files) == 0 { // a quiz: the corpus's right answers
				files, err = filepath.Glob(filepath.Join("checker", "testdata", "submissions", "all-pass", id, "*.go"))
				check(err)
			}
			if len(files) == 0 {
				log.Fatalf("exercise %s has no solution", id)
			}
			dst := filepath.Join(dir, fmt.Sprintf("student%04d", i), id)
			check(os.MkdirAll(dst, 0o755))
			for k, f := range files {
				data, err := os.ReadFile(f)
				check(err)
				if k == 0 {
					data = fmt.Appendf(data, "\n// Added by bench/cachegrowth.\nconst BenchSubmission = %q\n", fmt.Sprintf("%s %d", name, i))
				}
				check(os.WriteFile(filepath.Join(dst, filepath.Base(f)), data, 0o644))
			}
		}
	}
	return dir
}

// passed checks that kurs grade's JSON report has want exercises, all
// passed, and reports whether every concurrent one ran under the race
// detector.
func passed(report string, want int) (raced bool) {
	data, err := os.ReadFile(report)
	check(err)
	var doc struct {
		Submissions []struct {
			ID        string
			Exercises []struct{ ID, Status, Concurrency string }
		}
	}
	check(json.Unmarshal(data, &doc))
	got, raced := 0, true
	for _, s := range doc.Submissions {
		for _, ex := range s.Exercises {
			if ex.Status != "pass" {
				log.Fatalf("%s/%s: %s, want pass", s.ID, ex.ID, ex.Status)
			}
			if ex.Concurrency != "" && ex.Concurrency != "race+stress" {
				raced = false
			}
			got++
		}
	}
	if got != want {
		log.Fatalf("%d exercises graded, want %d", got, want)
	}
	return raced
}

// mib formats a number of bytes in MiB.
func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
