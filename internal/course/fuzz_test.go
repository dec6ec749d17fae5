package course

import (
	"testing"
	"testing/fstest"
)

// FuzzLoad feeds arbitrary exercise.json, suite.json and lesson.json files
// and an arbitrary Markdown file, read as hints and as a quiz, to the
// course loader: it must return a course or an error, never panic.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"id":"x","kind":"trace","points":1,"title":{"en":"X"}}`), []byte(`{"tests":[{"name":"a","random":3}]}`), []byte(`{"id":"l","order":1,"exercises":["x"]}`), []byte("## 1\n\nA hint.\n"))
	f.Add([]byte(`{"id":"x","kind":"quiz","answers":["A"]}`), []byte(`{"tests":[]}`), []byte(`{`), []byte("## Case 1\n\nQ?\n\n### A\n\nYes.\n\n> Why.\n"))
	f.Add([]byte(`{"id":"Bad-Id"}`), []byte(`{"tests":[]}`), []byte(`{`), []byte("### A\n> x\n```\n## y"))
	f.Add([]byte(`null`), []byte(`{"tests":[{"steps":[{"call":"Allow","args":[1e400]}]}]}`), []byte(`[]`), []byte(""))
	f.Fuzz(func(t *testing.T, exercise, suite, lesson, md []byte) {
		fsys := fstest.MapFS{
			"lessons/l/lesson.json":           {Data: lesson},
			"exercises/x/exercise.json":       {Data: exercise},
			"exercises/x/testdata/suite.json": {Data: suite},
			"exercises/x/hints.en.md":         {Data: md},
			"exercises/x/quiz.en.md":          {Data: md},
			"exercises/x/task.en.md":          {Data: md},
			"exercises/x/solution/x.go":       {Data: []byte("package x\n")},
			"exercises/x/skeleton/en/x.go":    {Data: []byte("package x\n")},
			"exercises/x/testdata/driver.go":  {Data: []byte("package main\n")},
		}
		c, err := Load(fsys)
		if err == nil && len(c.Exercises) == 0 {
			t.Fatal("no error, but no exercises")
		}
		if err == nil {
			for _, e := range c.Exercises {
				if _, _, err := e.Tests(); err != nil && e.Kind() == KindQuiz {
					t.Fatalf("a quiz's test program: %v", err)
				}
			}
		}
	})
}
