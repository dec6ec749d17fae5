package explain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
)

// access is one access of a data race by fn, in the learner's file.
func access(fn string, write bool) checker.RaceAccess {
	return checker.RaceAccess{Write: write, Frames: []checker.RaceFrame{{Function: fn, File: "bulkheadpool/bulkheadpool.go", Line: 9}}}
}

// TestUnlockedReadIsNotNoLock: a pool whose TryAcquire and Release take
// the lock and whose InUse does not races only where InUse reads. Its
// name is bulkheadpool's unlocked-read, in both languages, not no-lock's
// "both take the last slot", which it does not do; a pool whose writers
// race with one another is still no-lock, also when its InUse races too.
func TestUnlockedReadIsNotNoLock(t *testing.T) {
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	ex, ok := c.Exercise("bulkheadpool")
	require.True(t, ok)
	result := func(races ...checker.Race) *checker.Result {
		res := &checker.Result{Exercise: ex.ID, Status: checker.Fail, MaxScore: ex.Points, Concurrency: checker.ConcurrencyRace, Races: races}
		for _, tc := range ex.Suite.Tests {
			st := checker.Pass
			if tc.Name == "concurrent/stress-size-2" {
				st = checker.Fail
			}
			res.Tests = append(res.Tests, checker.Test{Name: tc.Name, Status: st})
		}
		return res
	}
	readerRaces := []checker.Race{
		{Accesses: []checker.RaceAccess{access("(*Pool).Release", true), access("(*Pool).InUse", false)}},
		{Accesses: []checker.RaceAccess{access("(*Pool).InUse", false), access("(*Pool).TryAcquire", true)}},
	}
	writerRaces := []checker.Race{
		{Accesses: []checker.RaceAccess{access("(*Pool).TryAcquire", false), access("(*Pool).TryAcquire", true)}},
		{Accesses: []checker.RaceAccess{access("(*Pool).InUse", false), access("(*Pool).Release", true)}},
	}
	for _, k := range []struct {
		name  string
		races []checker.Race
		want  string
	}{
		{"only InUse reads unguarded", readerRaces, "unlocked-read"},
		{"one race, of InUse", readerRaces[1:], "unlocked-read"},
		{"writers race too", writerRaces, "no-lock"},
		{"a writer races with itself", writerRaces[:1], "no-lock"},
	} {
		res := result(k.races...)
		r := Recognise(ex, res)
		require.NotNil(t, r, k.name)
		assert.Equal(t, k.want, r.Misconception.ID, k.name)
		assert.False(t, r.Maybe, k.name)
	}
	res := result(readerRaces...)
	for lang, title := range map[string]string{"en": "Only writes need the lock", "de": "Nur wer schreibt, braucht die Sperre"} {
		m := Explain(i18n.New(lang), ex, res, Options{}).Misconception
		require.NotNil(t, m, lang)
		assert.Equal(t, title, m.Title, lang)
		assert.Contains(t, m.Explanation, "`InUse`", lang)
	}
}
