package checker

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kurs-course/kurs/internal/course"
)

// A pool whose TryAcquire and Release hold a mutex but whose InUse reads
// without it: the counts stay right, so the stress passes; only the race
// detector sees the data race.
const racyInUse = `package bulkheadpool

import "sync"

type Pool struct {
	mu          sync.Mutex
	size, inUse int
}

func New(size int) *Pool { return &Pool{size: max(size, 0)} }

func (p *Pool) TryAcquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse >= p.size {
		return false
	}
	p.inUse++
	return true
}

func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse > 0 {
		p.inUse--
	}
}

func (p *Pool) InUse() int { return p.inUse }
`

func checkBulkhead(t *testing.T, src string) *Result {
	t.Helper()
	c, err := course.Load(os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := c.Exercise("bulkheadpool")
	if !ok || !ex.Concurrent {
		t.Fatal("bulkheadpool is not a concurrent exercise")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bulkheadpool.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := (&Checker{TempDir: t.TempDir()}).Check(context.Background(), ex, dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRaceDetector checks a data race that keeps every count right: with
// a C compiler the race-enabled build fails it, confined like every
// learner's program, with the detector's report in the output; without
// one the stress alone passes it, and the result says so.
func TestRaceDetector(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the learner's program twice")
	}
	res := checkBulkhead(t, racyInUse)
	if !raceSupported() {
		if res.Status != Pass || res.Concurrency != ConcurrencyStress {
			t.Fatalf("without a C compiler: %s, concurrency %q; want pass, %q", res.Status, res.Concurrency, ConcurrencyStress)
		}
		return
	}
	if res.Concurrency != ConcurrencyRace {
		t.Fatalf("concurrency %q, want %q (did the race build fail?)", res.Concurrency, ConcurrencyRace)
	}
	if res.Status != Fail || res.Score != 0 {
		t.Fatalf("status %s, score %d; want fail, 0", res.Status, res.Score)
	}
	f := res.FirstFailure()
	if f == nil || f.Failure == nil || !strings.HasPrefix(f.Name, "concurrent/") || !strings.HasPrefix(f.Failure.Call, "races(") {
		t.Fatalf("first failure %+v, want a concurrent/ test failing on races(…)", f)
	}
	for _, want := range []string{"WARNING: DATA RACE", "bulkheadpool/bulkheadpool.go:", "(*Pool).InUse()"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	for _, unwanted := range []string{"internal/harness", "reading executable name", module} {
		if strings.Contains(res.Output, unwanted) {
			t.Errorf("output holds %q:\n%s", unwanted, res.Output)
		}
	}
	if !racesIn(res, "(*Pool).InUse", "bulkheadpool/bulkheadpool.go", 30) {
		t.Errorf("Races %+v name no read in (*Pool).InUse at bulkheadpool/bulkheadpool.go:30", res.Races)
	}
}

// racesIn reports whether res.Races holds an access whose innermost frame
// is fn at file:line.
func racesIn(res *Result, fn, file string, line int) bool {
	for _, r := range res.Races {
		for _, a := range r.Accesses {
			if len(a.Frames) > 0 && a.Frames[0] == (RaceFrame{Function: fn, File: file, Line: line}) {
				return true
			}
		}
	}
	return false
}

// A pool with no lock at all: the stress tests usually fail on their own,
// and the race detector's report says why.
const unlockedPool = `package bulkheadpool

type Pool struct{ size, inUse int }

func New(size int) *Pool { return &Pool{size: max(size, 0)} }

func (p *Pool) TryAcquire() bool {
	if p.inUse >= p.size {
		return false
	}
	p.inUse++
	return true
}

func (p *Pool) Release() {
	if p.inUse > 0 {
		p.inUse--
	}
}

func (p *Pool) InUse() int { return p.inUse }
`

// TestRaceReportKept checks that the race detector's report, and the
// races it names, are kept whatever the stress tests did without the
// detector: for a pool with no lock it is the best explanation there is.
func TestRaceReportKept(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the learner's program twice")
	}
	if !raceSupported() {
		t.Skip("no race detector here")
	}
	res := checkBulkhead(t, unlockedPool)
	if res.Status != Fail || res.Concurrency != ConcurrencyRace {
		t.Fatalf("status %s, concurrency %q; want fail, %q", res.Status, res.Concurrency, ConcurrencyRace)
	}
	if !strings.Contains(res.Output, "WARNING: DATA RACE") || !strings.Contains(res.Output, "bulkheadpool/bulkheadpool.go:") {
		t.Errorf("output lacks the race report:\n%s", res.Output)
	}
	if len(res.Races) == 0 {
		t.Fatal("no races kept")
	}
	write := false
	for _, r := range res.Races {
		for _, a := range r.Accesses {
			if len(a.Frames) == 0 {
				continue
			}
			f := a.Frames[0]
			if f.File != "bulkheadpool/bulkheadpool.go" || f.Line < 7 || f.Line > 21 || !strings.HasPrefix(f.Function, "(*Pool).") {
				t.Errorf("race access at %+v, want in a method of bulkheadpool/bulkheadpool.go", f)
			}
			write = write || a.Write
		}
	}
	if !write {
		t.Errorf("no write among the races %+v", res.Races)
	}
	// The detector reports a pair again when it catches its accesses the
	// other way round; Races keeps it once.
	seen := map[string]bool{}
	for _, r := range res.Races {
		if sig := raceSig(r); seen[sig] {
			t.Errorf("race %+v kept twice in %+v", r, res.Races)
		}
		seen[raceSig(r)] = true
	}
}

// TestParseRacesEitherOrder reads, from captured race detector output,
// one race caught both ways round: a read of TryAcquire after Release's
// write, then Release's write after that read. It is one race.
func TestParseRacesEitherOrder(t *testing.T) {
	read := func(caught string) string {
		return caught + " at 0x00c0000180d8 by goroutine 12:\n  github.com/kurs-course/kurs/bulkheadpool.(*Pool).TryAcquire()\n" +
			"      github.com/kurs-course/kurs/bulkheadpool/bulkheadpool.go:18 +0x39\n  main.(*stress).Work()\n" +
			"      github.com/kurs-course/kurs/internal/run/bulkheadpool/driver.go:152 +0xfc\n"
	}
	write := func(caught string) string {
		return caught + " at 0x00c0000180d8 by goroutine 9:\n  github.com/kurs-course/kurs/bulkheadpool.(*Pool).Release()\n" +
			"      github.com/kurs-course/kurs/bulkheadpool/bulkheadpool.go:28 +0x64\n  main.(*stress).Work()\n" +
			"      github.com/kurs-course/kurs/internal/run/bulkheadpool/driver.go:170 +0x321\n"
	}
	block := func(a, b string) string {
		return "==================\nWARNING: DATA RACE\n" + a + "\n" + b + "\n==================\n"
	}
	out := block(read("Read"), write("Previous write")) + block(write("Write"), read("Previous read")) + "Found 2 data race(s)\n"
	races := parseRaces(out, "bulkheadpool")
	want := []Race{{Accesses: []RaceAccess{
		{Frames: []RaceFrame{{Function: "(*Pool).TryAcquire", File: "bulkheadpool/bulkheadpool.go", Line: 18}}},
		{Write: true, Frames: []RaceFrame{{Function: "(*Pool).Release", File: "bulkheadpool/bulkheadpool.go", Line: 28}}},
	}}}
	if !reflect.DeepEqual(races, want) {
		t.Errorf("parseRaces = %+v, want %+v", races, want)
	}
}

// TestRaceReport keeps the learner's and the test program's frames of a
// race report and drops the harness's.
func TestRaceReport(t *testing.T) {
	out := `printed by the learner
==1==WARNING: reading executable name failed with errno 1, some stack frames may not be symbolized
==================
WARNING: DATA RACE
Read at 0x00c00001e088 by goroutine 35:
  github.com/kurs-course/kurs/bulkheadpool.(*Pool).InUse()
      github.com/kurs-course/kurs/bulkheadpool/bulkheadpool.go:31 +0x2c
  main.(*stress).Work()
      github.com/kurs-course/kurs/internal/run/driver.go:154 +0x14a
  github.com/kurs-course/kurs/internal/harness.Catch()
      github.com/kurs-course/kurs/internal/harness/trace.go:239 +0x116

Goroutine 35 (running) created at:
  github.com/kurs-course/kurs/internal/harness.Stress.stress()
      github.com/kurs-course/kurs/internal/harness/stress.go:224 +0x49c

==================
`
	want := `==================
WARNING: DATA RACE
Read at 0x00c00001e088 by goroutine 35:
  bulkheadpool.(*Pool).InUse()
      bulkheadpool/bulkheadpool.go:31 +0x2c
  main.(*stress).Work()
      internal/run/driver.go:154 +0x14a

==================
`
	if got := raceReport(out); got != want {
		t.Errorf("raceReport:\n%s\nwant:\n%s", got, want)
	}
	races := parseRaces(out, "bulkheadpool")
	wantRaces := []Race{{Accesses: []RaceAccess{{Frames: []RaceFrame{{Function: "(*Pool).InUse", File: "bulkheadpool/bulkheadpool.go", Line: 31}}}}}}
	if !reflect.DeepEqual(races, wantRaces) {
		t.Errorf("parseRaces = %+v, want %+v", races, wantRaces)
	}
	if got := raceReport("no race here\n"); got != "" {
		t.Errorf("raceReport without a race = %q", got)
	}
}
