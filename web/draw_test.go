package web

import (
	"encoding/xml"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
)

// breakerLate is the seed's trace New(3, 5) as a breaker that probes one
// tick late reports it: the same as the reference up to Allow(9).
var breakerLate = &harness.Failure{
	Kind: harness.Mismatch, New: []float64{3, 5}, Observe: "State()", Step: 8, Call: "Allow(9)",
	Done: []harness.Done{
		{Call: "Failure(0)", Got: harness.Result{Obs: "closed"}},
		{Call: "Failure(1)", Got: harness.Result{Obs: "closed"}},
		{Call: "Success()", Got: harness.Result{Obs: "closed"}},
		{Call: "Failure(2)", Got: harness.Result{Obs: "closed"}},
		{Call: "Failure(3)", Got: harness.Result{Obs: "closed"}},
		{Call: "Failure(4)", Got: harness.Result{Obs: "open"}},
		{Call: "Allow(8)", Got: harness.Result{Ret: "false", Obs: "open"}},
	},
	Want: harness.Result{Ret: "true", Obs: "half_open"},
	Got:  harness.Result{Ret: "false", Obs: "open"},
}

// bucketNoCap is the seed's table for capacity 3, rate 0.5 from a bucket
// that forgets the capacity.
var bucketNoCap = &harness.Failure{
	Kind: harness.Mismatch, New: []float64{3, 0.5}, Observe: "Tokens()", Step: 8, Call: "Allow(100)",
	Done: []harness.Done{
		{Call: "Allow(0)", Got: harness.Result{Ret: "true", Obs: "2"}},
		{Call: "Allow(0)", Got: harness.Result{Ret: "true", Obs: "1"}},
		{Call: "Allow(0)", Got: harness.Result{Ret: "true", Obs: "0"}},
		{Call: "Allow(0)", Got: harness.Result{Ret: "false", Obs: "0"}},
		{Call: "Allow(1)", Got: harness.Result{Ret: "false", Obs: "0.5"}},
		{Call: "Allow(2)", Got: harness.Result{Ret: "true", Obs: "0"}},
		{Call: "Allow(4)", Got: harness.Result{Ret: "true", Obs: "0"}},
	},
	Want: harness.Result{Ret: "true", Obs: "2"},
	Got:  harness.Result{Ret: "true", Obs: "47"},
}

// svgNode is an element of a drawing, with the attributes the tests read.
type svgNode struct {
	name  string
	attrs map[string]string
	text  string
}

// parseSVG checks that a drawing is well-formed XML and returns its
// elements.
func parseSVG(t *testing.T, svg string) []svgNode {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var nodes []svgNode
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the drawing is not well-formed:\n%s", svg)
		switch x := tok.(type) {
		case xml.StartElement:
			n := svgNode{name: x.Name.Local, attrs: map[string]string{}}
			for _, a := range x.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			nodes = append(nodes, n)
		case xml.CharData:
			if len(nodes) > 0 {
				nodes[len(nodes)-1].text += string(x)
			}
		}
	}
	require.NotEmpty(t, nodes)
	assert.Equal(t, "svg", nodes[0].name)
	return nodes
}

func find(nodes []svgNode, name, class string) []svgNode {
	var out []svgNode
	for _, n := range nodes {
		if n.name == name && (class == "" || n.attrs["class"] == class) {
			out = append(out, n)
		}
	}
	return out
}

// lastY returns the vertical position where a path ends.
func lastY(t *testing.T, d string) float64 {
	t.Helper()
	m := regexp.MustCompile(`V([\d.]+)[^V]*$`).FindStringSubmatch(d)
	require.NotNil(t, m, "path %q", d)
	y, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	return y
}

func TestDrawBreakerStates(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		p := i18n.New(lang)
		nodes := parseSVG(t, string(drawTrace(p, breakerLate)))
		var lanes []string
		for _, n := range find(nodes, "text", "") {
			if n.attrs["text-anchor"] == "end" && n.attrs["dominant-baseline"] == "middle" {
				lanes = append(lanes, n.text)
			}
		}
		assert.Equal(t, []string{"open", "half_open", "closed"}, lanes, "one lane per state, open on top")
		learner := find(nodes, "path", "learner")
		want := find(nodes, "path", "want")
		require.Len(t, learner, 1)
		require.Len(t, want, 1)
		assert.Contains(t, want[0].attrs["stroke-dasharray"], "6", "the reference is dashed")
		assert.Less(t, lastY(t, learner[0].attrs["d"]), lastY(t, want[0].attrs["d"]),
			"at the failing step the learner's line stays on open, the reference goes down to half_open")
		assert.Len(t, find(nodes, "circle", "learner"), 8, "a point per step")
		assert.Len(t, find(nodes, "rect", "failing-step"), 1)
		var labels []string
		for _, n := range find(nodes, "text", "") {
			labels = append(labels, n.text)
		}
		all := strings.Join(labels, "|")
		assert.Contains(t, all, "Allow(9)")
		assert.Contains(t, all, p.T("web.draw.want_value", "Value", "half_open"))
		assert.Contains(t, all, p.T("web.draw.got_value", "Value", "open"))
		assert.NotRegexp(t, missingMessage, all)
	}
}

func TestDrawBucketTokens(t *testing.T) {
	nodes := parseSVG(t, string(drawTrace(i18n.New("en"), bucketNoCap)))
	learner := find(nodes, "polyline", "learner")
	want := find(nodes, "polyline", "want")
	require.Len(t, learner, 1)
	require.Len(t, want, 1)
	lp := strings.Fields(learner[0].attrs["points"])
	wp := strings.Fields(want[0].attrs["points"])
	require.Len(t, lp, 8)
	require.Len(t, wp, 8)
	assert.Equal(t, lp[:7], wp[:7], "the lines agree up to the failing step")
	assert.NotEqual(t, lp[7], wp[7])
	y := func(pt string) float64 {
		v, err := strconv.ParseFloat(strings.Split(pt, ",")[1], 64)
		require.NoError(t, err)
		return v
	}
	assert.Less(t, y(lp[7]), y(wp[7]), "47 tokens are drawn above 2")
	assert.Less(t, y(lp[0]), y(lp[2]), "2 tokens above 0")
}

func TestDrawNothingToDraw(t *testing.T) {
	p := i18n.New("en")
	assert.Empty(t, drawTrace(p, nil))
	assert.Empty(t, drawTrace(p, &harness.Failure{Kind: harness.Quiz, Case: 1, Given: "A"}))
	assert.Empty(t, drawTrace(p, &harness.Failure{Kind: harness.Mismatch, Observe: "State()", Step: 0, Call: "New(1, 1)",
		Want: harness.Result{Obs: "closed"}, Got: harness.Result{Obs: ""}}), "a failing constructor has one point")

	// A panic: the reference's value at the step, none for the learner.
	f := *breakerLate
	f.Kind, f.Got, f.Panic = harness.Panicked, harness.Result{}, "boom"
	nodes := parseSVG(t, string(drawTrace(p, &f)))
	assert.Len(t, find(nodes, "circle", "learner"), 7)
	assert.Len(t, find(nodes, "circle", "want"), 8)
}

// TestTraceViewSideBySide: the table lays out the explanation's rows,
// expected and actual side by side, with the values as the terminal
// writes them.
func TestTraceViewSideBySide(t *testing.T) {
	p := i18n.New("en")
	viewOf := func(f *harness.Failure) *traceView {
		res := &checker.Result{Status: checker.Fail, Tests: []checker.Test{{Name: "seed", Status: checker.Fail, Failure: f}}}
		te := explain.ExplainTest(p, nil, res, &res.Tests[0])
		require.NotNil(t, te.Trace)
		return newTraceView(p, te.Trace)
	}
	tv := viewOf(breakerLate)
	require.Len(t, tv.Rows, 9, "New, seven steps that ran, the failing one")
	require.Len(t, tv.Columns, 2, "returns and State()")
	assert.Equal(t, "New(3, 5)", tv.Rows[0].Call)
	assert.Equal(t, traceRow{Kind: explain.RowStep, N: "7", Call: "Allow(8)",
		Want: []cellView{{Value: "false"}, {Value: `"open"`}}, Got: []cellView{{Value: "false"}, {Value: `"open"`}},
		Side: `→ false, State() = "open"`}, tv.Rows[7])
	last := tv.Rows[8]
	assert.Equal(t, explain.RowFailing, last.Kind)
	assert.Equal(t, []cellView{{Value: "true"}, {Value: `"half_open"`}}, last.Want)
	assert.Equal(t, []cellView{{Value: "false", Bad: true}, {Value: `"open"`, Bad: true}}, last.Got)

	tv = viewOf(bucketNoCap)
	assert.False(t, tv.Rows[8].Got[0].Bad, "both returned true")
	assert.True(t, tv.Rows[8].Got[1].Bad)

	// Without a returned value, the column is left out.
	f := *breakerLate
	f.Done = f.Done[:6]
	f.Step, f.Call, f.Want.Ret, f.Got.Ret = 7, "Allow(8)", "", ""
	f.Want.Obs, f.Got.Obs = "open", "closed"
	tv = viewOf(&f)
	assert.Len(t, tv.Columns, 1)
	assert.Len(t, tv.Rows[len(tv.Rows)-1].Got, 1)
}

func TestDrawCompoundObservation(t *testing.T) {
	f := &harness.Failure{
		Kind: harness.Mismatch, Observe: "State(), now()", Step: 3, Call: "Call(10)",
		Done: []harness.Done{
			{Call: "Call(0)", Got: harness.Result{Obs: "closed, 0"}},
			{Call: "Call(50)", Got: harness.Result{Obs: "open, 50"}},
		},
		Want: harness.Result{Obs: "half_open, 60"}, Got: harness.Result{Obs: "open, 60"},
	}
	nodes := parseSVG(t, string(drawTrace(i18n.New("en"), f)))
	var lanes []string
	for _, n := range find(nodes, "text", "") {
		if n.attrs["dominant-baseline"] == "middle" {
			lanes = append(lanes, n.text)
		}
	}
	assert.Equal(t, []string{"open", "half_open", "closed"}, lanes, "the states, without the times")
	var labels []string
	for _, n := range find(nodes, "text", "mismatch") {
		labels = append(labels, n.text)
	}
	assert.Equal(t, []string{"step 3: expected half_open, 60 · yours open, 60"}, labels, "the note names the whole values")

	// Too many different names for lanes: no drawing, the table shows it.
	for i := range f.Done {
		f.Done[i].Got.Obs = "x" + strconv.Itoa(i) + "-" + f.Done[i].Got.Obs
	}
	f.Done = append(f.Done, harness.Done{Call: "a", Got: harness.Result{Obs: "a"}}, harness.Done{Call: "b", Got: harness.Result{Obs: "b"}},
		harness.Done{Call: "c", Got: harness.Result{Obs: "c"}}, harness.Done{Call: "d", Got: harness.Result{Obs: "d"}})
	f.Observe = "Name()"
	assert.Empty(t, drawTrace(i18n.New("en"), f))
}
