package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
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
		{"", "16 goroutines, without the race detector.", "16 Goroutinen, ohne Race Detector.", "C compiler"},
	} {
		res := &checker.Result{Concurrency: checker.ConcurrencyStress, RaceSkipped: c.why}
		got := Concurrency(en, res)
		assert.Contains(t, got, c.en, c.why)
		assert.NotContains(t, got, c.never, c.why)
		assert.Contains(t, Concurrency(de, res), c.de, c.why)
	}
	assert.Equal(t, "Concurrency: checked by a stress test with 16 goroutines and by the race detector.",
		Concurrency(en, &checker.Result{Concurrency: checker.ConcurrencyRace}))
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
