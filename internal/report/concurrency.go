package report

import (
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
