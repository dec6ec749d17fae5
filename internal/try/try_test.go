package try

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
)

func breaker(t *testing.T) *course.Exercise {
	t.Helper()
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	ex, ok := c.Exercise("circuitbreaker")
	require.True(t, ok)
	return ex
}

func TestParse(t *testing.T) {
	api := APIOf(breaker(t))
	tr, err := Parse("  New(3, 5) Failure(0)\tAllow(6) Success() ", api)
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 5}, tr.New)
	require.Len(t, tr.Steps, 3)
	assert.Equal(t, "Allow", tr.Steps[1].Call)
	assert.Equal(t, []float64{6}, tr.Steps[1].Args)
	assert.Empty(t, tr.Steps[2].Args)

	// What the exercise observes after every call may be asked for too.
	tr, err = Parse("New(3, 5) Failure(0) State()", api)
	require.NoError(t, err)
	require.Len(t, tr.Steps, 2)
	assert.Equal(t, "State", tr.Steps[1].Call)
	assert.True(t, api.IsObservation("State"))
	assert.False(t, api.IsObservation("Allow"))
}

// Each mistake is named where it is, with a message a learner can act on.
func TestParseErrors(t *testing.T) {
	api := APIOf(breaker(t))
	en := i18n.New("en")
	for _, tt := range []struct {
		trace string
		col   int
		msg   string
	}{
		{"Allow(3)", 1, "a trace starts with New"},
		{"New(3, 5) Fail(0)", 11, "there is no call Fail in this exercise; the calls are: Allow, Failure, State, Success"},
		{"New(3, 5) Allow()", 11, "Allow takes 1 argument, not 0"},
		{"New(3)", 1, "New takes 2 arguments, not 1"},
		{"New(3, x)", 8, "expected a number after the comma"},
		{"New(x)", 5, "expected a number: New takes 2 arguments"},
		{"New(3,5) Failure(x)", 18, "expected a number: Failure takes 1 argument"},
		{"New(3,5) Allow((40))", 16, "expected a number: Allow takes 1 argument"},
		{"New(3,5) State(x)", 16, "expected “)”: State takes no arguments"},
		// A fraction or an exponent is no int, and is not rounded to one.
		{"New(3, 5) Allow(6.9)", 17, "Allow takes a whole number here, written in digits such as 42, not 6.9"},
		{"New(3, 5) Allow(7e0)", 17, "Allow takes a whole number here, written in digits such as 42, not 7e0"},
		{"New(3.0, 5)", 5, "New takes a whole number here, written in digits such as 42, not 3.0"},
		{"New(3, 5) Allow(1..2)", 17, "1..2 is not a number"},
		// Nor is a number an int64 cannot hold, or float64 cannot carry exactly.
		{"New(3, 5) Allow(99999999999999999999)", 17, "99999999999999999999 is out of range: a trace passes whole numbers from -9007199254740992 to 9007199254740992"},
		{"New(3, 5) Allow(12345678901234567)", 17, "12345678901234567 is out of range"},
		{"New(3, 5) Allow(-9007199254740993)", 17, "-9007199254740993 is out of range"},
		{"New(3, 5) Allow(1", 18, "expected a comma and the next number, or “)” to close Allow(…)"},
		{"New(3, 5) Allow(1e999)", 17, "1e999 is not a number"},
		{"New(3, 5) New(1, 2)", 11, "New comes only once"},
		{"New(3, 5)Allow(1)", 10, "expected a space before the next call"},
		{"New(3, 5) Allow 1", 16, "expected “(” after Allow: a call is written Allow(…)"},
		{"New(3, 5) Allow(1, )", 20, "expected a number after the comma"},
		{"New(3, 5) (1)", 11, "expected a call"},
		{"Nëw(3, 5) Allow", 1, "a trace starts with New"},
		{"New(3, 5) Allöw(1)", 11, "there is no call Allöw"},
		{"New(3, 5) Allow(1) Fail", 20, "there is no call Fail"},
		{"New(3, 5) State(1)", 11, "State takes 0 arguments, not 1"},
		{"New(3, 5)" + strings.Repeat(" Allow(1)", MaxSteps+1), 10 + 9*MaxSteps + 1, "at most 200 steps"},
	} {
		_, err := Parse(tt.trace, api)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%q parses", tt.trace)
		assert.Equal(t, tt.col, se.Col, "%q", tt.trace)
		assert.Contains(t, se.Message(en), tt.msg, "%q", tt.trace)
	}
	// The column counts characters, not bytes.
	_, err := Parse("New(3, 5) Allow(ä)", api)
	var se *SyntaxError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, 17, se.Col)
	assert.Equal(t, "hier fehlt eine Zahl: Allow erwartet 1 Argument", se.Message(i18n.New("de")))
	assert.Equal(t, "column 17: expected a number: Allow takes 1 argument", se.Error())

	_, err = Parse("New(3, 5) Allow(6.9)", api)
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "Allow erwartet hier eine ganze Zahl, in Ziffern geschrieben wie 42, nicht 6.9", se.Message(i18n.New("de")))

	// An empty trace is said to be empty, not a mistake at a column.
	for _, empty := range []string{"", "  \t "} {
		_, err = Parse(empty, api)
		assert.ErrorIs(t, err, ErrEmpty, "%q", empty)
	}
}

// The whole numbers a trace carries exactly parse to themselves.
func TestParseWholeNumbers(t *testing.T) {
	api := APIOf(breaker(t))
	tr, err := Parse("New(+3, 05) Allow(9007199254740992) Allow(-9007199254740992) Failure(-0)", api)
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 5}, tr.New)
	assert.Equal(t, []float64{1 << 53}, tr.Steps[0].Args)
	assert.Equal(t, []float64{-(1 << 53)}, tr.Steps[1].Args)
	assert.Equal(t, []float64{0}, tr.Steps[2].Args)
}

// Every trace exercise offers an example that parses, and it is the one
// of its first fixed test.
func TestExampleParses(t *testing.T) {
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	n := 0
	for _, ex := range c.Exercises {
		if !Supported(ex) {
			assert.Empty(t, Example(ex), ex.ID)
			continue
		}
		n++
		example := Example(ex)
		require.NotEmpty(t, example, ex.ID)
		_, err := Parse(example, APIOf(ex))
		assert.NoError(t, err, "%s: %s", ex.ID, example)
	}
	assert.Positive(t, n)
	assert.True(t, strings.HasPrefix(Example(breaker(t)), "New(3, 5) Failure(0) Failure(1) Success() Failure(2)"), Example(breaker(t)))
}

// A breaker that never opens.
const neverOpens = `package circuitbreaker

type CircuitBreaker struct{ state string }

func New(threshold, wait int) *CircuitBreaker { return &CircuitBreaker{state: "closed"} }

func (b *CircuitBreaker) State() string      { return b.state }
func (b *CircuitBreaker) Allow(now int) bool { return true }
func (b *CircuitBreaker) Success()           {}
func (b *CircuitBreaker) Failure(now int)    {}
`

// run tries trace on src as the learner's file.
func run(t *testing.T, ck *checker.Checker, ex *course.Exercise, src, trace string, timeout time.Duration) *Comparison {
	t.Helper()
	tr, err := Parse(trace, APIOf(ex))
	require.NoError(t, err)
	var mine []course.File
	if src != "" {
		mine = []course.File{{Name: "circuitbreaker.go", Data: []byte(src)}}
	}
	c, err := Run(context.Background(), ck, ex, mine, tr, timeout)
	require.NoError(t, err)
	return c
}

// texts returns each row as the front ends show it: step, call, mine,
// reference, and "✗" where they differ.
func texts(c *Comparison) [][]string {
	p := i18n.New("en")
	var out [][]string
	for _, r := range c.Rows {
		mark := ""
		if r.Differs {
			mark = "✗"
		}
		out = append(out, []string{strings.Repeat("·", r.Step), r.Call, r.Mine.Text(p, c.Observe), r.Ref.Text(p, c.Observe), mark})
	}
	return out
}

func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	ex := breaker(t)
	ck := &checker.Checker{TempDir: t.TempDir()}
	en := i18n.New("en")

	t.Run("differing steps", func(t *testing.T) {
		c := run(t, ck, ex, neverOpens, "New(3, 5) Failure(0) Failure(1) Failure(2) Allow(3)", 0)
		require.Nil(t, c.Problem)
		assert.Equal(t, 3, c.First)
		assert.Equal(t, [][]string{
			{"", "New(3, 5)", `State() = "closed"`, `State() = "closed"`, ""},
			{"·", "Failure(0)", `State() = "closed"`, `State() = "closed"`, ""},
			{"··", "Failure(1)", `State() = "closed"`, `State() = "closed"`, ""},
			{"···", "Failure(2)", `State() = "closed"`, `State() = "open"`, "✗"},
			{"····", "Allow(3)", `true, State() = "closed"`, `false, State() = "open"`, "✗"},
		}, texts(c))
		assert.Equal(t, "The answers first differ at step 3.", c.Summary(en))
	})

	t.Run("observations typed as calls", func(t *testing.T) {
		c := run(t, ck, ex, neverOpens, "New(1, 5) State() Failure(0) State() Allow(1)", 0)
		require.Nil(t, c.Problem)
		assert.Equal(t, 2, c.First)
		assert.Equal(t, [][]string{
			{"", "New(1, 5)", `State() = "closed"`, `State() = "closed"`, ""},
			{"·", "State()", `State() = "closed"`, `State() = "closed"`, ""},
			{"··", "Failure(0)", `State() = "closed"`, `State() = "open"`, "✗"},
			{"···", "State()", `State() = "closed"`, `State() = "open"`, "✗"},
			{"····", "Allow(1)", `true, State() = "closed"`, `false, State() = "open"`, "✗"},
		}, texts(c))
	})

	t.Run("the reference itself", func(t *testing.T) {
		ref, err := ex.Solution()
		require.NoError(t, err)
		c := run(t, ck, ex, string(ref[0].Data), "New(1, 0) Failure(0) Allow(0) Success()", 0)
		require.Len(t, c.Rows, 4)
		for _, r := range c.Rows {
			assert.False(t, r.Differs, r.Call)
		}
		assert.Equal(t, -1, c.First)
		assert.Equal(t, "Dein Code antwortet bei jedem Schritt dieser Spur wie die Referenz.", c.Summary(i18n.New("de")))
	})

	t.Run("a panic in the learner's code", func(t *testing.T) {
		src := strings.Replace(neverOpens, "func (b *CircuitBreaker) Failure(now int)    {}",
			"func (b *CircuitBreaker) Failure(now int) {\n\tif now == 1 {\n\t\tpanic(\"boom\")\n\t}\n}", 1)
		c := run(t, ck, ex, src, "New(3, 5) Failure(0) Failure(1) Failure(2)", 0)
		require.Nil(t, c.Problem)
		require.Len(t, c.Rows, 4, "the reference goes on after the learner's panic")
		r := c.Rows[2]
		assert.True(t, r.Mine.Panicked)
		assert.Equal(t, "panic: boom (at circuitbreaker/circuitbreaker.go:12)", r.Mine.Text(en, c.Observe))
		assert.True(t, r.Differs)
		assert.Equal(t, 2, c.First)
		assert.Equal(t, "not reached", c.Rows[3].Mine.Text(en, c.Observe), "nothing after the panic")
		assert.Equal(t, "nicht erreicht", c.Rows[3].Mine.Text(i18n.New("de"), c.Observe))
		assert.Equal(t, `State() = "open"`, c.Rows[3].Ref.Text(en, c.Observe))
	})

	t.Run("a learner's program that hangs is stopped", func(t *testing.T) {
		src := strings.Replace(neverOpens, "func (b *CircuitBreaker) Allow(now int) bool { return true }",
			"func (b *CircuitBreaker) Allow(now int) bool {\n\tfor {\n\t}\n}", 1)
		c := run(t, ck, ex, src, "New(3, 5) Failure(0) Allow(1) Failure(2)", 2*time.Second)
		require.Nil(t, c.Problem)
		require.Len(t, c.Rows, 4)
		assert.True(t, c.Rows[2].Mine.Stopped)
		assert.Equal(t, "no answer (endless loop, or the program crashed)", c.Rows[2].Mine.Text(en, c.Observe))
		assert.Equal(t, 2, c.First)
		assert.False(t, c.Rows[1].Differs, "the steps before the loop were answered")
		assert.True(t, c.Rows[3].Mine.none())
	})

	t.Run("code that does not build", func(t *testing.T) {
		c := run(t, ck, ex, "package circuitbreaker\n\nfunc New( {\n", "New(3, 5)", 0)
		require.NotNil(t, c.Problem)
		assert.Equal(t, checker.ProblemCompile, c.Problem.Kind)
		assert.Empty(t, c.Rows)
	})

	t.Run("no files", func(t *testing.T) {
		c := run(t, ck, ex, "", "New(3, 5)", 0)
		require.NotNil(t, c.Problem)
		assert.Equal(t, checker.ProblemNoFiles, c.Problem.Kind)
	})
}

// A try ends with its context; nothing is left running.
func TestRunEndsWithItsContext(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	ex := breaker(t)
	tr, err := Parse("New(3, 5)", APIOf(ex))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Run(ctx, &checker.Checker{TempDir: t.TempDir()}, ex, []course.File{{Name: "circuitbreaker.go", Data: []byte(neverOpens)}}, tr, 0)
	assert.ErrorIs(t, err, context.Canceled)
}
