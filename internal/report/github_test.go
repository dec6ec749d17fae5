package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/report"
)

// command matches one GitHub Actions workflow command:
// ::NAME key=value,key=value::MESSAGE
var command = regexp.MustCompile(`^::(error|warning|notice)( [a-zA-Z]+=[^,:]*(,[a-zA-Z]+=[^,:]*)*)?::(.*)$`)

// unescape undoes the escaping of workflow commands.
func unescape(s string) string {
	return strings.NewReplacer("%0A", "\n", "%0D", "\r", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

type annotation struct {
	kind    string
	props   map[string]string
	message string
}

func annotations(t *testing.T, out string) []annotation {
	t.Helper()
	var as []annotation
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := command.FindStringSubmatch(line)
		require.NotNil(t, m, "not a workflow command: %q", line)
		a := annotation{kind: m[1], props: map[string]string{}, message: unescape(m[4])}
		for _, kv := range strings.Split(strings.TrimPrefix(m[2], " "), ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				a.props[k] = unescape(v)
			}
		}
		as = append(as, a)
	}
	return as
}

func TestGitHubAnnotations(t *testing.T) {
	graded := fixture(t)
	p := i18n.New("en")
	var b bytes.Buffer
	require.NoError(t, report.GitHub(&b, p, graded, "course/ws"))
	as := annotations(t, b.String())

	require.Len(t, as, 4, "an error per exercise that does not pass, and the total:\n%s", b.String())
	cb, tb, quiz, total := as[0], as[1], as[2], as[3]

	assert.Equal(t, "error", cb.kind)
	assert.Equal(t, "course/ws/circuitbreaker/circuitbreaker.go", cb.props["file"], "the panic's file, inside the repository")
	assert.Equal(t, "43", cb.props["line"])
	assert.Equal(t, "circuitbreaker: 2 of 14 tests fail (0/4 points)", cb.props["title"])
	assert.Equal(t, explain.Message(p, graded[0].Exercise, graded[0].Result), cb.message, "the message survives escaping: newlines, %% and all")
	assert.Contains(t, cb.message, "100% broken")

	assert.Equal(t, "course/ws/tokenbucket/tokenbucket.go", tb.props["file"], "a compile error points at the compiler's position")
	assert.Equal(t, "15", tb.props["line"])

	_, hasFile := quiz.props["file"]
	assert.False(t, hasFile, "a wrong quiz answer has no line to point at")
	assert.Contains(t, quiz.message, "Case 2: D is not the best choice.")

	assert.Equal(t, "notice", total.kind)
	assert.Equal(t, "0 of 3 exercises pass, 1 of 9 points.", total.message)

	b.Reset()
	require.NoError(t, report.GitHub(&b, p, graded, ""))
	assert.Equal(t, "circuitbreaker/circuitbreaker.go", annotations(t, b.String())[0].props["file"], "a workspace at the repository's root")

	// An exercise that passes gets no annotation.
	quizRes := graded[2].Result
	quizRes.Status, quizRes.Score = checker.Pass, quizRes.MaxScore
	quizRes.Tests[1].Status, quizRes.Tests[1].Failure = checker.Pass, nil
	b.Reset()
	require.NoError(t, report.GitHub(&b, p, graded, ""))
	as = annotations(t, b.String())
	require.Len(t, as, 3, b.String())
	assert.Equal(t, "tokenbucket: no test could run (0/3 points)", as[1].props["title"])
	assert.Equal(t, "1 of 3 exercises pass, 2 of 9 points.", as[2].message)
}

func TestGitHubSummary(t *testing.T) {
	graded := fixture(t)
	var b bytes.Buffer
	require.NoError(t, report.GitHubSummary(&b, i18n.New("en"), graded, fixtureRun))
	md := b.String()

	assert.Contains(t, md, "### kurs: 0 of 3 exercises pass, 1 of 9 points.\n")
	assert.Contains(t, md, "| ❌ | `circuitbreaker` Circuit breaker as a state machine | 0/4 | 2 of 14 tests fail |\n")
	assert.Contains(t, md, "| ❌ | `tokenbucket` ")
	assert.Contains(t, md, "| 1/2 | 1 of 2 cases right |\n")
	assert.Contains(t, md, "--seed 7")
	assert.Contains(t, md, "Graded with the course sha256:c0ffee (the content hash of the course whose hidden tests gave these results) by kurs v1.2.0+0123456789ab.",
		"the summary names the course and the kurs that graded")

	// The panic value holds ``` and a Markdown heading; the fence around
	// the message must be longer, so that the learner's text stays text.
	i := strings.Index(md, "100% broken")
	require.Positive(t, i)
	before := md[:i]
	open := before[strings.LastIndex(before, "\n\n")+2:]
	assert.True(t, strings.HasPrefix(open, "````text\n"), "fence before the message: %q", open)
	assert.Contains(t, md[i:], "\n````\n\n</details>")
	assert.Equal(t, 3, strings.Count(md, "<details>"), "one collapsed section per exercise that does not pass")
	assert.Equal(t, 3, strings.Count(md, "</details>"))
}

// TestGitHubFileEscaped: a file named with the separators of a workflow
// command keeps its file= and line=, escaped as GitHub's toolkit escapes a
// property (%25, %0D, %0A, %3A, %2C), from compiler output and from a
// panic's frame alike.
func TestGitHubFileEscaped(t *testing.T) {
	const name = "we,ird:50%.go"
	graded := fixture(t)
	cb, tb := graded[0].Result, graded[1].Result
	for i := range cb.Tests {
		if f := cb.Tests[i].Failure; f != nil {
			f.Frame = strings.ReplaceAll(f.Frame, "circuitbreaker.go", name)
		}
	}
	tb.Problem.Detail = strings.ReplaceAll(tb.Problem.Detail, "tokenbucket.go", name)
	require.Contains(t, tb.Problem.Detail, name)

	var b bytes.Buffer
	require.NoError(t, report.GitHub(&b, i18n.New("en"), graded, "ws"))
	out := b.String()
	assert.Contains(t, out, "::error file=ws/circuitbreaker/we%2Cird%3A50%25.go,line=43,title=", "the panic's frame")
	assert.Contains(t, out, "::error file=ws/tokenbucket/we%2Cird%3A50%25.go,line=15,title=", "the compiler's position")
	as := annotations(t, out)
	assert.Equal(t, "ws/circuitbreaker/"+name, as[0].props["file"])
	assert.Equal(t, "ws/tokenbucket/"+name, as[1].props["file"])
}

// TestGitHubFileWithLineBreak: a line break in a file name reaches GitHub
// as %0A, which it reads back as the line break, never as a backslash
// and an n; other control characters are shown as escapes.
func TestGitHubFileWithLineBreak(t *testing.T) {
	graded := fixture(t)
	graded[0].Result.Tests[1].Failure.Frame = "github.com/kurs-course/kurs/circuitbreaker/new\nline\x1b.go:43"
	var b bytes.Buffer
	require.NoError(t, report.GitHub(&b, i18n.New("en"), graded, "ws"))
	assert.Contains(t, b.String(), "::error file=ws/circuitbreaker/new%0Aline\\x1b.go,line=43,")
	assert.NotContains(t, b.String(), `file=ws/circuitbreaker/new\nline`)
}
