package explain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/harness"
)

// concurrency returns one line that says how the stress tests of an
// exercise used from several goroutines ran: with the race detector or
// without it, and then why (see checker.Result.RaceSkipped): only the
// reason that applies. It returns "" for other exercises and when no test
// ran.
func concurrency(p *i18n.Printer, res *checker.Result) string {
	switch res.Concurrency {
	case checker.ConcurrencyRace:
		return p.T("result.concurrency_race", "Goroutines", harness.StressGoroutines)
	case checker.ConcurrencyStress:
		key := "result.concurrency_stress"
		switch res.RaceSkipped {
		case checker.RaceSkippedFailing, checker.RaceSkippedNoCC, checker.RaceSkippedPlatform, checker.RaceSkippedBuild, checker.RaceSkippedLimit:
			key += "_" + res.RaceSkipped
		}
		return p.T(key, "Goroutines", harness.StressGoroutines)
	}
	return ""
}

// ConcurrencyFor is concurrency for aud: a Student, who cannot change how
// the grader runs, is not told why the race detector did not run.
func ConcurrencyFor(p *i18n.Printer, res *checker.Result, aud Audience) string {
	if aud == Student && res.Concurrency == checker.ConcurrencyStress {
		return p.T("student.result.concurrency_stress", "Goroutines", harness.StressGoroutines)
	}
	return concurrency(p, res)
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

// raceSeparator opens and closes each report of the race detector.
const raceSeparator = "=================="

// distinctRaces keeps, of the race detector's reports in out, the first
// for each pair of functions that raced, and says how many it left out: a
// pool without a lock makes the detector report the same two functions
// again and again, and the repeats bury the line the learner needs.
// Everything else in out stays, in its order.
func distinctRaces(out string) (string, int) {
	lines := strings.Split(out, "\n")
	var kept []string
	seen := map[string]bool{}
	omitted := 0
	for i := 0; i < len(lines); i++ {
		if lines[i] != raceSeparator || i+1 >= len(lines) || lines[i+1] != "WARNING: DATA RACE" {
			kept = append(kept, lines[i])
			continue
		}
		end := i + 2
		for end < len(lines) && lines[end] != raceSeparator {
			end++
		}
		if end == len(lines) {
			// A report cut off before its end stays whole.
			kept = append(kept, lines[i:]...)
			break
		}
		block := lines[i : end+1]
		if key := raceKey(block); key == "" || !seen[key] {
			seen[key] = true
			kept = append(kept, block...)
		} else {
			omitted++
		}
		i = end
	}
	return strings.Join(kept, "\n"), omitted
}

// raceKey names the functions of a race report's accesses, each the
// function on the line after "Read at …"/"Previous write at …", in an
// order that makes a race of f with g the same as one of g with f.
func raceKey(block []string) string {
	var fns []string
	for k := 0; k+1 < len(block); k++ {
		if l := block[k]; l != "" && !strings.HasPrefix(l, " ") && strings.Contains(l, " at 0x") {
			fns = append(fns, strings.TrimSpace(block[k+1]))
		}
	}
	slices.Sort(fns)
	return strings.Join(fns, "\n")
}
