package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
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

// TestMisconceptionInEveryFormat: the text names the title and the
// explanation, the JSON document the id and the same title, and JUnit,
// GitHub and Gradescope the title, in the learner's language.
func TestMisconceptionInEveryFormat(t *testing.T) {
	ex := counterWithSignature(t)
	for _, lang := range []string{"en", "de"} {
		p := i18n.New(lang)
		res := counterResult("3", true)
		mc, _ := ex.Misconceptions()
		want := mc[0].Title.In(lang)

		text := explain.Explain(p, ex, res, explain.Options{}).Text(p, explain.TextOptions{})
		assert.Contains(t, text, p.T("misconception.named", "Title", want), lang)
		assert.Contains(t, text, strings.SplitN(mc[0].Explanation.In(lang), "\n", 2)[0], lang)

		doc := NewDocument(p, []explain.Graded{{Exercise: ex, Result: res}})
		var b bytes.Buffer
		require.NoError(t, JSON(&b, doc))
		var got struct {
			Exercises []struct {
				Misconception struct{ ID, Title string }
			}
		}
		require.NoError(t, json.Unmarshal(b.Bytes(), &got))
		assert.Equal(t, "add-sets-the-count", got.Exercises[0].Misconception.ID)
		assert.Equal(t, want, got.Exercises[0].Misconception.Title, "JSON's title is the one kurs check shows")

		for _, f := range []string{"junit", "github", "gradescope"} {
			b.Reset()
			format, ok := LookupFormat(f)
			require.True(t, ok)
			require.NoError(t, format.Single(&b, p, []explain.Graded{{Exercise: ex, Result: res}}, Run{}), f)
			assert.Contains(t, b.String(), want, "%s in %s", f, lang)
		}
		passed := NewDocument(p, []explain.Graded{{Exercise: ex, Result: counterResult("4", true)}})
		assert.Nil(t, passed.Exercises[0].Misconception, "another behaviour is not named")
	}
}

// TestUnchangedSkeleton: an untouched skeleton is marked as no attempt in
// the result document, and names no misconception; code that only behaves
// as the skeleton does is an attempt.
func TestUnchangedSkeleton(t *testing.T) {
	ex := counterWithSignature(t)
	res := counterResult("3", true)
	res.Tests[0].Failure = &harness.Failure{Kind: harness.Mismatch, New: []float64{2}, Step: 0, Observe: "Value()",
		Want: harness.Result{Obs: "2"}, Got: harness.Result{Obs: "0"}}
	doc := NewDocument(i18n.New("en"), []explain.Graded{{Exercise: ex, Result: res, Untouched: true}})
	assert.True(t, doc.Exercises[0].Skeleton)
	assert.Nil(t, doc.Exercises[0].Misconception)
	doc = NewDocument(i18n.New("en"), []explain.Graded{{Exercise: ex, Result: res}})
	assert.False(t, doc.Exercises[0].Skeleton, "code that behaves as the skeleton is an attempt")
}
