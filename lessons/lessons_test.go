package lessons_test

// These tests keep the lesson text honest: every worked table in
// resilienz-2/de.md and resilienz-2/en.md is replayed against the reference
// solutions, and the two languages are checked for point-by-point parity.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	circuitbreaker "github.com/kurs-course/kurs/exercises/circuitbreaker/solution"
	tokenbucket "github.com/kurs-course/kurs/exercises/tokenbucket/solution"
	"github.com/kurs-course/kurs/internal/course"
)

// lang holds the words a lesson in one language uses in its tables.
type lang struct {
	code    string
	yes, no string
	decimal string // decimal separator used in the tables

	breakerHeader                []string
	resultOK, resultFail, notRun string
	bucketHeader                 []string
	sequenceHeader               []string
}

var langs = []lang{
	{
		code: "de", yes: "ja", no: "nein", decimal: ",",
		breakerHeader: []string{"Tick", "Zustand vorher", "Aufruf erlaubt?", "Ergebnis", "Zustand danach"},
		resultOK:      "ok", resultFail: "Fehler", notRun: "nicht aufgerufen",
		bucketHeader:   []string{"Zeit", "Tokens vor der Anfrage", "Anfrage erlaubt?", "Tokens danach"},
		sequenceHeader: []string{"Schritt", "erwartet"},
	},
	{
		code: "en", yes: "yes", no: "no", decimal: ".",
		breakerHeader: []string{"Tick", "State before", "Call allowed?", "Result", "State after"},
		resultOK:      "ok", resultFail: "failure", notRun: "not called",
		bucketHeader:   []string{"Time", "Tokens before the request", "Request allowed?", "Tokens after"},
		sequenceHeader: []string{"Step", "expected"},
	},
}

const lessonDir = "resilienz-2"

// lesson is one parsed Markdown file.
type lesson struct {
	file     string // path shown in failure messages
	text     string
	tables   []table
	headings []string // "## ..." and "### ..." lines outside code fences, in order
	fences   []string // info string of every fenced code block, in order
	prose    []string // lines outside code fences, with their line numbers
}

type table struct {
	line   int // 1-based line number of the header row
	header []string
	rows   []row
}

type row struct {
	line  int
	cells []string
}

func (r row) where(l *lesson, what string) string {
	return fmt.Sprintf("%s:%d: %s", l.file, r.line, what)
}

func load(t *testing.T, code string) *lesson {
	t.Helper()
	path := filepath.Join(lessonDir, code+".md")
	data, err := os.ReadFile(path)
	require.NoError(t, err, "read lesson file %s", path)
	l := &lesson{file: filepath.ToSlash(filepath.Join("lessons", path)), text: string(data)}
	l.parse()
	return l
}

var delimiterRow = regexp.MustCompile(`^\|(\s*:?-{3,}:?\s*\|)+\s*$`)

func splitRow(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "|")
	s = strings.TrimSuffix(s, "|")
	parts := strings.Split(s, "|")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

func (l *lesson) parse() {
	lines := strings.Split(strings.ReplaceAll(l.text, "\r\n", "\n"), "\n")
	inFence := false
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		if strings.HasPrefix(ln, "```") {
			if !inFence {
				l.fences = append(l.fences, strings.TrimSpace(strings.TrimPrefix(ln, "```")))
			}
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		l.prose = append(l.prose, fmt.Sprintf("%d\x00%s", i+1, ln))
		if strings.HasPrefix(ln, "## ") || strings.HasPrefix(ln, "### ") {
			l.headings = append(l.headings, ln)
		}
		if strings.HasPrefix(ln, "|") && i+1 < len(lines) && delimiterRow.MatchString(lines[i+1]) {
			tb := table{line: i + 1, header: splitRow(ln)}
			j := i + 2
			for ; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
				tb.rows = append(tb.rows, row{line: j + 1, cells: splitRow(lines[j])})
			}
			l.tables = append(l.tables, tb)
			i = j - 1
		}
	}
}

// find returns the one table whose header row is exactly header.
func (l *lesson) find(t *testing.T, header []string) table {
	t.Helper()
	var found []table
	for _, tb := range l.tables {
		if strings.Join(tb.header, "|") == strings.Join(header, "|") {
			found = append(found, tb)
		}
	}
	require.Len(t, found, 1, "%s: want exactly one table with header | %s |", l.file, strings.Join(header, " | "))
	tb := found[0]
	for _, r := range tb.rows {
		require.Len(t, r.cells, len(header), r.where(l, "row has the wrong number of cells"))
	}
	return tb
}

// clean drops Markdown emphasis and code marks from a cell.
func clean(s string) string {
	return strings.TrimSpace(strings.NewReplacer("`", "", "**", "", "*", "").Replace(s))
}

func firstWord(s string) string {
	f := strings.Fields(clean(s))
	if len(f) == 0 {
		return ""
	}
	return strings.TrimRight(f[0], ",;:")
}

func (lg lang) yesNo(t *testing.T, l *lesson, r row, cell string) bool {
	t.Helper()
	switch w := firstWord(cell); w {
	case lg.yes:
		return true
	case lg.no:
		return false
	default:
		require.Fail(t, "not a yes/no cell", r.where(l, fmt.Sprintf("%q does not start with %q or %q", cell, lg.yes, lg.no)))
		return false
	}
}

func (lg lang) number(t *testing.T, l *lesson, r row, cell string) float64 {
	t.Helper()
	w := firstWord(cell)
	other := map[string]string{",": ".", ".": ","}[lg.decimal]
	require.NotContains(t, w, other, r.where(l, fmt.Sprintf("number %q uses the wrong decimal separator for %s (want %q)", w, lg.code, lg.decimal)))
	f, err := strconv.ParseFloat(strings.ReplaceAll(w, lg.decimal, "."), 64)
	require.NoError(t, err, r.where(l, fmt.Sprintf("cell %q does not start with a number", cell)))
	return f
}

func (lg lang) integer(t *testing.T, l *lesson, r row, cell string) int {
	t.Helper()
	n, err := strconv.Atoi(firstWord(cell))
	require.NoError(t, err, r.where(l, fmt.Sprintf("cell %q does not start with a whole number", cell)))
	return n
}

func fmtNum(f float64, decimal string) string {
	return strings.ReplaceAll(strconv.FormatFloat(f, 'f', -1, 64), ".", decimal)
}

// TestBreakerTable replays the threshold 2 / wait 3 walkthrough: the
// downstream is broken from tick 2 to 7, one call per tick 0..9.
func TestBreakerTable(t *testing.T) {
	for _, lg := range langs {
		t.Run(lg.code, func(t *testing.T) {
			l := load(t, lg.code)
			require.Contains(t, l.text, "circuitbreaker.New(2, 3)", "%s: the breaker table must name its breaker", l.file)
			tb := l.find(t, lg.breakerHeader)
			require.Len(t, tb.rows, 10, "%s:%d: the breaker table covers ticks 0..9", l.file, tb.line)

			b := circuitbreaker.New(2, 3)
			for i, r := range tb.rows {
				tick := lg.integer(t, l, r, r.cells[0])
				require.Equal(t, i, tick, r.where(l, "ticks must run 0, 1, 2, ..."))
				broken := tick >= 2 && tick <= 7

				before := b.State()
				allowed := b.Allow(tick)
				result := lg.notRun
				if allowed {
					if broken {
						b.Failure(tick)
						result = lg.resultFail
					} else {
						b.Success()
						result = lg.resultOK
					}
				}
				after := b.State()

				require.Equal(t, before, firstWord(r.cells[1]), r.where(l, fmt.Sprintf("tick %d: state before", tick)))
				require.Equal(t, allowed, lg.yesNo(t, l, r, r.cells[2]), r.where(l, fmt.Sprintf("tick %d: call allowed?", tick)))
				require.Equal(t, result, clean(r.cells[3]), r.where(l, fmt.Sprintf("tick %d: result", tick)))
				require.Equal(t, after, firstWord(r.cells[4]), r.where(l, fmt.Sprintf("tick %d: state after", tick)))
			}
		})
	}
}

// TestBucketTable replays the capacity 3 / rate 0.5 walkthrough.
func TestBucketTable(t *testing.T) {
	for _, lg := range langs {
		t.Run(lg.code, func(t *testing.T) {
			l := load(t, lg.code)
			require.Contains(t, l.text, "tokenbucket.New(3, 0.5)", "%s: the bucket table must name its bucket", l.file)
			tb := l.find(t, lg.bucketHeader)
			require.Len(t, tb.rows, 8, "%s:%d: the bucket table has 8 requests", l.file, tb.line)

			b := tokenbucket.New(3, 0.5)
			last := 0
			for _, r := range tb.rows {
				now := lg.integer(t, l, r, r.cells[0])
				require.GreaterOrEqual(t, now, last, r.where(l, "time never goes backwards"))
				last = now

				allowed := b.Allow(now)
				after := b.Tokens()
				before := after
				if allowed {
					before = after + 1
				}

				what := func(col string, want float64) string {
					return r.where(l, fmt.Sprintf("time %d: %s should be %s", now, col, fmtNum(want, lg.decimal)))
				}
				require.InDelta(t, before, lg.number(t, l, r, r.cells[1]), 1e-9, what("tokens before", before))
				require.Equal(t, allowed, lg.yesNo(t, l, r, r.cells[2]), r.where(l, fmt.Sprintf("time %d: request allowed?", now)))
				require.InDelta(t, after, lg.number(t, l, r, r.cells[3]), 1e-9, what("tokens after", after))
			}
		})
	}
}

var (
	callRE  = regexp.MustCompile(`\b(Failure|Success|Allow)\((\d*)\)`)
	boolRE  = regexp.MustCompile(`\b(true|false)\b`)
	stateRE = regexp.MustCompile(`"(closed|open|half_open)"`)
)

// TestSequenceTable replays the threshold 3 / wait 5 example sequence of
// exercise 1: each row's calls are run in order; the expected column lists
// Allow's results in order and, if it names a state, the state after the row.
func TestSequenceTable(t *testing.T) {
	for _, lg := range langs {
		t.Run(lg.code, func(t *testing.T) {
			l := load(t, lg.code)
			require.Contains(t, l.text, "circuitbreaker.New(3, 5)", "%s: the sequence table must name its breaker", l.file)
			tb := l.find(t, lg.sequenceHeader)
			require.Len(t, tb.rows, 8, "%s:%d: the sequence table has 8 steps", l.file, tb.line)

			b := circuitbreaker.New(3, 5)
			seen := map[string]bool{}
			for _, r := range tb.rows {
				calls := callRE.FindAllStringSubmatch(r.cells[0], -1)
				require.NotEmpty(t, calls, r.where(l, "step names no call"))
				var got []string
				for _, c := range calls {
					seen[c[1]] = true
					arg := func() int {
						n, err := strconv.Atoi(c[2])
						require.NoError(t, err, r.where(l, c[0]+" needs a tick"))
						return n
					}
					switch c[1] {
					case "Failure":
						b.Failure(arg())
					case "Success":
						require.Empty(t, c[2], r.where(l, "Success takes no argument"))
						b.Success()
					case "Allow":
						got = append(got, strconv.FormatBool(b.Allow(arg())))
					}
				}

				expected := r.cells[1]
				var want []string
				for _, m := range boolRE.FindAllStringSubmatch(expected, -1) {
					want = append(want, m[1])
				}
				states := stateRE.FindAllStringSubmatch(expected, -1)
				require.True(t, len(want) > 0 || len(states) > 0, r.where(l, "expected names neither a result nor a state"))
				require.Equal(t, got, want, r.where(l, fmt.Sprintf("results of %s", clean(r.cells[0]))))
				if len(states) > 0 {
					require.Equal(t, b.State(), states[len(states)-1][1], r.where(l, fmt.Sprintf("state after %s", clean(r.cells[0]))))
				}
			}
			for _, m := range []string{"Allow", "Success", "Failure"} {
				require.True(t, seen[m], "%s:%d: the sequence table never calls %s", l.file, tb.line, m)
			}
		})
	}
}

var htmlTag = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*(\s[^>]*)?/?>`)
var inlineCode = regexp.MustCompile("`[^`]*`")

// TestStructure checks the form of both files and their parity.
func TestStructure(t *testing.T) {
	de, en := load(t, "de"), load(t, "en")
	for _, l := range []*lesson{de, en} {
		require.True(t, strings.HasPrefix(l.text, "# "), "%s: must start with a level-1 heading", l.file)
		require.Regexp(t, "(?m)^```mermaid\\s*\\n\\s*stateDiagram-v2\\b", l.text, "%s: needs a ```mermaid block with stateDiagram-v2", l.file)
		for _, f := range l.fences {
			require.Contains(t, []string{"go", "mermaid"}, f, "%s: code blocks must be go or mermaid, found %q", l.file, f)
		}
		for _, p := range l.prose {
			n, text, _ := strings.Cut(p, "\x00")
			require.False(t, htmlTag.MatchString(inlineCode.ReplaceAllString(text, "")), "%s:%s: raw HTML is not allowed: %s", l.file, n, text)
		}
		for _, tb := range l.tables {
			for _, r := range tb.rows {
				require.Len(t, r.cells, len(tb.header), r.where(l, "row has a different number of cells than its header"))
			}
		}
		// The quiz answer must not be given away.
		var a []string
		for _, c := range quizOf(t, "bulkheadquiz").Quiz {
			a = append(a, c.Answer)
		}
		for _, spoiler := range []string{
			fmt.Sprintf("{%q, %q}", a[0], a[1]),
			fmt.Sprintf("(%q, %q)", a[0], a[1]),
		} {
			require.NotContains(t, l.text, spoiler, "%s: reveals the quiz answer", l.file)
		}
	}

	count := func(l *lesson, prefix string) int {
		n := 0
		for _, h := range l.headings {
			if strings.HasPrefix(h, prefix) {
				n++
			}
		}
		return n
	}
	require.Equal(t, count(de, "## "), count(en, "## "), "%s and %s: different number of ## headings", de.file, en.file)
	require.Equal(t, count(de, "### "), count(en, "### "), "%s and %s: different number of ### headings", de.file, en.file)
	for i := range de.headings {
		require.Equal(t, de.headings[i][:3], en.headings[i][:3], "%s and %s: heading %d has a different level (%q vs %q)", de.file, en.file, i+1, de.headings[i], en.headings[i])
	}
	require.Equal(t, de.fences, en.fences, "%s and %s: different code blocks", de.file, en.file)
	require.Equal(t, len(de.tables), len(en.tables), "%s and %s: different number of tables", de.file, en.file)
	for i := range de.tables {
		dt, et := de.tables[i], en.tables[i]
		require.Equal(t, len(dt.header), len(et.header), "table %d (%s:%d, %s:%d): different number of columns", i+1, de.file, dt.line, en.file, et.line)
		require.Equal(t, len(dt.rows), len(et.rows), "table %d (%s:%d, %s:%d): different number of rows", i+1, de.file, dt.line, en.file, et.line)
	}
}

var probeLineRE = regexp.MustCompile(`^b\.(Failure|Allow)\((\d+)\)\s*(?://\s*(?:(true|false)\b)?.*)?$`)

// TestUnreportedProbe replays the pitfall of a probe whose result is never
// reported: the code block's Allow results, as its comments state them,
// and the breaker stuck in half_open afterwards.
func TestUnreportedProbe(t *testing.T) {
	for _, lg := range langs {
		t.Run(lg.code, func(t *testing.T) {
			l := load(t, lg.code)
			start := strings.Index(l.text, "```go\nb := circuitbreaker.New(3, 5)\n")
			require.GreaterOrEqual(t, start, 0, "%s: the pitfall's example starts with b := circuitbreaker.New(3, 5)", l.file)
			block, _, ok := strings.Cut(l.text[start+len("```go\n"):], "```")
			require.True(t, ok)
			b := circuitbreaker.New(3, 5)
			allows := 0
			for _, ln := range strings.Split(block, "\n")[1:] {
				ln = strings.TrimSpace(ln)
				if ln == "" || strings.HasPrefix(ln, "//") {
					continue
				}
				m := probeLineRE.FindStringSubmatch(ln)
				require.NotNil(t, m, "%s: unexpected line in the pitfall's example: %q", l.file, ln)
				now, _ := strconv.Atoi(m[2])
				if m[1] == "Failure" {
					b.Failure(now)
					continue
				}
				allows++
				require.Equal(t, m[3], strconv.FormatBool(b.Allow(now)), "%s: %s", l.file, ln)
			}
			require.Equal(t, 3, allows, "%s: the example asks Allow three times", l.file)
			require.Equal(t, "half_open", b.State(), "%s: the breaker stays half_open", l.file)
		})
	}
}

// quizOf returns the quiz id as the course loader reads it.
func quizOf(t *testing.T, id string) *course.Exercise {
	t.Helper()
	c, err := course.Load(os.DirFS(".."))
	require.NoError(t, err)
	ex, ok := c.Exercise(id)
	require.True(t, ok)
	return ex
}

// TestLessonIDs checks that every lesson can be named in both languages:
// its folder's (German) id and an English one, all distinct.
func TestLessonIDs(t *testing.T) {
	dirs, err := filepath.Glob("*/lesson.json")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	seen := map[string]string{}
	idRE := regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	for _, file := range dirs {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		var l struct {
			ID  string            `json:"id"`
			IDs map[string]string `json:"ids"`
		}
		require.NoError(t, json.Unmarshal(data, &l), file)
		require.Regexp(t, idRE, l.IDs["en"], "%s: needs an English id (ids.en)", file)
		for _, id := range []string{l.ID, l.IDs["en"]} {
			prev, dup := seen[id]
			require.False(t, dup, "%s: id %q is taken by %s", file, id, prev)
			seen[id] = file
		}
	}
}

// TestBreakerBlindSpot replays what step 4 says the breaker in a row
// misses: a downstream that fails every second call (F, S, F, S, …) never
// trips the reference, whatever its threshold above 1.
func TestBreakerBlindSpot(t *testing.T) {
	for _, threshold := range []int{2, 3, 5} {
		b := circuitbreaker.New(threshold, 3)
		for tick := range 100 {
			require.True(t, b.Allow(tick), "threshold %d, tick %d: F, S, F, S, … keeps the breaker closed", threshold, tick)
			if tick%2 == 0 {
				b.Failure(tick)
			} else {
				b.Success()
			}
			require.Equal(t, "closed", b.State(), "threshold %d, tick %d", threshold, tick)
		}
	}
	for _, lg := range langs {
		l := load(t, lg.code)
		require.Contains(t, l.text, "(F, S, F, S, …)", "%s: step 4 names the breaker's blind spot", l.file)
	}
}
