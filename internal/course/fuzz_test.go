package course

import (
	"testing"
	"testing/fstest"
)

// FuzzLoad feeds arbitrary exercise.json, suite.json and lesson.json files
// to the course loader: it must return a course or an error, never panic.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"id":"x","points":1,"title":{"en":"X"}}`), []byte(`{"tests":[{"name":"a","random":3}]}`), []byte(`{"id":"l","order":1}`))
	f.Add([]byte(`{"id":"Bad-Id"}`), []byte(`{"tests":[]}`), []byte(`{`))
	f.Add([]byte(`null`), []byte(`{"tests":[{"steps":[{"call":"Allow","args":[1e400]}]}]}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, exercise, suite, lesson []byte) {
		fsys := fstest.MapFS{
			"lessons/l/lesson.json":           {Data: lesson},
			"exercises/x/exercise.json":       {Data: exercise},
			"exercises/x/testdata/suite.json": {Data: suite},
			"exercises/x/solution/x.go":       {Data: []byte("package x\n")},
			"exercises/x/skeleton/en/x.go":    {Data: []byte("package x\n")},
			"exercises/x/testdata/driver.go":  {Data: []byte("package main\n")},
			"exercises/x/testdata/api.go":     {Data: []byte("package x\n")},
		}
		c, err := Load(fsys)
		if err == nil && len(c.Exercises) == 0 {
			t.Fatal("no error, but no exercises")
		}
	})
}
