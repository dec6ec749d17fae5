package explain

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

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
// functions that made its two accesses, each with its file and line
// ("Data race: (*Pool).TryAcquire writes at
// bulkheadpool/bulkheadpool.go:21, while (*Pool).InUse reads at …:31").
// Which access the detector caught first is up to the scheduler, so the
// lines follow orderedRaces, not the detector: the same races give the
// same lines on every run.
func raceLines(p *i18n.Printer, res *checker.Result) []string {
	var out []string
	for _, r := range orderedRaces(res.Races) {
		if len(r) == 2 && r[0].Frames[0].Function == r[1].Frames[0].Function {
			out = append(out, selfRaceLine(p, r[0], r[1]))
			if len(out) == maxRaceLines {
				break
			}
			continue
		}
		var accesses []string
		for i, a := range r {
			f := a.Frames[0]
			key := "result.race_read"
			if a.Write {
				key = "result.race_write"
			}
			if i > 0 {
				// After "while": German puts the verb last.
				key += "_while"
			}
			accesses = append(accesses, p.T(key, "Function", f.Function, "At", fmt.Sprintf("%s:%d", f.File, f.Line)))
		}
		out = append(out, p.T("result.race", "Accesses", strings.Join(accesses, p.T("result.race_and"))))
		if len(out) == maxRaceLines {
			break
		}
	}
	return out
}

// selfRaceLine returns the line of a race between two calls of one
// function, a and b in orderedRaces' order (a is a write): naming the
// function twice ("Release writes at :28, while Release writes at :28")
// reads as if it raced with itself. Two writes at one place are said once.
func selfRaceLine(p *i18n.Printer, a, b checker.RaceAccess) string {
	at := func(f checker.RaceFrame) string { return fmt.Sprintf("%s:%d", f.File, f.Line) }
	fa, fb := a.Frames[0], b.Frames[0]
	if b.Write && at(fa) == at(fb) {
		return p.T("result.race_self_write", "Function", fa.Function, "At", at(fa))
	}
	other := "result.race_self_second_read"
	if b.Write {
		other = "result.race_self_second_write"
	}
	return p.T("result.race_self", "Function", fa.Function, "At", at(fa), "Other", p.T(other, "At", at(fb)))
}

// orderedRaces returns the accesses in the learner's code of each race in
// races, in one order whatever the detector saw first: a write before a
// read (a race always has a write, the access that needs the lock), then
// by file, line and function. The races come in that order too, each
// once: the detector reports f racing with g and g racing with f apart.
// A race with no access in the learner's code is left out.
func orderedRaces(races []checker.Race) [][]checker.RaceAccess {
	var out [][]checker.RaceAccess
	for _, r := range races {
		var as []checker.RaceAccess
		for _, a := range r.Accesses {
			if len(a.Frames) > 0 {
				as = append(as, a)
			}
		}
		if len(as) == 0 {
			continue
		}
		slices.SortFunc(as, compareAccess)
		out = append(out, as)
	}
	slices.SortFunc(out, func(a, b []checker.RaceAccess) int { return slices.CompareFunc(a, b, compareAccess) })
	return slices.CompactFunc(out, func(a, b []checker.RaceAccess) bool {
		return slices.CompareFunc(a, b, compareAccess) == 0
	})
}

// compareAccess orders two accesses by their innermost frame in the
// learner's code: a write first, then by file, line and function. The
// rule is compareReportAccess's, which orders the raw reports alike.
func compareAccess(a, b checker.RaceAccess) int {
	return compareReportAccess(frameAccess(a), frameAccess(b))
}

// frameAccess is a parsed access as compareReportAccess orders it.
func frameAccess(a checker.RaceAccess) reportAccess {
	f := a.Frames[0]
	return reportAccess{write: a.Write, file: f.File, function: f.Function, line: f.Line}
}

// raceSeparator opens and closes each report of the race detector.
const raceSeparator = "=================="

// distinctRaces keeps, of the race detector's reports in out, one for
// each pair of functions that raced, and says how many it left out: a
// pool without a lock makes the detector report the same two functions
// again and again, and the repeats bury the line the learner needs. Of a
// pair's reports it keeps the one orderedRaces puts first (a write first,
// then by file and line), and the kept reports follow that order, where
// the first report was: the one-line summaries above them (raceLines)
// then name the lines the reports show, whichever the detector happened
// to see first. Everything else in out stays, in its order.
func distinctRaces(out string) (string, int) {
	lines := strings.Split(out, "\n")
	var kept []string
	type report struct {
		block []string
		rank  []reportAccess
	}
	best := map[string]int{} // key → index in reports
	var reports []report
	at := -1 // where in kept the reports go
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
		if at < 0 {
			at = len(kept)
		}
		block := lines[i : end+1]
		r := report{block: block, rank: reportAccesses(block)}
		key := raceKey(block)
		switch j, ok := best[key]; {
		case key == "" || !ok:
			if key != "" {
				best[key] = len(reports)
			}
			reports = append(reports, r)
		default:
			omitted++
			if compareReports(r.rank, reports[j].rank) < 0 {
				reports[j] = r
			}
		}
		i = end
	}
	if at < 0 {
		return strings.Join(kept, "\n"), omitted
	}
	slices.SortStableFunc(reports, func(a, b report) int { return compareReports(a.rank, b.rank) })
	var blocks []string
	for _, r := range reports {
		for _, l := range r.block {
			blocks = append(blocks, withoutAddresses(l))
		}
	}
	kept = slices.Insert(kept, at, blocks...)
	return strings.Join(kept, "\n"), omitted
}

// reportAccess is one access of a race report as compareAccess orders
// them: whether it writes, and its innermost frame.
type reportAccess struct {
	write          bool
	file, function string
	line           int
}

// reportAccesses returns the accesses of a race report, each with the
// frame below its "Read at …"/"Previous write at …" line, in
// compareAccess's order.
func reportAccesses(block []string) []reportAccess {
	var as []reportAccess
	for k := 0; k+2 < len(block); k++ {
		l := block[k]
		if l == "" || strings.HasPrefix(l, " ") || !strings.Contains(l, " at 0x") {
			continue
		}
		loc := strings.Fields(block[k+2])
		if len(loc) == 0 {
			continue
		}
		file, line, _ := strings.Cut(loc[0], ":")
		n, _ := strconv.Atoi(line)
		as = append(as, reportAccess{
			write:    strings.HasPrefix(strings.ToLower(strings.TrimPrefix(l, "Previous ")), "write"),
			function: strings.TrimSpace(block[k+1]),
			file:     file,
			line:     n,
		})
	}
	slices.SortFunc(as, compareReportAccess)
	return as
}

// compareReportAccess orders two accesses: a write first, then by file,
// line and function. orderedRaces (through compareAccess) and the
// excerpt of raw reports (distinctRaces) both order by it, so that each
// summary line has its report below it.
func compareReportAccess(a, b reportAccess) int {
	switch {
	case a.write && !b.write:
		return -1
	case !a.write && b.write:
		return 1
	}
	return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line), strings.Compare(a.function, b.function))
}

// compareReports orders two reports as orderedRaces orders races.
func compareReports(a, b []reportAccess) int {
	return slices.CompareFunc(a, b, compareReportAccess)
}

// A race report's addresses: the memory accessed ("Read at 0xc000012345
// by goroutine 7:") and each frame's offset in its function
// ("counter.go:12 +0x3c"). Compiled on first use, not at every start of
// kurs (TestNoHeavyInit).
var (
	accessAddress = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\S.*?) at 0x[0-9a-f]+( by .*)$`) })
	frameOffset   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s+\S+:\d+) \+0x[0-9a-f]+$`) })
)

// withoutAddresses returns a line of a race report without its
// addresses, which differ from run to run and tell a learner nothing:
// two runs that found the same race then show the same report. The
// result's Output keeps the report as the detector wrote it.
func withoutAddresses(l string) string {
	if m := accessAddress().FindStringSubmatch(l); m != nil {
		return m[1] + m[2]
	}
	if m := frameOffset().FindStringSubmatch(l); m != nil {
		return m[1]
	}
	return l
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
