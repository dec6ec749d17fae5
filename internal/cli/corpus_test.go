package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/testkit"
)

// TestGradeCorpusIsAlwaysOneJSONDocument runs `kurs grade --submissions
// --format json` on every case of the checker's corpus that can threaten
// what kurs prints (see threatens): hostile submissions, code that does
// not build or is refused, floods, text that is not UTF-8, forged output,
// crashes, hangs, and workspaces of several exercises. kurs must not crash
// or print a Go stack trace, must exit 0 or 1, and must print exactly one
// JSON document in which each case's entry has the verdicts of the case's
// want.json. The cases are graded as a class is, in one batch per time
// limit: each entry is the document `kurs grade --workspace CASE` writes
// (docs/results.md), made by the same grader from the same checks.
//
// Each document then goes through `kurs grade merge DOC --format F` for
// the formats of a class (junit, csv, html), so that those are written
// from hostile results too without grading again: the JUnit is held to
// the schema CI servers read, the CSV has every entry's points.
//
// The other cases, right and wrong solutions that build and end in time,
// threaten nothing here that these do not; their verdicts are pinned by
// the checker's corpus test (checker/corpus, TestCorpus), which checks
// every case of the corpus.
func TestGradeCorpusIsAlwaysOneJSONDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("grades the corpus cases that threaten kurs grade's output")
	}
	corpus := testkit.Corpus(t)
	entries, err := os.ReadDir(corpus)
	require.NoError(t, err)
	type group struct {
		dir   string
		cases []string
		ids   []string
	}
	groups := map[string]*group{}
	wants := map[string]map[string]string{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		exs := map[string]string{}
		for id, s := range testkit.ReadWant(t, filepath.Join(corpus, e.Name())).Exercises {
			exs[id] = string(s)
		}
		if !threatens(e.Name(), exs) {
			continue
		}
		wants[e.Name()] = exs
		lim := limit(e.Name())
		g := groups[lim]
		if g == nil {
			g = &group{dir: t.TempDir()}
			groups[lim] = g
		}
		// A copy, so that each batch holds only the cases of its limit.
		require.NoError(t, os.CopyFS(filepath.Join(g.dir, e.Name()), os.DirFS(filepath.Join(corpus, e.Name()))))
		g.cases = append(g.cases, e.Name())
		for id := range exs {
			if !slices.Contains(g.ids, id) {
				g.ids = append(g.ids, id)
			}
		}
	}
	require.Greater(t, len(wants), 30, "the corpus cases that threaten kurs grade's output")

	got := map[string]entry{}
	for _, lim := range []string{"2s", "6s"} {
		g := groups[lim]
		require.NotNil(t, g, "no corpus case has the limit %s", lim)
		slices.Sort(g.ids)
		args := append([]string{"grade", "--submissions", g.dir, "--format", "json", "--timeout", lim}, g.ids...)
		code, out, errOut := run(args...)
		assert.Contains(t, []int{ExitOK, ExitFail}, code, "stderr: %s", errOut)
		assert.NotContains(t, errOut, "goroutine ", "kurs printed a stack trace")

		dec := json.NewDecoder(strings.NewReader(out))
		var doc struct {
			Version     int      `json:"version"`
			ExerciseIDs []string `json:"exercise_ids"`
			Submissions []entry  `json:"submissions"`
		}
		require.NoError(t, dec.Decode(&doc), "stdout is not JSON: %s", out)
		assert.False(t, dec.More(), "more than one JSON document on stdout")
		assert.Equal(t, 1, doc.Version)
		assert.Equal(t, g.ids, doc.ExerciseIDs)
		require.Len(t, doc.Submissions, len(g.cases), "one entry per case")
		for _, s := range doc.Submissions {
			got[s.ID] = s
		}

		t.Run("class formats "+lim, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "class.json")
			require.NoError(t, os.WriteFile(file, []byte(out), 0o644))
			formats := map[string]string{}
			for _, f := range []string{"junit", "csv", "html"} {
				fcode, fout, ferr := run("grade", "merge", file, "--format", f)
				assert.Equal(t, code, fcode, "%s: exit code of merge and of the grading; stderr: %s", f, ferr)
				assert.NotContains(t, ferr, "goroutine ", "%s: kurs printed a stack trace", f)
				formats[f] = fout
			}
			junitHasVerdicts(t, formats["junit"], doc.Submissions)
			csvHasPoints(t, formats["csv"], doc.ExerciseIDs, doc.Submissions)
			html := formats["html"]
			assert.True(t, strings.HasPrefix(strings.ToLower(html), "<!doctype html>"), "html: %.80q", html)
			for _, s := range doc.Submissions {
				assert.Contains(t, html, s.ID, "html: the class report names every submission")
			}
		})
	}

	for _, name := range slices.Sorted(maps.Keys(wants)) {
		want := wants[name]
		t.Run(name, func(t *testing.T) {
			s, ok := got[name]
			require.True(t, ok, "the batch has no entry for %s", name)
			assert.Equal(t, 1, s.Version)
			// Every exercise of the batch is in each entry; those the case
			// does not have are graded as missing.
			graded := 0
			for _, ex := range s.Exercises {
				assert.NotEmpty(t, strings.TrimSpace(ex.Message), ex.ID)
				w, ok := want[ex.ID]
				if !ok {
					assert.Equal(t, "error", ex.Status, "%s: the case has no %s", ex.ID, ex.ID)
					continue
				}
				graded++
				assert.Equal(t, w, ex.Status, "%s: %s", ex.ID, ex.Message)
			}
			assert.Equal(t, len(want), graded, "the entry grades each exercise of want.json")
		})
	}
}

// entry is what the test reads of a submission's entry in kurs grade's
// JSON document.
type entry struct {
	ID        string `json:"id"`
	Version   int    `json:"version"`
	Status    string `json:"status"`
	Score     int    `json:"score"`
	Exercises []struct {
		ID      string `json:"id"`
		Status  string `json:"status"`
		Score   int    `json:"score"`
		Message string `json:"message"`
	} `json:"exercises"`
}

// run runs kurs with args and returns its exit code, stdout and stderr.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(context.Background(), args, IO{Out: &out, Err: &errOut, Getenv: func(string) string { return "" }, Getwd: os.Getwd})
	return code, out.String(), errOut.String()
}

// threatens says whether a corpus case can threaten what kurs grade
// prints, by its name and verdicts: a hostile case, one that spends its
// time limit or crashes (a hang, a memory bomb, a stack overflow, a
// panic), one that does not build or is refused, or a workspace of
// several exercises.
func threatens(name string, want map[string]string) bool {
	if strings.HasPrefix(name, "hostile-") || testkit.Slow(name) || strings.Contains(name, "panic") || len(want) > 1 {
		return true
	}
	return slices.Contains(slices.Collect(maps.Values(want)), "error")
}

// junitHasVerdicts checks the JUnit that kurs grade merge wrote from the
// entries: valid against the schema, one suite per submission and
// exercise, with an error in each test of an exercise that is an error, a
// failure in one that fails, and neither in one that passes.
func junitHasVerdicts(t *testing.T, doc string, entries []entry) {
	t.Helper()
	testkit.ValidJUnit(t, map[string][]byte{"class": []byte(doc)})
	var suites struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal([]byte(doc), &suites))
	byName := map[string]int{}
	for i, s := range suites.Suites {
		byName[s.Name] = i
	}
	n := 0
	for _, e := range entries {
		for _, ex := range e.Exercises {
			n++
			name := e.ID + "/" + ex.ID
			i, ok := byName[name]
			if !assert.True(t, ok, "junit: no suite %s", name) {
				continue
			}
			cases := suites.Suites[i].Cases
			require.NotEmpty(t, cases, name)
			failures, errs := 0, 0
			for _, c := range cases {
				if c.Failure != nil {
					failures++
				}
				if c.Error != nil {
					errs++
				}
			}
			switch ex.Status {
			case "error":
				assert.Equal(t, len(cases), errs, "junit: %s is an error in every test", name)
			case "fail":
				assert.Positive(t, failures, "junit: %s fails a test", name)
				assert.Zero(t, errs, name)
			default:
				assert.Zero(t, failures+errs, "junit: %s passes", name)
			}
		}
	}
	assert.Len(t, suites.Suites, n, "junit: one suite per submission and exercise")
}

// csvHasPoints checks the CSV that kurs grade merge wrote from the
// entries: a header of the exercises, then one row per submission with
// the points of each exercise and in all, then the seed and what graded.
func csvHasPoints(t *testing.T, doc string, ids []string, entries []entry) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
	require.NoError(t, err, "csv: %s", doc)
	require.Len(t, rows, len(entries)+1, "csv: a header and a row per submission")
	assert.Equal(t, slices.Concat([]string{"id"}, ids, []string{"total", "seed", "course", "kurs"}), rows[0])
	for i, e := range entries {
		row := rows[i+1]
		want := []string{e.ID}
		for _, ex := range e.Exercises {
			want = append(want, strconv.Itoa(ex.Score))
		}
		want = append(want, strconv.Itoa(e.Score))
		assert.Equal(t, want, row[:len(row)-3], "csv: row of %s", e.ID)
	}
}

// limit is the time limit of a case's check: 6 s, as in the checker's
// corpus test, enough for a right solution on a loaded machine (4 s was
// not, once: a passing leastconn timed out at load 13); 2 s for the cases
// that loop or wait until the limit on purpose (as the checker's corpus
// test names them), which end the same way after a shorter one.
func limit(name string) string {
	for _, s := range []string{"busy", "wait-for-token", "endless-loop", "blocking-channel", "lock-held"} {
		if strings.Contains(name, s) {
			return "2s"
		}
	}
	return "6s"
}

// TestMisconceptionCorpus measures how well kurs names mistakes, on the
// corpus of wrong solutions in checker/corpus/testdata/recall: each was
// written from the task texts alone, in a style of its own (switch
// statements, other field names, helper methods), not from a
// misconception's code, and its want.json says in one sentence what is
// wrong and which misconception that is ("a|b" for a solution with two
// mistakes: either name is right); a few are right solutions, which
// nothing may name. The corpus is graded as a class is, every case once:
// every other case in a German class, the rest in an English one, so that
// both languages name mistakes. Which misconception a result shows does
// not depend on the language (explain.Recognise has none), so grading
// every case in both languages only checked each twice. The test prints
// a table per exercise: how many are named (likely or unsure), with a
// wrong name, and correct solutions named. It requires at least 85 %
// named, no wrong name, no correct solution named, and names in both
// languages.
func TestMisconceptionCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("grades the misconception corpus")
	}
	dir := filepath.Join(testkit.Root(t), "checker", "corpus", "testdata", "recall")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	type want struct {
		Why           string            `json:"why"`
		Misconception map[string]string `json:"misconception"`
		Correct       bool              `json:"correct"`
	}
	wants := map[string]want{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "want.json"))
		require.NoError(t, err)
		var w want
		require.NoError(t, json.Unmarshal(data, &w), e.Name())
		require.NotEmpty(t, w.Why, "%s: want.json says what is wrong", e.Name())
		require.Len(t, w.Misconception, 1, e.Name())
		wants[e.Name()] = w
	}
	// Every other case in each language's class, by name.
	langs := []string{"de", "en"}
	classes := map[string]string{}
	caseLang := map[string]string{}
	for i, name := range slices.Sorted(maps.Keys(wants)) {
		lang := langs[i%len(langs)]
		if classes[lang] == "" {
			classes[lang] = t.TempDir()
		}
		require.NoError(t, os.CopyFS(filepath.Join(classes[lang], name), os.DirFS(filepath.Join(dir, name))))
		caseLang[name] = lang
	}
	named := map[string]string{} // case → "id" or "id?" (unsure) or ""
	namedIn := map[string]int{}  // lang → cases named in that language
	for _, lang := range langs {
		code, out, errOut := run("grade", "--submissions", classes[lang], "--format", "json", "--lang", lang)
		require.Contains(t, []int{ExitOK, ExitFail}, code, "stderr: %s", errOut)
		var doc struct {
			Submissions []struct {
				ID        string `json:"id"`
				Exercises []struct {
					ID            string `json:"id"`
					Status        string `json:"status"`
					Misconception *struct {
						ID    string `json:"id"`
						Maybe bool   `json:"maybe"`
					} `json:"misconception"`
				} `json:"exercises"`
			} `json:"submissions"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		for _, s := range doc.Submissions {
			require.Equal(t, lang, caseLang[s.ID], "%s is graded in the %s class only", s.ID, caseLang[s.ID])
			for ex, id := range wants[s.ID].Misconception {
				_ = id
				for _, e := range s.Exercises {
					if e.ID != ex {
						continue
					}
					if wants[s.ID].Correct {
						assert.Equal(t, "pass", e.Status, "%s is a correct solution", s.ID)
					} else {
						assert.Equal(t, "fail", e.Status, "%s is a wrong solution that compiles", s.ID)
					}
					got := ""
					if m := e.Misconception; m != nil {
						got = m.ID
						if m.Maybe {
							got += "?"
						}
					}
					named[s.ID] = got
					if got != "" {
						namedIn[lang]++
					}
				}
			}
		}
	}
	assert.Len(t, named, len(wants), "every case graded")
	for _, lang := range langs {
		assert.Positive(t, namedIn[lang], "a misconception named in the %s class", lang)
	}

	type row struct{ cases, named, unsure, wrong, correctNamed int }
	rows := map[string]*row{}
	total := &row{}
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(wants)) {
		w := wants[name]
		for ex, id := range w.Misconception {
			r := rows[ex]
			if r == nil {
				r = &row{}
				rows[ex] = r
			}
			got := named[name]
			gotID := strings.TrimSuffix(got, "?")
			verdict := ""
			switch {
			case w.Correct && got != "":
				r.correctNamed++
				total.correctNamed++
				verdict = "CORRECT SOLUTION NAMED"
			case w.Correct:
				verdict = "correct, not named"
			case got == "":
				r.cases++
				total.cases++
				verdict = "not named"
			case slices.Contains(strings.Split(id, "|"), gotID):
				r.cases++
				r.named++
				total.cases++
				total.named++
				if strings.HasSuffix(got, "?") {
					r.unsure++
					total.unsure++
				}
				verdict = "named"
			default:
				r.cases++
				r.wrong++
				total.cases++
				total.wrong++
				verdict = "WRONG NAME"
			}
			lines = append(lines, fmt.Sprintf("%-28s %-16s %s want %-32s got %-34s %s", name, ex, caseLang[name], id, got, verdict))
		}
	}
	table := []string{fmt.Sprintf("%-16s %5s %5s %6s %5s %8s", "exercise", "cases", "named", "unsure", "wrong", "correct")}
	for _, ex := range slices.Sorted(maps.Keys(rows)) {
		r := rows[ex]
		table = append(table, fmt.Sprintf("%-16s %5d %5d %6d %5d %8d", ex, r.cases, r.named, r.unsure, r.wrong, r.correctNamed))
	}
	table = append(table, fmt.Sprintf("%-16s %5d %5d %6d %5d %8d", "all", total.cases, total.named, total.unsure, total.wrong, total.correctNamed))
	t.Logf("misconception corpus, case by case:\n%s", strings.Join(lines, "\n"))
	t.Logf("misconception corpus (cases: wrong solutions; named: with the right misconception, unsure ones included; wrong: with another one; correct: correct solutions named):\n%s", strings.Join(table, "\n"))
	t.Logf("recall %d of %d (%.0f %%), %d wrong names, %d correct solutions named", total.named, total.cases, 100*float64(total.named)/float64(total.cases), total.wrong, total.correctNamed)
	require.GreaterOrEqual(t, total.cases, 40, "wrong solutions in the corpus")
	assert.GreaterOrEqual(t, 100*total.named, 85*total.cases, "at least 85 % named")
	assert.Zero(t, total.wrong, "wrong names")
	assert.Zero(t, total.correctNamed, "correct solutions named")
}
