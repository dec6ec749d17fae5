package validate

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/mutate"
)

// mutantTimeout bounds the run of one mutant's hidden tests. The
// references run in well under a second; a mutant that loops forever is
// killed, and killed is what it should be.
const mutantTimeout = 5 * time.Second

// MutantSummary is how an exercise's hidden tests fared against the
// mutants of its reference solution.
type MutantSummary struct {
	Exercise string
	// Mutants is how many mutants compile and ran; Invalid how many more
	// were made but do not compile (they count for nothing).
	Mutants, Invalid int
	Killed           int
	// Survivors are mutants the hidden tests pass and mutants.json does
	// not mark; Equivalent those it marks as equivalent to the reference.
	Survivors  []Survivor
	Equivalent []Survivor
	// Skipped says why no mutants ran ("" when they did): the exercise
	// is a quiz, the reference fails its own tests, or it does not
	// type-check.
	Skipped  string
	Duration time.Duration
	// Kills holds, for each hidden test in the suite's order, how many of
	// the mutants it fails.
	Kills []TestKills
}

// TestKills is how many mutants one hidden test fails.
type TestKills struct {
	Test    string
	Mutants int
}

// Score returns the share of the mutants that the tests kill, of those not
// marked equivalent; 1 when there are none.
func (s MutantSummary) Score() float64 {
	n := s.Mutants - len(s.Equivalent)
	if n <= 0 {
		return 1
	}
	return float64(s.Killed) / float64(n)
}

// MutantTotals returns the mutation score's parts, all exercises
// together: how many mutants the hidden tests kill, of how many that ran
// and are not marked equivalent. It is the one count of the summary, so
// that every front end says the same.
func (r *Report) MutantTotals() (killed, counted int) {
	for _, s := range r.Mutants {
		killed += s.Killed
		counted += s.Mutants - len(s.Equivalent)
	}
	return killed, counted
}

// Survivor is a mutant the hidden tests let through.
type Survivor struct {
	ID   string
	File string // course path of the changed file
	Line int
	Diff string
	Why  string // for a marked one, why it is equivalent
}

// marks is exercises/ID/mutants.json.
type marks struct {
	Equivalent []struct {
		Mutant string `json:"mutant"`
		Why    string `json:"why"`
	} `json:"equivalent"`
}

// mutants runs the hidden tests of every exercise against the mutants of
// its reference solution, Options.Jobs at a time.
func (v *validator) mutants(ctx context.Context, c *course.Course, codes map[string]*exCode) ([]MutantSummary, time.Duration, error) {
	start := time.Now()
	ck := *v.opts.checker()
	if ck.Timeout == 0 || ck.Timeout > mutantTimeout {
		ck.Timeout = mutantTimeout
	}
	type run struct {
		sum *MutantSummary
		e   *exCode
		m   mutate.Mutant
		res *checker.Result
		err error
	}
	var runs []*run
	var sums []*MutantSummary
	for _, ex := range c.Exercises {
		e := codes[ex.ID]
		sum := &MutantSummary{Exercise: ex.ID}
		sums = append(sums, sum)
		if ex.Traits().Data {
			// An exercise of data (a quiz) has a program of kurs's
			// own, filled in with the answers: a change of it tests
			// kurs, not the author's hidden tests.
			sum.Skipped = "quiz"
			continue
		}
		if e.solution == nil || !e.parsed || !e.refPassed {
			sum.Skipped = "reference"
			continue
		}
		ms, invalid, err := mutate.Generate(e.solution)
		if err != nil {
			sum.Skipped = "types"
			continue
		}
		sum.Invalid = invalid
		for _, m := range ms {
			runs = append(runs, &run{sum: sum, e: e, m: m})
		}
	}
	var of []*exCode
	typeErrs := map[*exCode]int{} // of an exercise with runs: the changes go/types rejected
	for _, r := range runs {
		of = append(of, r.e)
		typeErrs[r.e] = r.sum.Invalid
	}
	progress := v.track(PhaseMutants, of)
	for e, n := range typeErrs {
		progress.invalidBefore(e, n)
	}
	each(ctx, v.opts.jobs(), runs, func(r *run) {
		r.res, r.err = checkFiles(ctx, &ck, &v.tally, r.e.checked(), r.m.Files)
		progress.ranMutant(r.e, r.err != nil || compiled(r.res))
	})
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	survivors := map[*MutantSummary][]Survivor{}
	kills := map[*MutantSummary]map[string]int{}
	for _, r := range runs {
		if r.err != nil {
			return nil, 0, r.err
		}
		r.sum.Duration += r.res.Duration
		switch {
		case r.res.Status == checker.Pass:
			survivors[r.sum] = append(survivors[r.sum], Survivor{
				ID: r.m.ID, File: path.Join(r.e.dir(), "solution", r.m.File), Line: r.m.Line, Diff: r.m.Diff,
			})
			r.sum.Mutants++
		case !compiled(r.res):
			r.sum.Invalid++ // go/types let it through, the compiler did not
		default:
			r.sum.Mutants++
			r.sum.Killed++
			kills[r.sum] = countKills(kills[r.sum], r.res)
		}
	}
	var out []MutantSummary
	for _, sum := range sums {
		v.markSurvivors(sum, codes[sum.Exercise], survivors[sum])
		// Without a mutant that ran, no test can be said to catch nothing.
		if e := codes[sum.Exercise]; sum.Skipped == "" && sum.Mutants > 0 && e != nil {
			for _, t := range e.ex.Suite.Tests {
				sum.Kills = append(sum.Kills, TestKills{Test: t.Name, Mutants: kills[sum][t.Name]})
			}
			v.redundantTests(e, sum.Kills)
		}
		out = append(out, *sum)
	}
	return out, time.Since(start), nil
}

// compiled reports whether the mutant whose check gave res compiled
// (and passed the API check), so that its hidden tests ran: one that did
// not is no mutant, and counts for nothing.
func compiled(res *checker.Result) bool {
	return res.Status != checker.Error || res.Problem == nil ||
		res.Problem.Kind != checker.ProblemCompile && res.Problem.Kind != checker.ProblemAPI
}

// markSurvivors sorts the survivors into those mutants.json marks as
// equivalent and the rest, which are problems; a mark that matches no
// survivor is a problem too, so the file stays true.
func (v *validator) markSurvivors(sum *MutantSummary, e *exCode, survivors []Survivor) {
	file := path.Join(e.dir(), "mutants.json")
	var mk marks
	if _, err := fs.Stat(v.fsys, file); err != nil || !v.readJSON(file, &mk) {
		mk = marks{}
	}
	used := make([]bool, len(mk.Equivalent))
	for _, s := range survivors {
		i := slices.IndexFunc(mk.Equivalent, func(m struct {
			Mutant string `json:"mutant"`
			Why    string `json:"why"`
		}) bool {
			return m.Mutant == s.ID
		})
		if i >= 0 {
			used[i] = true
			s.Why = mk.Equivalent[i].Why
			sum.Equivalent = append(sum.Equivalent, s)
			continue
		}
		sum.Survivors = append(sum.Survivors, s)
		v.add(s.File, s.Line, MutantSurvives, "Mutant", s.ID, "Marks", file).Detail = s.Diff
	}
	if sum.Skipped != "" {
		return
	}
	for i, m := range mk.Equivalent {
		if !used[i] {
			v.add(file, v.at(file, fmt.Sprintf("equivalent.%d", i)), MutantMarkStale, "Mutant", m.Mutant)
		}
	}
}

// countKills adds the tests that res fails to kills.
func countKills(kills map[string]int, res *checker.Result) map[string]int {
	if kills == nil {
		kills = map[string]int{}
	}
	for _, t := range res.Tests {
		if t.Status != checker.Pass {
			kills[t.Name]++
		}
	}
	return kills
}

// redundantTests reports, at its entry in suite.json, each hidden test of
// e that no mutant and no misconception fails: a test that tells no known
// wrong solution from the reference adds time to every check and catches
// nothing the others miss.
func (v *validator) redundantTests(e *exCode, kills []TestKills) {
	file := path.Join(e.dir(), "testdata", "suite.json")
	for i, k := range kills {
		if k.Mutants > 0 || v.miscFails[e.ex.ID][k.Test] {
			continue
		}
		v.add(file, v.lineIn(file, "tests", i), TestRedundant, "Test", k.Test, "Exercise", e.ex.ID)
	}
}
