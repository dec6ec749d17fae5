package report

import (
	"fmt"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/harness"
)

// Concurrency returns one line that says how the stress tests of an
// exercise used from several goroutines ran: with the race detector or
// without it, and then why (see checker.Result.RaceSkipped): only the
// reason that applies. It returns "" for other exercises and when no test
// ran.
func Concurrency(p *i18n.Printer, res *checker.Result) string {
	switch res.Concurrency {
	case checker.ConcurrencyRace:
		return p.T("result.concurrency_race", "Goroutines", harness.StressGoroutines)
	case checker.ConcurrencyStress:
		key := "result.concurrency_stress"
		switch res.RaceSkipped {
		case checker.RaceSkippedFailing, checker.RaceSkippedNoCC, checker.RaceSkippedPlatform, checker.RaceSkippedBuild:
			key += "_" + res.RaceSkipped
		}
		return p.T(key, "Goroutines", harness.StressGoroutines)
	}
	return ""
}

// ConcurrencyFor is Concurrency for aud: a Student, who cannot change how
// the grader runs, is not told why the race detector did not run.
func ConcurrencyFor(p *i18n.Printer, res *checker.Result, aud Audience) string {
	if aud == Student && res.Concurrency == checker.ConcurrencyStress {
		return p.T("student.result.concurrency_stress", "Goroutines", harness.StressGoroutines)
	}
	return Concurrency(p, res)
}

// maxRaceLines bounds the lines raceLines returns: the first races
// already say where the learner's code races; the race detector's whole
// report is in the output.
const maxRaceLines = 2

// raceLines returns one line for each of the first data races in res: the learner's
// functions that made its two accesses, each with its file and line, as
// the race detector reported them ("Data race: (*Pool).TryAcquire at
// bulkheadpool/bulkheadpool.go:17 writes, (*Pool).InUse at …:31 reads").
func raceLines(p *i18n.Printer, res *checker.Result) []string {
	var out []string
	for _, r := range res.Races {
		var accesses []string
		for _, a := range r.Accesses {
			if len(a.Frames) == 0 {
				continue
			}
			f := a.Frames[0]
			key := "result.race_read"
			if a.Write {
				key = "result.race_write"
			}
			accesses = append(accesses, p.T(key, "Function", f.Function, "At", fmt.Sprintf("%s:%d", f.File, f.Line)))
		}
		if len(accesses) > 0 {
			out = append(out, p.T("result.race", "Accesses", strings.Join(accesses, p.T("result.race_and"))))
		}
		if len(out) == maxRaceLines {
			break
		}
	}
	return out
}
