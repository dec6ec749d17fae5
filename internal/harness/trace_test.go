package harness

import (
	"math/rand/v2"
	"strconv"
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

func toy(wrong bool) Traces {
	return Traces{
		Observe: "N()",
		New:     func(ref bool, _ []float64) Subject { return &counter{wrong: wrong && !ref} },
		Random: func(r *rand.Rand) Trace {
			tr := Trace{New: []float64{0}}
			for range 20 + r.IntN(30) {
				tr.Steps = append(tr.Steps, Step{Call: "Inc"})
			}
			return tr
		},
	}
}

func TestRandomTracesFindAndShrink(t *testing.T) {
	f := toy(true).Run(Test{Name: "random", Random: 100}, 7, &Progress{})
	require.NotNil(t, f)
	assert.Equal(t, Mismatch, f.Kind)
	assert.Equal(t, 6, f.Step, "the shortest failing trace has six calls")
	assert.Len(t, f.Done, 5)
	assert.Greater(t, f.Original, 6, "shrunk from the longer random trace")
	assert.Equal(t, uint64(7), f.Seed)
}

func TestRightSubjectPasses(t *testing.T) {
	assert.Nil(t, toy(false).Run(Test{Name: "random", Random: 100}, 7, &Progress{}))
}

func TestFixedWantOverridesReference(t *testing.T) {
	tc := Test{Name: "fixed", New: []float64{0}, Steps: []Step{{Call: "Inc", Obs: "2"}}}
	f := toy(false).Run(tc, 1, &Progress{})
	require.NotNil(t, f, "the trace's own expectation decides, not the reference")
	assert.Equal(t, Result{Obs: "2"}, f.Want)
	assert.Equal(t, Result{Obs: "1"}, f.Got)
}

type panicky struct{ counter }

func (p *panicky) Do(string, []float64) string { panic("boom") }

func TestPanicIsReportedWithStep(t *testing.T) {
	d := toy(false)
	d.New = func(ref bool, _ []float64) Subject {
		if ref {
			return &counter{}
		}
		return &panicky{}
	}
	f := d.Run(Test{Name: "p", New: []float64{0}, Steps: []Step{{Call: "Inc"}}}, 1, &Progress{})
	require.NotNil(t, f)
	assert.Equal(t, Panicked, f.Kind)
	assert.Equal(t, "boom", f.Panic)
	assert.Equal(t, 1, f.Step)
	assert.Equal(t, "Inc()", f.Call)
}

func TestFormat(t *testing.T) {
	assert.Equal(t, "Allow(9)", FormatCall("Allow", []float64{9}))
	assert.Equal(t, "New(3, 0.5)", FormatCall("New", []float64{3, 0.5}))
	assert.Equal(t, "0.3", Float(0.1+0.2))
	assert.Equal(t, "0", Float(-0.0000000001))
}
