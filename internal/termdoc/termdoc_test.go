package termdoc

import (
	"errors"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/course"
)

func render(t *testing.T, md string, opt Options) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, Render(&b, []byte(md), opt))
	return b.String()
}

var escape = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestTableAligned(t *testing.T) {
	got := render(t, `| Name | Count | Mid |
|:-----|------:|:---:|
| a | 1 | x |
| **longer** | 100 | yy |
`, Options{})
	assert.Equal(t, `┌────────┬───────┬─────┐
│ Name   │ Count │ Mid │
├────────┼───────┼─────┤
│ a      │     1 │  x  │
│ longer │   100 │ yy  │
└────────┴───────┴─────┘
`, got)
}

// A table wider than the page wraps its wide cells and keeps every word.
func TestTableFitsWidth(t *testing.T) {
	md := `| Method | Behaviour |
|---|---|
| ` + "`Allow(now)`" + ` | closed: true. open: false, unless the wait has elapsed: then it switches to half_open and returns true (the probe). |
| ` + "`Success()`" + ` | Resets the count of consecutive failures to 0. |
`
	got := render(t, md, Options{Width: 40})
	for _, l := range lines(got) {
		assert.LessOrEqual(t, Width(l), 40, "%q", l)
	}
	assert.Equal(t, words(strings.ReplaceAll(md, "|---|---|", "")), words(got))
	assert.Contains(t, got, "├", "rows of several lines are separated by a rule")

	// The same in colour, where code spans lose their backticks.
	colored := render(t, md, Options{Width: 40, Color: true})
	for _, l := range lines(colored) {
		assert.LessOrEqual(t, Width(l), 40, "%q", l)
	}
	assert.Equal(t, words(strings.ReplaceAll(got, "`", "")), words(escape.ReplaceAllString(colored, "")))
}

// A table whose words cannot fit side by side is shown one record per
// block, each cell after its header, and no word is broken.
func TestTableRecords(t *testing.T) {
	md := `| Tick | B's response time | occupied slots | rejected: calls to B |
|---|---|---|---|
| 3 | 10 | 4 | 0 |
| 4 | 10 | 6 | 1 |
`
	got := render(t, md, Options{Width: 30})
	assert.Equal(t, `Tick         │ 3
B's response │ 10
time         │
occupied     │ 4
slots        │
rejected:    │ 0
calls to B   │
─────────────┼────────
Tick         │ 4
B's response │ 10
time         │
occupied     │ 6
slots        │
rejected:    │ 1
calls to B   │
`, got)
	// Wide enough for every word: a table again, its cells wrapped.
	got = render(t, md, Options{Width: 50})
	assert.Contains(t, got, "┌")
	for _, l := range lines(got) {
		assert.LessOrEqual(t, Width(l), 50, "%q", l)
	}
}

// A line of code too long for the page breaks at a space, after a comma
// if it can; a comment goes on as a comment; colours survive the break.
func TestCodeBreaks(t *testing.T) {
	md := "```go\nfunc call(ctx context.Context, budget *retrybudget.Budget, now func() int) error {\n\treturn err // give up: no attempts left or budget empty\n}\n```\n"
	plain := render(t, md, Options{Width: 40})
	assert.Equal(t, `    func call(ctx context.Context,
        budget *retrybudget.Budget,
        now func() int) error {
        return err // give up: no
            // attempts left or budget
            // empty
    }
`, plain)
	colored := render(t, md, Options{Width: 40, Color: true})
	assert.Equal(t, plain, escape.ReplaceAllString(colored, ""))
	for _, l := range lines(colored) {
		assert.LessOrEqual(t, Width(l), 40, "%q", l)
	}

	// Inside a string, the break is marked; a word longer than the page
	// stays whole.
	got := render(t, "```go\nx := `a long string that does not fit`\ny := aVeryLongIdentifierWithoutAnySpaceInIt\n```\n", Options{Width: 30})
	assert.Equal(t, "    x :=\n        `a long string that\n        ↪ does not fit`\n    y :=\n        aVeryLongIdentifierWithoutAnySpaceInIt\n", got)
}

// Lines reports where each heading starts, for a pager's contents.
func TestLinesHeadings(t *testing.T) {
	lines, heads := Lines([]byte("# Title\n\nText.\n\n## Step `1`\n\nMore.\n\n### Deeper\n"), Options{Width: 40})
	require.Equal(t, []Heading{{1, "Title", 0}, {2, "Step 1", 5}, {3, "Deeper", 10}}, heads)
	assert.Equal(t, "Step `1`", lines[5])
	assert.Equal(t, "▸ Deeper", lines[10])
}

func TestParagraphWraps(t *testing.T) {
	md := "The breaker **remembers** when it opened: `now - openedAt` is compared with *wait*, and a success resets the count of failures in a row to 0.\nA soft break joins lines."
	got := render(t, md, Options{Width: 30})
	for _, l := range lines(got) {
		assert.LessOrEqual(t, Width(l), 30, "%q", l)
	}
	assert.Contains(t, got, "`now - openedAt`", "a short code span is not broken")
	assert.Equal(t, words("The breaker remembers when it opened: `now - openedAt` is compared with wait, and a success resets the count of failures in a row to 0. A soft break joins lines."), words(got))
}

func TestHeadingsAndLists(t *testing.T) {
	got := render(t, `# Title

## Section

### Step 4

1. one
2. two
   - nested
3. three
4. four
5. five
6. six
7. seven
8. eight
9. nine
10. ten

> quoted **text**
`, Options{})
	assert.Equal(t, `Title
═════

Section
───────

▸ Step 4

 1. one
 2. two
    • nested
 3. three
 4. four
 5. five
 6. six
 7. seven
 8. eight
 9. nine
10. ten

│ quoted text
`, got)
}

func TestMermaidStateDiagram(t *testing.T) {
	got := render(t, "```mermaid\nstateDiagram-v2\n    [*] --> closed\n    closed --> open: threshold failures in a row\n    open --> half_open: wait elapsed\n    half_open --> [*]\n```\n", Options{})
	assert.Equal(t, `  ●          →  closed
  closed     →  open       threshold failures in a row
  open       →  half_open  wait elapsed
  half_open  →  ◉
`, got)
}

// Long labels wrap in their column, or under the transition when the
// page is too narrow for a column.
func TestMermaidLabelsWrap(t *testing.T) {
	md := "```mermaid\nstateDiagram-v2\n    Failed --> Waiting: attempt left and budget allows a retry\n```\n"
	assert.Equal(t, `  Failed  →  Waiting  attempt left and budget
                      allows a retry
`, render(t, md, Options{Width: 50}))
	assert.Equal(t, `  Failed  →  Waiting
             attempt left and budget
             allows a retry
`, render(t, md, Options{Width: 40}))
}

func TestMermaidFlowchart(t *testing.T) {
	got := render(t, "```mermaid\nflowchart LR\n    A[Client] -->|request| B(Breaker)\n    B -- allowed --> C{Service}\n    C --> A\n```\n", Options{})
	assert.Equal(t, `  Client   →  Breaker  request
  Breaker  →  Service  allowed
  Service  →  Client
`, got)
}

// A diagram termdoc cannot read is shown as its source, not dropped.
func TestMermaidUnknownShownAsCode(t *testing.T) {
	got := render(t, "```mermaid\nsequenceDiagram\n    A->>B: hello\n```\n", Options{})
	assert.Equal(t, "    sequenceDiagram\n        A->>B: hello\n", got)
}

func TestGoCode(t *testing.T) {
	md := "```go\nif !b.Allow(now) {\n\treturn fallback() // answer at once\n}\n```\n"
	plain := render(t, md, Options{})
	assert.Equal(t, "    if !b.Allow(now) {\n        return fallback() // answer at once\n    }\n", plain)

	colored := render(t, md, Options{Color: true})
	assert.Contains(t, colored, "\x1b[", "Go is highlighted in colour")
	assert.Equal(t, plain, escape.ReplaceAllString(colored, ""), "highlighting changes nothing but colours")

	other := render(t, "```text\nx := 1\n```\n", Options{Color: true})
	assert.Equal(t, "    x := 1\n", other, "a block in an unknown language stays plain")
}

// Comments are notes for the course's tools, not for the reader.
func TestHTMLCommentsHidden(t *testing.T) {
	got := render(t, "Before <!-- inline note --> after.\n\n<!-- kurs:trace circuitbreaker seed/a -->\n| A |\n|---|\n| 1 |\n", Options{})
	assert.Equal(t, "Before after.\n\n┌───┐\n│ A │\n├───┤\n│ 1 │\n└───┘\n", got)
}

// Every lesson of the course renders in both languages and at the usual
// widths without Markdown left over, escape sequences, lines that stick
// out (but for a line of code without a space) or words that are not the
// lesson's: a word broken in two would be one.
func TestLessons(t *testing.T) {
	// Exercises being written may not load yet; the lessons matter here,
	// and the course's own tests judge the rest.
	c, _ := course.Load(kurs.Content())
	require.NotNil(t, c)
	require.NotEmpty(t, c.Lessons)
	for _, l := range c.Lessons {
		for _, lang := range course.Languages {
			md, err := l.Markdown(lang)
			if errors.Is(err, fs.ErrNotExist) {
				continue // a lesson being written; the content tests judge that
			}
			require.NoError(t, err)
			code := codeLines(string(md))
			known := map[string]bool{"↪": true, "//": true}
			for _, w := range words(string(md)) {
				known[w] = true
			}
			for _, width := range []int{60, 80, 100} {
				got := render(t, string(md), Options{Width: width})
				where := l.ID + "/" + lang
				assert.NotContains(t, got, "\x1b", where)
				for _, leftover := range []string{"```", "|---", "**", "](", "stateDiagram", "<br", "<!--"} {
					assert.NotContains(t, got, leftover, where)
				}
				for _, line := range lines(got) {
					if Width(line) > width {
						assert.True(t, code[strings.TrimSpace(line)], "%s at width %d: %q is %d wide", where, width, line, Width(line))
					}
					if !strings.Contains(line, "│") {
						continue // tables and records are where words used to break
					}
					for _, w := range words(line) {
						assert.True(t, known[w], "%s at width %d: %q is no word of the lesson, in %q", where, width, w, line)
					}
				}
				if strings.Contains(string(md), "```mermaid") {
					assert.Contains(t, got, "  →  ", "%s: a diagram is a list of transitions", where)
				}
			}
		}
	}
}

// codeLines returns the lines of a Markdown text's code blocks, trimmed.
func codeLines(md string) map[string]bool {
	set := map[string]bool{}
	in := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if in {
			set[strings.TrimSpace(strings.ReplaceAll(l, "\t", "    "))] = true
		}
	}
	return set
}

func lines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

// words returns the words of a text without Markdown's emphasis, table and
// box-drawing characters, to compare what was said, not its layout.
func words(s string) []string {
	s = strings.NewReplacer("**", "", "*", "", "|", " ", "│", " ", "─", " ", "┌", " ", "┐", " ", "└", " ", "┘", " ", "├", " ", "┤", " ", "┬", " ", "┴", " ", "┼", " ").Replace(s)
	return strings.Fields(s)
}

// An abbreviation of single letters such as "z. B." stays on one line, in
// a paragraph and in a table's cell.
func TestAbbreviationsStayTogether(t *testing.T) {
	for width := 12; width <= 40; width++ {
		got := render(t, "Ein Bulkhead trennt Ressourcen, z. B. einen eigenen Pool je Downstream, d. h. (z. B.) weniger Schaden.", Options{Width: width})
		for _, l := range lines(got) {
			assert.False(t, strings.HasSuffix(l, " z.") || strings.HasSuffix(l, " d.") || strings.HasSuffix(l, "(z."), "width %d: %q", width, l)
		}
	}
	table := "| Begriff | Idee |\n|---|---|\n| Bulkhead | Ressourcen werden getrennt, z. B. ein eigener Pool für jeden Downstream oder jede Aufgabe. |\n"
	for width := 30; width <= 60; width += 3 {
		for _, l := range lines(render(t, table, Options{Width: width})) {
			assert.NotRegexp(t, `\bz\.\s*(│|\|)?\s*$`, l, "width %d", width)
		}
	}
}

// A formula joined by no-break spaces, as the lessons and quizzes write
// "4 × 4 × 4 = 64", stays on one line at any width, in a paragraph and in
// a table's cell, and its spaces stay no-break ones.
func TestNoBreakSpacesHold(t *testing.T) {
	formula := "4\u00a0×\u00a04\u00a0×\u00a04\u00a0=\u00a064"
	para := "Drei Schichten mit je vier Versuchen machen aus einer Anfrage bis zu " + formula + " Aufrufe."
	table := "| Fall | Aufrufe |\n|---|---|\n| drei Schichten | bis zu " + formula + " Aufrufe |\n"
	for width := 15; width <= 60; width++ {
		for _, md := range []string{para, table} {
			got := render(t, md, Options{Width: width})
			assert.Contains(t, got, formula, "width %d:\n%s", width, got)
		}
	}
	assert.Equal(t, []string{"bis", "zu", formula, "Aufrufe"}, Words("bis zu "+formula+"\tAufrufe"))
}

// Every formula of the lessons that no-break spaces join stays whole when
// a lesson is shown in a narrow terminal.
func TestLessonFormulasStayWhole(t *testing.T) {
	c, _ := course.Load(kurs.Content())
	require.NotNil(t, c)
	joined := regexp.MustCompile(`\S*\x{a0}\S*`)
	found := 0
	for _, l := range c.Lessons {
		for _, lang := range course.Languages {
			md, err := l.Markdown(lang)
			if err != nil {
				continue
			}
			for _, width := range []int{30, 45} {
				got := render(t, string(md), Options{Width: width})
				for _, f := range joined.FindAllString(string(md), -1) {
					found++
					f = strings.Trim(f, ".,:;()")
					assert.Contains(t, got, f, "%s/%s at width %d", l.ID, lang, width)
				}
			}
		}
	}
	assert.NotZero(t, found, "no lesson joins a formula with no-break spaces")
}

// Every lesson can be shown in any terminal, however narrow: a code line
// whose indentation leaves no room to break at used to be broken without
// end, and kurs lesson took all the memory there was.
func TestLessonsInNarrowTerminals(t *testing.T) {
	c, _ := course.Load(kurs.Content())
	require.NotNil(t, c)
	for _, l := range c.Lessons {
		for _, lang := range course.Languages {
			md, err := l.Markdown(lang)
			if err != nil {
				continue
			}
			for width := 1; width <= 40; width++ {
				got := render(t, string(md), Options{Width: width})
				assert.Less(t, len(got), 8*len(md), "%s/%s at width %d: far more text than the lesson has", l.ID, lang, width)
			}
		}
	}
}
