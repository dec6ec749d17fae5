package harness

import (
	"bufio"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestRoundTrip(t *testing.T) {
	reqs := []Request{
		{Traces: []Trace{
			{New: []float64{3, 5}, Steps: []Step{{Call: "Failure", Args: []float64{0}}, {Call: "Success"}}},
			{New: nil, Steps: []Step{{Call: "Allow", Args: []float64{0.1, -2.5, 1e300, math.Inf(-1)}}}},
		}},
		{Measure: `stress 3 "odd" name`},
		{Traces: []Trace{{New: []float64{1}}}},
	}
	var b []byte
	for _, req := range reqs {
		var err error
		b, err = appendRequest(b, req)
		require.NoError(t, err)
	}
	r := bufio.NewReader(strings.NewReader(string(b)))
	for _, want := range reqs {
		got, err := readRequest(r)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := readRequest(r)
	assert.Equal(t, io.EOF, err)
}

// The judge keeps what it expects: a fixed test's wanted values never
// reach the learner's program.
func TestRequestCarriesNoExpectation(t *testing.T) {
	req := Request{Traces: []Trace{{New: []float64{2}, Steps: []Step{{Call: "Allow", Args: []float64{1}, Want: "secret-ret", Obs: "secret-obs"}}}}}
	b, err := appendRequest(nil, req)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "secret")
	got, err := readRequest(bufio.NewReader(strings.NewReader(string(b))))
	require.NoError(t, err)
	assert.Equal(t, Step{Call: "Allow", Args: []float64{1}}, got.Traces[0].Steps[0])
}

func TestRequestRefusesBadNames(t *testing.T) {
	for _, call := range []string{"", "Two words", "line\nbreak"} {
		_, err := appendRequest(nil, Request{Traces: []Trace{{Steps: []Step{{Call: call}}}}})
		assert.Error(t, err, "%q", call)
	}
}

func TestBrokenRequestIsAnError(t *testing.T) {
	for _, in := range []string{"t 1\nc Allow x\nx\n", "c Allow 1\nx\n", "q\n", "m notquoted\n", "t 1\nc Allow 1\n"} {
		_, err := readRequest(bufio.NewReader(strings.NewReader(in)))
		assert.Error(t, err, "%q", in)
	}
}

func TestQuoteFieldsRoundTrip(t *testing.T) {
	for _, vs := range [][]string{nil, {""}, {"A", "b c", "\"q\"", "ünï\n"}} {
		got, ok := UnquoteFields(QuoteFields(vs...))
		require.True(t, ok)
		assert.Equal(t, len(vs), len(got))
		for i := range vs {
			assert.Equal(t, vs[i], got[i])
		}
	}
	for _, bad := range []string{`"a""b"`, `"a" x`, `x`, `"a" `} {
		_, ok := UnquoteFields(bad)
		assert.False(t, ok, bad)
	}
}

func TestStressReportRoundTrip(t *testing.T) {
	for _, rep := range []stressReport{
		{Claims: Claims{"maxInUse": 3, "races": 0, "minFree": -1}},
		{Panic: "boom", Frame: "pool.go:12"},
		{Claims: Claims{}},
	} {
		got, ok := decodeStress(rep.encode())
		require.True(t, ok)
		assert.Equal(t, rep, got)
	}
	_, ok := decodeStress(`"claims" "n"`)
	assert.False(t, ok)
}
