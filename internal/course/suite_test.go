package course

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTestTitles: a test's title comes from suite.json in the learner's
// language, a quiz case's from its heading; the checker's copy of the
// suite, which the judge reads, holds the tests without their titles.
func TestTestTitles(t *testing.T) {
	m := course()
	m["exercises/t/testdata/suite.json"].Data = []byte(`{"tests": [
  {"name": "a", "title": {"de": "Das Beispiel der Aufgabe", "en": "The task's example"}, "steps": [{"call": "X"}]},
  {"name": "b", "steps": [{"call": "X"}]}
]}`)
	m["exercises/q/quiz.de.md"] = m["exercises/q/quiz.en.md"]
	c, err := Load(m)
	require.NoError(t, err)
	tr, _ := c.Exercise("t")
	assert.Equal(t, "Das Beispiel der Aufgabe", tr.TestTitle("a", "de"))
	assert.Equal(t, "The task's example", tr.TestTitle("a", "en"))
	assert.Equal(t, "The task's example", tr.TestTitle("a", "fr"), "English when the language has none")
	assert.Empty(t, tr.TestTitle("b", "de"), "a test without a title")
	assert.Empty(t, tr.TestTitle("nope", "de"))
	q, _ := c.Exercise("q")
	assert.Equal(t, "Case 1", q.TestTitle("case1", "en"))

	judge, err := json.Marshal(tr.Suite)
	require.NoError(t, err)
	assert.NotContains(t, string(judge), "title")
	assert.Contains(t, string(judge), `"name":"a"`)
}

// TestTestTitlesAreStrict: a misspelled title and a title of the wrong
// type fail the load at their line, as every other key of suite.json.
func TestTestTitlesAreStrict(t *testing.T) {
	for in, want := range map[string]string{
		"{\"tests\": [\n{\"name\": \"a\",\n \"titel\": {\"en\": \"A\"}}]}":  `exercises/t/testdata/suite.json:3: unknown key "titel" (did you mean "title"?)`,
		"{\"tests\": [\n{\"name\": \"a\",\n \"title\": \"A\"}]}":            `exercises/t/testdata/suite.json:3: "tests/0/title" must be an object, not a string`,
		"{\"tests\": [\n{\"name\": \"a\",\n \"title\": {\"en\": true}}]}":   `exercises/t/testdata/suite.json:3: "tests/0/title/en" must be a string, not true or false`,
		"{\"$schema\": 1, \"tests\": [\n{\"name\": \"a\", \"title\": {}}]}": `exercises/t/testdata/suite.json:1: "$schema" must be a string, not a number`,
	} {
		m := course()
		m["exercises/t/testdata/suite.json"].Data = []byte(in)
		_, err := Load(m)
		assert.EqualError(t, err, want)
	}
}
