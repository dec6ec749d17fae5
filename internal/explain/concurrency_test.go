package explain

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/harness"
)

// The line on a stress test without the race detector gives the one
// reason that applies, not every reason there could be.
func TestConcurrencyReason(t *testing.T) {
	en, de := i18n.New("en"), i18n.New("de")
	for _, c := range []struct {
		why, en, de, never string
	}{
		{checker.RaceSkippedFailing, "the race detector runs only once every other test passes", "der Race Detector läuft erst, wenn alle anderen Tests bestehen", "C compiler"},
		{checker.RaceSkippedNoCC, "which needs a C compiler; none was found", "der einen C-Compiler braucht; es wurde keiner gefunden", "every other test"},
		{checker.RaceSkippedPlatform, "which kurs runs only on Linux", "den kurs nur unter Linux", "C compiler"},
		{checker.RaceSkippedBuild, "whose build failed on this system", "dessen Build auf diesem System gescheitert ist", "C compiler"},
		{checker.RaceSkippedLimit, "whose build took longer than a build of your code may take", "dessen Build länger gedauert hat, als ein Build deines Codes dauern darf", "this system"},
		{"", "16 goroutines, without the race detector.", "16 Goroutinen, ohne Race Detector.", "C compiler"},
	} {
		res := &checker.Result{Concurrency: checker.ConcurrencyStress, RaceSkipped: c.why}
		got := concurrency(en, res)
		assert.Contains(t, got, c.en, c.why)
		assert.NotContains(t, got, c.never, c.why)
		assert.Contains(t, concurrency(de, res), c.de, c.why)
	}
	assert.Equal(t, "Concurrency: checked by a stress test with 16 goroutines and by the race detector.",
		concurrency(en, &checker.Result{Concurrency: checker.ConcurrencyRace}))
}

// The race detector's reports, which the checker adds to the output of a
// failing concurrent exercise, are not headed as if the learner's code
// had printed them.
func TestRaceReportHeading(t *testing.T) {
	report := "==================\nWARNING: DATA RACE\nRead at 0x00c00001e088 by goroutine 35:\n  bulkheadpool.(*Pool).InUse()\n      bulkheadpool/bulkheadpool.go:31 +0x2c\n==================\n"
	for _, c := range []struct {
		concurrency, output, en, de string
	}{
		{checker.ConcurrencyRace, "hello\n" + report, "What your code and the race detector printed:", "Was dein Code und der Race Detector ausgegeben haben:"},
		{checker.ConcurrencyRace, "hello\n", "Your code printed:", "Dein Code hat ausgegeben:"},
		{checker.ConcurrencyStress, "hello\nWARNING: DATA RACE, says the learner\n", "Your code printed:", "Dein Code hat ausgegeben:"},
	} {
		ex, res := breakerCall()
		res.Concurrency, res.Output = c.concurrency, c.output
		for lang, want := range map[string]string{"en": c.en, "de": c.de} {
			var b strings.Builder
			require.NoError(t, WriteText(&b, i18n.New(lang), []Graded{{Exercise: ex, Result: res}}, TextOptions{}))
			assert.Contains(t, b.String(), want, "%s, %s", c.concurrency, lang)
			assert.Contains(t, b.String(), "| hello", lang)
			assert.Equal(t, want, Explain(i18n.New(lang), ex, res, Options{}).OutputTitle)
		}
	}
}

// A pool without a lock makes the race detector report the same two
// functions many times; the text shows each pair once, with its file and
// line, and says how many reports it left out.
func TestRaceReportsOncePerPair(t *testing.T) {
	race := func(first, second string, line int) string {
		return fmt.Sprintf("==================\nWARNING: DATA RACE\nRead at 0x00c00001e088 by goroutine 35:\n  bulkheadpool.(*Pool).%s()\n      bulkheadpool/bulkheadpool.go:%d +0x2c\n\nPrevious write at 0x00c00001e088 by goroutine 7:\n  bulkheadpool.(*Pool).%s()\n      bulkheadpool/bulkheadpool.go:28 +0x64\n\n==================\n", first, line, second)
	}
	ex, res := breakerCall()
	res.Concurrency = checker.ConcurrencyRace
	// TryAcquire with Release twice, once the other way round, then
	// Release with itself.
	res.Output = "hello\n" + race("TryAcquire", "Release", 18) + race("TryAcquire", "Release", 21) +
		race("Release", "TryAcquire", 27) + race("Release", "Release", 27) + "Found 4 data race(s)\n"
	for lang, omitted := range map[string]string{
		"en": "  (2 more race detector reports on the same functions as above left out.)\n",
		"de": "  (2 weitere Berichte des Race Detectors über dieselben Funktionen wie oben ausgelassen.)\n",
	} {
		var b strings.Builder
		require.NoError(t, WriteText(&b, i18n.New(lang), []Graded{{Exercise: ex, Result: res}}, TextOptions{}))
		got := b.String()
		assert.Equal(t, 2, strings.Count(got, "| WARNING: DATA RACE"), lang)
		// Without the addresses, which differ from run to run.
		assert.Contains(t, got, "|       bulkheadpool/bulkheadpool.go:18\n", lang)
		assert.Contains(t, got, "| Previous write by goroutine 7:\n", lang)
		assert.NotContains(t, got, "0x", lang)
		assert.NotContains(t, got, "bulkheadpool/bulkheadpool.go:21", lang)
		assert.Contains(t, got, "|   bulkheadpool.(*Pool).Release()\n  |       bulkheadpool/bulkheadpool.go:27", lang)
		assert.Contains(t, got, "| hello\n", lang)
		assert.Contains(t, got, "| Found 4 data race(s)\n"+omitted, lang)
	}
}

// The steps of a stress run name what they count in the reader's
// language, keeping the claim's name that the task uses and its bound.
func TestStressStepNames(t *testing.T) {
	ex, res := breakerCall()
	claim := func(c string) string { return fmt.Sprintf("%s(%d goroutines)", c, harness.StressGoroutines) }
	res.Tests[0].Failure = &harness.Failure{
		Kind: harness.Mismatch, New: []float64{1}, Step: 2, Call: claim("maxInFlight") + " ≤ 1",
		Done: []harness.Done{{Call: claim("acquired"), Got: harness.Result{Obs: "3266"}}},
		Want: harness.Result{Obs: "1"}, Got: harness.Result{Obs: "2"},
	}
	for lang, want := range map[string][]string{
		"en": {"slots taken in all (acquired)", "most callers holding a slot at once (maxInFlight) ≤ 1"},
		"de": {"belegte Plätze insgesamt (acquired)", "meiste Aufrufer zugleich mit Platz (maxInFlight) ≤ 1"},
	} {
		var b strings.Builder
		require.NoError(t, WriteText(&b, i18n.New(lang), []Graded{{Exercise: ex, Result: res}}, TextOptions{}))
		for _, w := range want {
			assert.Contains(t, b.String(), w, lang)
		}
		assert.NotContains(t, b.String(), "goroutines)", lang)
	}
}

// The race detector catches the accesses of a race in whichever order
// the goroutines ran, and reports races in the order it found them; the
// lines name each race's write first and the races in one order, so that
// two runs that found the same races read the same.
func TestRaceLinesOneOrder(t *testing.T) {
	access := func(write bool, fn string, line int) checker.RaceAccess {
		return checker.RaceAccess{Write: write, Frames: []checker.RaceFrame{{Function: fn, File: "bulkheadpool/bulkheadpool.go", Line: line}}}
	}
	readInUse, writeAcquire := access(false, "(*Pool).InUse", 41), access(true, "(*Pool).TryAcquire", 25)
	writeRelease := access(true, "(*Pool).Release", 34)
	// As two runs of the same pool caught them.
	runs := [][]checker.Race{
		{{Accesses: []checker.RaceAccess{readInUse, writeAcquire}}, {Accesses: []checker.RaceAccess{writeRelease, readInUse}}},
		{{Accesses: []checker.RaceAccess{writeRelease, readInUse}}, {Accesses: []checker.RaceAccess{writeAcquire, readInUse}},
			{Accesses: []checker.RaceAccess{readInUse, writeRelease}}},
	}
	for lang, want := range map[string][]string{
		"en": {
			"Data race: (*Pool).TryAcquire writes at bulkheadpool/bulkheadpool.go:25, while (*Pool).InUse reads at bulkheadpool/bulkheadpool.go:41",
			"Data race: (*Pool).Release writes at bulkheadpool/bulkheadpool.go:34, while (*Pool).InUse reads at bulkheadpool/bulkheadpool.go:41",
		},
		"de": {
			"Data Race: (*Pool).TryAcquire schreibt in bulkheadpool/bulkheadpool.go:25, während (*Pool).InUse in bulkheadpool/bulkheadpool.go:41 liest",
			"Data Race: (*Pool).Release schreibt in bulkheadpool/bulkheadpool.go:34, während (*Pool).InUse in bulkheadpool/bulkheadpool.go:41 liest",
		},
	} {
		for i, races := range runs {
			assert.Equal(t, want, raceLines(i18n.New(lang), &checker.Result{Races: races}), "%s, run %d", lang, i+1)
		}
	}
	// Two writes: by file and line.
	both := []checker.Race{{Accesses: []checker.RaceAccess{writeRelease, writeAcquire}}}
	assert.Equal(t, []string{"Data race: (*Pool).TryAcquire writes at bulkheadpool/bulkheadpool.go:25, while (*Pool).Release writes at bulkheadpool/bulkheadpool.go:34"},
		raceLines(i18n.New("en"), &checker.Result{Races: both}))
}

// Two calls of one function that race are said to be two calls, not the
// function racing with itself ("Release writes at :28, while Release
// writes at :28"), and two writes at one place are named once.
func TestRaceLinesTwoCalls(t *testing.T) {
	access := func(write bool, line int) checker.RaceAccess {
		return checker.RaceAccess{Write: write, Frames: []checker.RaceFrame{{Function: "(*Pool).Release", File: "bulkheadpool/bulkheadpool.go", Line: line}}}
	}
	for lang, want := range map[string][]string{
		"en": {
			"Data race: two calls of (*Pool).Release write at bulkheadpool/bulkheadpool.go:28 at the same time",
			"Data race: two calls of (*Pool).Release at the same time: one writes at bulkheadpool/bulkheadpool.go:28, the other reads at bulkheadpool/bulkheadpool.go:27",
		},
		"de": {
			"Data Race: zwei Aufrufe von (*Pool).Release schreiben gleichzeitig in bulkheadpool/bulkheadpool.go:28",
			"Data Race: zwei Aufrufe von (*Pool).Release gleichzeitig: einer schreibt in bulkheadpool/bulkheadpool.go:28, der andere liest in bulkheadpool/bulkheadpool.go:27",
		},
	} {
		races := []checker.Race{
			{Accesses: []checker.RaceAccess{access(false, 27), access(true, 28)}},
			{Accesses: []checker.RaceAccess{access(true, 28), access(true, 28)}},
		}
		assert.Equal(t, want, raceLines(i18n.New(lang), &checker.Result{Races: races}), lang)
	}
}

// Of a pair's reports the text keeps the one the summary lines name (a
// write first, then the lowest line), whichever the detector saw first,
// and shows the kept reports in the summaries' order.
func TestRaceReportsFollowTheSummaries(t *testing.T) {
	race := func(read string, line int, write string) string {
		return fmt.Sprintf("==================\nWARNING: DATA RACE\nRead at 0x00c00001e088 by goroutine 35:\n  bulkheadpool.(*Pool).%s()\n      bulkheadpool/bulkheadpool.go:%d +0x2c\n\nPrevious write at 0x00c00001e088 by goroutine 7:\n  bulkheadpool.(*Pool).%s()\n      bulkheadpool/bulkheadpool.go:28 +0x64\n\n==================\n", read, line, write)
	}
	out := "before\n" + race("Release", 27, "Release") + race("TryAcquire", 21, "Release") +
		race("TryAcquire", 18, "Release") + "after\n"
	got, omitted := distinctRaces(out)
	assert.Equal(t, 1, omitted)
	assert.NotContains(t, got, "bulkheadpool.go:21", "the later report of the pair, with the lower line, is kept")
	first, second := strings.Index(got, "bulkheadpool.go:18"), strings.Index(got, "bulkheadpool.go:27")
	require.True(t, first >= 0 && second >= 0, got)
	assert.Less(t, first, second, "the reports in the summaries' order:\n%s", got)
	assert.True(t, strings.HasPrefix(got, "before\n==================\nWARNING: DATA RACE\n"), got)
	assert.True(t, strings.HasSuffix(got, "==================\nafter\n"), got)
}
