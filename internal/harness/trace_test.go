package harness

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counter is a toy subject: Inc adds one, and the wrong variant forgets
// every third increment after the fifth call, which only long traces reach.
type counter struct {
	n, calls int
	wrong    bool
}

func (c *counter) Do(call string, args []float64) string {
	c.calls++
	if call == "Inc" && !(c.wrong && c.calls > 5 && c.calls%3 == 0) {
		c.n++
	}
	return ""
}

func (c *counter) Observe() string { return strconv.Itoa(c.n) }

func toy(newSubject func() Subject) Traces {
	return Traces{
		Observe: "N()",
		New:     func([]float64) Subject { return newSubject() },
		Random: func(r *rand.Rand) Trace {
			tr := Trace{New: []float64{0}}
			for range 20 + r.IntN(30) {
				tr.Steps = append(tr.Steps, Step{Call: "Inc"})
			}
			return tr
		},
	}
}

func right() Subject { return &counter{} }

// connect runs learner's Serve in a goroutine, as the learner's program
// would, and returns the judge's client; the conversation ends with the
// test.
func connect(t *testing.T, learner Driver) *Learner {
	t.Helper()
	reqR, reqW := io.Pipe()
	repR, repW := io.Pipe()
	go func() {
		answer(learner, reqR, repW)
		repW.Close()
	}()
	t.Cleanup(func() { reqW.Close(); repR.Close() })
	l := NewLearner(reqW, repR)
	require.NoError(t, l.Ready())
	return l
}

func TestRandomTracesFindAndShrink(t *testing.T) {
	l := connect(t, toy(func() Subject { return &counter{wrong: true} }))
	f, err := toy(right).Judge(Test{Name: "random", Random: 100}, 7, l)
	require.NoError(t, err)
	require.NotNil(t, f)
	assert.Equal(t, Mismatch, f.Kind)
	assert.Equal(t, 6, f.Step, "the shortest failing trace has six calls")
	assert.Len(t, f.Done, 5)
	assert.Greater(t, f.Original, 6, "shrunk from the longer random trace")
	assert.Equal(t, uint64(7), f.Seed)
	require.NotNil(t, f.Init, "the state after New is shown")
	assert.Equal(t, "0", f.Init.Obs)
}

func TestRightSubjectPasses(t *testing.T) {
	l := connect(t, toy(right))
	f, err := toy(right).Judge(Test{Name: "random", Random: 1000}, 7, l)
	require.NoError(t, err)
	assert.Nil(t, f)
}

func TestFixedWantOverridesReference(t *testing.T) {
	l := connect(t, toy(right))
	tc := Test{Name: "fixed", New: []float64{0}, Steps: []Step{{Call: "Inc", Obs: "2"}}}
	f, err := toy(right).Judge(tc, 1, l)
	require.NoError(t, err)
	require.NotNil(t, f, "the trace's own expectation decides, not the reference")
	assert.Equal(t, Result{Obs: "2"}, f.Want)
	assert.Equal(t, Result{Obs: "1"}, f.Got)
}

type panicky struct {
	counter
	value any
}

func (p *panicky) Do(string, []float64) string { panic(p.value) }

type silent struct{}

func (silent) Error() string    { return "" }
func (silent) GoString() string { return "" }

func TestPanicIsReportedWithStep(t *testing.T) {
	for _, v := range []any{"boom", silent{}, fmt.Errorf("")} {
		l := connect(t, toy(func() Subject { return &panicky{value: v} }))
		f, err := toy(right).Judge(Test{Name: "p", New: []float64{0}, Steps: []Step{{Call: "Inc"}}}, 1, l)
		require.NoError(t, err)
		require.NotNil(t, f)
		assert.Equal(t, Panicked, f.Kind, "a panic whatever its value prints as: %#v", v)
		assert.NotEmpty(t, f.Panic)
		assert.Equal(t, 1, f.Step)
		assert.Equal(t, "Inc()", f.Call)
	}
}

type badObserve struct{ counter }

func (badObserve) Observe() string { panic("in observe") }

func TestPanicInObservationNamesTheObservation(t *testing.T) {
	l := connect(t, toy(func() Subject { return &badObserve{} }))
	f, err := toy(right).Judge(Test{Name: "p", New: []float64{0}, Steps: []Step{{Call: "Inc"}}}, 1, l)
	require.NoError(t, err)
	require.NotNil(t, f)
	assert.Equal(t, Panicked, f.Kind)
	assert.Equal(t, "N()", f.Call, "the observation panicked, not New or Inc")
}

// liar is a learner's program that answers outside the protocol or claims
// things: none of it may pass.
type liar struct{ lines []string }

func (d liar) Judge(Test, uint64, *Learner) (*Failure, error) { return nil, nil }

func (d liar) Serve(_ Request, r *Replier) {
	for _, l := range d.lines {
		r.write([]byte(l + "\n"))
	}
}

func TestLyingLearnerCannotPass(t *testing.T) {
	fixed := Test{Name: "fixed", New: []float64{0}, Steps: []Step{{Call: "Inc"}, {Call: "Inc"}}}
	for name, lines := range map[string][]string{
		"nothing":         nil,
		"a pass record":   {`{"kind":"result","test":"fixed","status":"pass"}`},
		"too few steps":   {`s 0 0 "" "0"`, `s 0 1 "" "1"`},
		"wrong trace":     {`s 1 0 "" "0"`},
		"step twice":      {`s 0 0 "" "0"`, `s 0 0 "" "0"`, `s 0 1 "" "1"`, `s 0 2 "" "2"`},
		"unquoted":        {`s 0 0 0 0`},
		"wrong values":    {`s 0 0 "" "0"`, `s 0 1 "" "1"`, `s 0 2 "" "3"`},
		"extra trace":     {`s 0 0 "" "0"`, `s 0 1 "" "1"`, `s 0 2 "" "2"`, `s 1 0 "" "0"`},
		"negative number": {`s -1 0 "" "0"`},
	} {
		t.Run(name, func(t *testing.T) {
			l := connect(t, liar{lines: lines})
			f, err := toy(right).Judge(fixed, 1, l)
			assert.True(t, f != nil || err != nil, "a lie passed")
		})
	}
}

func TestHugeValueIsClipped(t *testing.T) {
	l := connect(t, liar{lines: []string{`s 0 0 "" ` + strconv.Quote(strings.Repeat("a", 3<<20))}})
	f, err := toy(right).Judge(Test{Name: "fixed", New: []float64{0}}, 1, l)
	require.NoError(t, err)
	require.NotNil(t, f)
	assert.LessOrEqual(t, len(f.Got.Obs), MaxValue+len("…"))
}

func TestFormat(t *testing.T) {
	assert.Equal(t, "Allow(9)", FormatCall("Allow", []float64{9}))
	assert.Equal(t, "New(3, 0.5)", FormatCall("New", []float64{3, 0.5}))
	assert.Equal(t, "0.3", Float(0.1+0.2))
	assert.Equal(t, "0", Float(-0.0000000001))
}
