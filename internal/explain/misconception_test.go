package explain

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/scaffold"
)

// counterWithSignature returns kurs new course's counter, whose
// misconception add-sets-the-count is recorded as failing the worked
// example at step 1 (5 expected, 3 returned) and the random traces.
func counterWithSignature(t *testing.T) *course.Exercise {
	t.Helper()
	files, err := scaffold.Course()
	require.NoError(t, err)
	m := fstest.MapFS{}
	for _, f := range files {
		m[f.Path] = &fstest.MapFile{Data: f.Data}
	}
	c, err := course.Load(m)
	require.NoError(t, err)
	ex, _ := c.Exercise("counter")
	hash, err := ex.BehaviourHash()
	require.NoError(t, err)
	data, err := course.MarshalSignatures(&course.Signatures{Hash: hash, Misconceptions: map[string]course.Signature{
		"add-sets-the-count": {Fail: []string{"seed/worked-example", "random"}, Steps: map[string]course.Departure{
			"seed/worked-example": {Kind: harness.Mismatch, Step: 1, Want: harness.Result{Obs: "5"}, Got: harness.Result{Obs: "3"}},
		}},
	}})
	require.NoError(t, err)
	m["exercises/counter/misconceptions/signatures.json"] = &fstest.MapFile{Data: data}
	c, err = course.Load(m)
	require.NoError(t, err)
	ex, _ = c.Exercise("counter")
	return ex
}

// counterResult is a failing result of the counter: the worked example
// departs at step 1 with got, and random fails when randomFails.
func counterResult(got string, randomFails bool) *checker.Result {
	res := &checker.Result{Exercise: "counter", Status: checker.Fail, MaxScore: 1, Tests: []checker.Test{
		{Name: "seed/worked-example", Status: checker.Fail, Failure: &harness.Failure{
			Kind: harness.Mismatch, New: []float64{2}, Step: 1, Call: "Add(3)", Observe: "Value()",
			Want: harness.Result{Obs: "5"}, Got: harness.Result{Obs: got}}},
		{Name: "random", Status: checker.Pass},
	}}
	if randomFails {
		res.Tests[1] = checker.Test{Name: "random", Status: checker.Fail, Failure: &harness.Failure{
			Kind: harness.Mismatch, New: []float64{1}, Step: 2, Call: "Add(-2)", Observe: "Value()", Seed: 1, Index: 4,
			Want: harness.Result{Obs: "0"}, Got: harness.Result{Obs: "-2"}}}
	}
	return res
}

// TestRecogniseMisconception: a result with the misconception's signature
// is named; one whose fixed trace departs with other values is not; one
// that agrees on the fixed trace but passes the random traces is at most
// "might be"; a passing result never.
func TestRecogniseMisconception(t *testing.T) {
	ex := counterWithSignature(t)
	r := Recognise(ex, counterResult("3", true))
	require.NotNil(t, r)
	assert.Equal(t, "add-sets-the-count", r.Misconception.ID)
	assert.False(t, r.Maybe)

	assert.Nil(t, Recognise(ex, counterResult("4", true)), "another value at the same step")

	r = Recognise(ex, counterResult("3", false))
	require.NotNil(t, r)
	assert.True(t, r.Maybe)
	assert.Equal(t, []string{"random"}, r.Others)

	pass := &checker.Result{Exercise: "counter", Status: checker.Pass, Tests: []checker.Test{
		{Name: "seed/worked-example", Status: checker.Pass}, {Name: "random", Status: checker.Pass}}}
	assert.Nil(t, Recognise(ex, pass))
}
