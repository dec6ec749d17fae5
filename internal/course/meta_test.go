package course

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repo is the repository's own course.
var repo = os.DirFS("../..")

// metadataFiles returns the course's metadata files by schema.
func metadataFiles(t *testing.T, fsys fs.FS) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for schema, pattern := range map[string]string{
		"exercise.schema.json":      "exercises/*/exercise.json",
		"lesson.schema.json":        "lessons/*/lesson.json",
		"suite.schema.json":         "exercises/*/testdata/suite.json",
		"misconception.schema.json": "exercises/*/misconceptions/*/misconception.json",
		"signatures.schema.json":    "exercises/*/misconceptions/signatures.json",
	} {
		files, err := fs.Glob(fsys, pattern)
		require.NoError(t, err)
		if strings.Contains(pattern, "misconceptions") && len(files) == 0 {
			continue // until the course has some
		}
		require.NotEmpty(t, files, pattern)
		out[schema] = files
	}
	return out
}

// TestMetadataMatchesSchema validates every metadata file of the course
// against its published JSON Schema, which each file names in "$schema".
func TestMetadataMatchesSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	for name, data := range Schemas() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		require.NoError(t, err, name)
		require.NoError(t, c.AddResource(name, doc), name)
	}
	for schema, files := range metadataFiles(t, repo) {
		sch, err := c.Compile(schema)
		require.NoError(t, err, schema)
		for _, file := range files {
			data, err := fs.ReadFile(repo, file)
			require.NoError(t, err)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			require.NoError(t, err, file)
			assert.NoError(t, sch.Validate(doc), file)
			var head struct {
				Schema string `json:"$schema"`
			}
			require.NoError(t, json.Unmarshal(data, &head))
			assert.Equal(t, "docs/schema/"+schema, path.Clean(path.Join(path.Dir(file), head.Schema)), "%s names its schema", file)
		}
	}
}

// TestSchemasArePublished: docs/schema/ holds the schemas kurs embeds, and
// each schema has exactly the keys the loader reads.
func TestSchemasArePublished(t *testing.T) {
	for name, data := range Schemas() {
		published, err := fs.ReadFile(repo, "docs/schema/"+name)
		require.NoError(t, err)
		assert.Equal(t, string(data), string(published), "docs/schema/%s differs from internal/course/schema/%s", name, name)
	}
	for _, c := range []struct {
		schema, def string // def: a definition of the schema's $defs, or "" for the whole file
		v           any
	}{
		{"exercise.schema.json", "", exerciseMeta{}},
		{"lesson.schema.json", "", lessonMeta{}},
		{"suite.schema.json", "", suiteFile{}},
		{"suite.schema.json", "test", suiteTest{}},
		{"misconception.schema.json", "", misconceptionMeta{}},
		{"signatures.schema.json", "", Signatures{}},
		{"signatures.schema.json", "signature", Signature{}},
		{"signatures.schema.json", "departure", Departure{}},
	} {
		var s struct {
			Properties map[string]any `json:"properties"`
			Defs       map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"$defs"`
		}
		require.NoError(t, json.Unmarshal(Schemas()[c.schema], &s))
		props := s.Properties
		if c.def != "" {
			props = s.Defs[c.def].Properties
		}
		var keys []string
		for k := range props {
			keys = append(keys, k)
		}
		fields := jsonKeys(reflect.TypeOf(c.v))
		slices.Sort(keys)
		slices.Sort(fields)
		assert.Equal(t, fields, keys, "%s %s", c.schema, c.def)
	}
}

// jsonKeys returns the JSON keys of a struct type's fields, those of an
// embedded struct inlined.
func jsonKeys(rt reflect.Type) []string {
	var keys []string
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Anonymous && f.Tag.Get("json") == "" {
			keys = append(keys, jsonKeys(f.Type)...)
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = append(keys, tag)
	}
	return keys
}

// TestShortJSONStrings: the course's JSON files hold no text to read, only
// short strings; tasks, hints and explanations live in Markdown files.
func TestShortJSONStrings(t *testing.T) {
	err := fs.WalkDir(repo, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && p != "lessons" && p != "exercises" && !strings.HasPrefix(p, "lessons/") && !strings.HasPrefix(p, "exercises/") {
				return fs.SkipDir
			}
			return nil
		}
		if path.Ext(p) != ".json" {
			return nil
		}
		data, err := fs.ReadFile(repo, p)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(data, &v), p)
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				assert.LessOrEqual(t, len([]rune(v)), 200, "%s: a string of %d characters: %.60q…", p, len([]rune(v)), v)
			case []any:
				for _, x := range v {
					walk(x)
				}
			case map[string]any:
				for k, x := range v {
					walk(k)
					walk(x)
				}
			}
		}
		walk(v)
		return nil
	})
	require.NoError(t, err)
}

// TestQuizzesHaveNoGo: a quiz is data; its only Go is the learner's
// skeleton.
func TestQuizzesHaveNoGo(t *testing.T) {
	c, err := Load(repo)
	require.NoError(t, err)
	quizzes := 0
	for _, e := range c.Exercises {
		if e.Kind() != KindQuiz {
			continue
		}
		quizzes++
		err := fs.WalkDir(repo, "exercises/"+e.ID, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && path.Ext(p) == ".go" {
				assert.True(t, strings.HasPrefix(p, "exercises/"+e.ID+"/skeleton/"), "%s: a quiz needs no Go but its skeletons", p)
			}
			return err
		})
		require.NoError(t, err)
		for _, q := range e.Quiz {
			assert.Contains(t, q.Letters(), q.Answer, "%s case %d", e.ID, q.Case)
		}
	}
	assert.Positive(t, quizzes)
}

// course is a small course for the loader's tests: one lesson, a trace
// exercise and a quiz.
func course() fstest.MapFS {
	return fstest.MapFS{
		"lessons/l/lesson.json":           {Data: []byte("{\n  \"id\": \"l\",\n  \"order\": 1,\n  \"exercises\": [\"t\", \"q\"]\n}\n")},
		"exercises/t/exercise.json":       {Data: []byte("{\n  \"id\": \"t\",\n  \"kind\": \"trace\",\n  \"points\": 1\n}\n")},
		"exercises/t/testdata/suite.json": {Data: []byte("{\"tests\": [{\"name\": \"a\", \"steps\": [{\"call\": \"X\", \"want\": \"1\"}]}]}\n")},
		"exercises/t/task.en.md":          {Data: []byte("Do it.\n")},
		"exercises/t/hints.en.md":         {Data: []byte("## 1\n\nFirst.\n\n```go\n## not a heading\n```\n\n## 2\n\nSecond.\n")},
		"exercises/q/exercise.json":       {Data: []byte("{\n  \"id\": \"q\",\n  \"kind\": \"quiz\",\n  \"points\": 1,\n  \"answers\": [\"B\"]\n}\n")},
		"exercises/q/task.en.md":          {Data: []byte("Choose.\n\n" + QuizMarker + "\n\nAnswer in `q.go`.\n")},
		"exercises/q/quiz.en.md":          {Data: []byte("## Case 1\n\nWhich one?\n\n### A\n\nThis\none.\n\n> Because\n> not.\n\n### B\n\nThat one.\n\n> Right.\n")},
	}
}

func TestLoad(t *testing.T) {
	c, err := Load(course())
	require.NoError(t, err)
	tr, ok := c.Exercise("t")
	require.True(t, ok)
	assert.Equal(t, KindTrace, tr.Kind())
	assert.Equal(t, "l", tr.Lesson)
	assert.Equal(t, 1, tr.Order)
	assert.Equal(t, []string{"First.\n\n```go\n## not a heading\n```", "Second."}, tr.Hints["en"])
	assert.Equal(t, 1, tr.Line("hints.en.0"))
	assert.Equal(t, 9, tr.Line("hints.en.1"))
	assert.Equal(t, "1", tr.Suite.Tests[0].Steps[0].Want)

	q, ok := c.Exercise("q")
	require.True(t, ok)
	assert.Equal(t, KindQuiz, q.Kind())
	assert.Equal(t, 2, q.Order)
	require.Len(t, q.Quiz, 1)
	assert.Equal(t, "This one.", q.Quiz[0].Choices["A"]["en"])
	assert.Equal(t, "Because\nnot.", q.Quiz[0].Options["A"]["en"])
	assert.Equal(t, "B", q.Quiz[0].Answer)
	assert.Equal(t, "Choose.\n\n**Case 1.** Which one?\n\n- **A** This one.\n- **B** That one.\n\nAnswer in `q.go`.", q.Summary["en"])
	assert.Equal(t, "case1", q.Suite.Tests[0].Name)
	sol, err := q.Solution()
	require.NoError(t, err)
	assert.Contains(t, string(sol[0].Data), `var Answer = [1]string{"B"}`)
	_, api, err := q.Tests()
	require.NoError(t, err)
	assert.Contains(t, string(api[0].Data), "_ *[1]string = &Answer")
}

// TestLoadIsStrict: an unknown key or a wrong type in any metadata file
// fails the load with the file and the line, once per file.
func TestLoadIsStrict(t *testing.T) {
	for file, c := range map[string]struct{ from, to, want string }{
		"lessons/l/lesson.json":           {`"order"`, `"ordr"`, `lessons/l/lesson.json:3: unknown key "ordr" (did you mean "order"?)`},
		"exercises/t/exercise.json":       {`"points": 1`, `"points": 1, "lesson": "l"`, `exercises/t/exercise.json:4: unknown key "lesson"`},
		"exercises/t/testdata/suite.json": {`"want"`, `"wnat"`, `exercises/t/testdata/suite.json:1: unknown key "wnat" (did you mean "want"?)`},
		"exercises/q/exercise.json":       {`"points": 1`, `"points": "1"`, `exercises/q/exercise.json:4: "points" must be a number, not a string`},
		"exercises/q/quiz.en.md":          {`### B`, `### Be`, `exercises/q/quiz.en.md:13: an option's heading is "### " and one capital letter, such as "### A" (found "### Be")`},
		"exercises/t/hints.en.md":         {`## 1`, `Hi.`, `exercises/t/hints.en.md:1: nothing but blank lines may come before the first "## " heading (found "Hi.")`},
	} {
		m := course()
		m[file].Data = []byte(strings.Replace(string(m[file].Data), c.from, c.to, 1))
		_, err := Load(m)
		require.Error(t, err, file)
		assert.Equal(t, c.want, err.Error(), file)
	}
	m := course()
	m["exercises/t/exercise.json"].Data = []byte(`{"id": "t", "kind": "essay"}`)
	_, err := Load(m)
	assert.EqualError(t, err, `exercises/t/exercise.json:1: the kind "essay" is none of "trace" and "quiz"`)
}
