package validate

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
)

// decimal is the decimal separator each language's tables use.
var decimal = map[string]string{"de": ",", "en": "."}

// boolWords are how tables write true and false unless a marker says
// otherwise; "true" and "false" themselves are always understood.
var boolWords = map[string][2]string{"de": {"ja", "nein"}, "en": {"yes", "no"}}

// tables compares every table tied to a trace with what the reference
// does on that trace.
func (v *validator) tables(c *course.Course, codes map[string]*exCode, docs map[string]*doc, replays map[string]*replayOut) {
	files := make([]string, 0, len(docs))
	for f := range docs {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		d := docs[f]
		for _, t := range d.tables {
			m := t.marker
			if m == nil {
				continue
			}
			ex, ok := c.Exercise(m.exercise)
			if !ok {
				continue // reported by markerTarget
			}
			rep := replays[m.exercise]
			switch {
			case rep == nil && codes[m.exercise].noReplay != "":
				v.add(d.file, m.line, TableUnchecked).Detail = codes[m.exercise].noReplay
				continue
			case rep == nil:
				continue // the reference was not run: its problems are reported
			case !rep.Driver:
				v.add(d.file, m.line, TableUnchecked).Detail = "testdata/driver.go: not a harness.Traces"
				continue
			}
			var test *harness.Test
			for i := range ex.Suite.Tests {
				if ex.Suite.Tests[i].Name == m.test {
					test = &ex.Suite.Tests[i]
				}
			}
			for _, r := range rep.Traces {
				if test != nil && r.Name == m.test && r.Panic == "" && len(r.Steps) == len(test.Steps) {
					v.compare(d, t, test, r)
				}
			}
		}
	}
}

// compare checks one table against the reference's run of its trace.
func (v *validator) compare(d *doc, t *table, test *harness.Test, r replayed) {
	m := t.marker
	if len(m.columns) != len(t.header) {
		v.add(d.file, m.line, TableColumns, "Got", len(m.columns), "Want", len(t.header))
		return
	}
	steps := test.Steps
	// Each row stands for a group of steps, first to last.
	type group struct{ first, last int }
	var groups []group
	if col := slices.Index(m.columns, "calls"); col >= 0 {
		k := 0
		for ri, rw := range t.rows {
			if col >= len(rw.cells) {
				break
			}
			calls := callRE().FindAllStringSubmatch(rw.cells[col], -1)
			first := k
			for _, cl := range calls {
				want := "—"
				if k < len(steps) {
					want = harness.FormatCall(steps[k].Call, steps[k].Args)
				}
				if k >= len(steps) || cl[1] != steps[k].Call || !sameArgs(cl[2], steps[k].Args) {
					v.add(d.file, rw.line, TableCalls, "Row", ri+1, "Got", cl[1]+"("+cl[2]+")", "Want", want, "Test", m.test)
					return
				}
				k++
			}
			if len(calls) == 0 {
				v.add(d.file, rw.line, TableCalls, "Row", ri+1, "Got", "—", "Want", harness.FormatCall(steps[min(k, len(steps)-1)].Call, steps[min(k, len(steps)-1)].Args), "Test", m.test)
				return
			}
			groups = append(groups, group{first, k - 1})
		}
		if k != len(steps) {
			v.add(d.file, t.line, TableRows, "Rows", len(t.rows), "Test", m.test, "Groups", len(steps), "Covered", k)
		}
	} else {
		for i, s := range steps {
			if m.row == "" || s.Call == m.row || len(groups) == 0 {
				groups = append(groups, group{i, i})
			} else {
				groups[len(groups)-1].last = i
			}
		}
		if len(groups) != len(t.rows) {
			v.add(d.file, t.line, TableRows, "Rows", len(t.rows), "Test", m.test, "Groups", len(groups), "Covered", -1)
		}
	}
	for ri := 0; ri < min(len(groups), len(t.rows)); ri++ {
		g, rw := groups[ri], t.rows[ri]
		for ci, kind := range m.columns {
			if ci >= len(rw.cells) || kind == "-" || kind == "calls" {
				continue
			}
			cell := rw.cells[ci]
			var ok bool
			var want string
			if kind == "expect" {
				ok, want = v.expect(d, cell, r, g.first, g.last)
			} else {
				value := valueOf(kind, steps, r, g.first, g.last)
				ok, want = matches(d.lang, m, kind, cell, value), show(d.lang, m, value)
			}
			if !ok {
				v.add(d.file, rw.line, TableCell, "Row", ri+1, "Column", clean(t.header[ci]), "Got", clean(cell), "Want", want, "Test", m.test)
			}
		}
	}
}

// callRE finds calls written in a cell, e.g. `b.Allow(9)` or Success().
var callRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([A-Z][A-Za-z0-9_]*)\(([^()]*)\)`) })

func sameArgs(written string, args []float64) bool {
	var parts []string
	if strings.TrimSpace(written) != "" {
		parts = strings.Split(written, ",")
	}
	if len(parts) != len(args) {
		return false
	}
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !near(x, args[i]) {
			return false
		}
	}
	return true
}

func near(x, y float64) bool {
	return math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}

// valueOf returns the value a column kind stands for in the group of
// steps first..last: "arg2", "ret", "before", "after", "next" or a sum.
func valueOf(kind string, steps []harness.Step, r replayed, first, last int) string {
	if strings.Contains(kind, "+") {
		sum := 0.0
		for _, k := range strings.Split(kind, "+") {
			x := valueOf(k, steps, r, first, last)
			switch x {
			case "true":
				sum++
			case "false":
			default:
				f, _ := strconv.ParseFloat(x, 64)
				sum += f
			}
		}
		return harness.Float(sum)
	}
	switch {
	case strings.HasPrefix(kind, "arg"):
		n := 1
		if len(kind) > 3 {
			n, _ = strconv.Atoi(kind[3:])
		}
		if n-1 < len(steps[first].Args) {
			return harness.Float(steps[first].Args[n-1])
		}
		return ""
	case kind == "ret":
		return r.Steps[first].Ret
	case kind == "before":
		if first == 0 {
			return r.Init
		}
		return r.Steps[first-1].Obs
	case kind == "after":
		return r.Steps[last].Obs
	case kind == "next":
		if last > first {
			return steps[first+1].Call
		}
		return "none"
	}
	return ""
}

// clean drops Markdown emphasis and code marks from a cell.
func clean(s string) string {
	return strings.TrimSpace(strings.NewReplacer("`", "", "**", "", "*", "").Replace(s))
}

// firstWord returns the first word of a cell, without trailing punctuation
// and quotes.
func firstWord(cell string) string {
	f := strings.Fields(clean(cell))
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(strings.TrimRight(f[0], ",;:"), `"`)
}

// word returns how the table writes value: the marker's word for it, the
// language's yes or no for a bool, else the value itself.
func word(lang string, m *marker, value string) string {
	if w, ok := m.words[value]; ok {
		return w
	}
	switch value {
	case "true":
		return boolWords[lang][0]
	case "false":
		return boolWords[lang][1]
	}
	return value
}

// show formats value for a message, the way the table should write it.
func show(lang string, m *marker, value string) string {
	if w := word(lang, m, value); w != value {
		return w
	}
	if _, err := strconv.ParseFloat(value, 64); err == nil {
		return strings.ReplaceAll(value, ".", decimal[lang])
	}
	return value
}

// matches reports whether a cell says value: a number (in the language's
// notation), yes or no, or the value's word, at the start of the cell.
func matches(lang string, m *marker, kind, cell, value string) bool {
	c := clean(cell)
	if w := word(lang, m, value); w != value || kind == "next" {
		return startsWithWord(c, w) || (value == "true" || value == "false") && firstWord(c) == value
	}
	if x, err := strconv.ParseFloat(value, 64); err == nil {
		y, ok := number(lang, firstWord(c))
		return ok && near(x, y)
	}
	return firstWord(c) == value
}

// number parses a number written in lang's notation.
func number(lang, s string) (float64, bool) {
	other := map[string]string{",": ".", ".": ","}[decimal[lang]]
	if strings.Contains(s, other) {
		return 0, false
	}
	x, err := strconv.ParseFloat(strings.ReplaceAll(s, decimal[lang], "."), 64)
	return x, err == nil
}

// startsWithWord reports whether s begins with w as a whole word.
func startsWithWord(s, w string) bool {
	if !strings.HasPrefix(s, w) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[len(w):])
	return len(s) == len(w) || !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
}

// codeSpan finds `code` in a cell.
var codeSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]*)`") })

// expect checks an "expect" cell: the literals written as code in it are
// the row's results in order (bools and numbers) and, for a "quoted"
// string, the observation after the row.
func (v *validator) expect(d *doc, cell string, r replayed, first, last int) (bool, string) {
	var rets []string
	for i := first; i <= last; i++ {
		if r.Steps[i].Ret != "" {
			rets = append(rets, r.Steps[i].Ret)
		}
	}
	obs := r.Steps[last].Obs
	var want []string
	for _, x := range rets {
		want = append(want, "`"+strings.ReplaceAll(x, ".", decimal[d.lang])+"`")
	}
	want = append(want, "`"+strconv.Quote(obs)+"`")
	wantText := strings.Join(want, ", ")

	var gotRets []string
	gotObs := ""
	for _, m := range codeSpan().FindAllStringSubmatch(cell, -1) {
		lit := strings.TrimSpace(m[1])
		switch {
		case lit == "true" || lit == "false":
			gotRets = append(gotRets, lit)
		case strings.HasPrefix(lit, `"`):
			s, err := strconv.Unquote(lit)
			if err != nil {
				return false, wantText
			}
			gotObs = s
		default:
			if x, ok := number(d.lang, lit); ok {
				gotRets = append(gotRets, harness.Float(x))
			}
		}
	}
	if len(gotRets) == 0 && gotObs == "" {
		return false, wantText
	}
	if len(gotRets) != len(rets) {
		return false, wantText
	}
	for i := range rets {
		if gotRets[i] != rets[i] && !sameArgs(gotRets[i], []float64{mustFloat(rets[i])}) {
			return false, wantText
		}
	}
	if gotObs != "" && gotObs != obs {
		return false, wantText
	}
	return true, wantText
}

func mustFloat(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return x
}
