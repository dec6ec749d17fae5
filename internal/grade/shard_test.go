package grade_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/grade"
	"github.com/kurs-course/kurs/internal/report"
	"github.com/kurs-course/kurs/internal/testkit"
)

func TestParseShard(t *testing.T) {
	for s, want := range map[string][2]int{"1/3": {1, 3}, "3/3": {3, 3}, "1/1": {1, 1}} {
		k, n, ok := grade.ParseShard(s)
		assert.True(t, ok, s)
		assert.Equal(t, want, [2]int{k, n}, s)
	}
	for _, s := range []string{"", "0/3", "4/3", "1/0", "-1/3", "1", "a/b", "1/3/4", " 1/3"} {
		_, _, ok := grade.ParseShard(s)
		assert.False(t, ok, s)
	}
}

// TestShard: the shards of a class hold every submission exactly once,
// differ in size by one at most, and are the same on every call.
func TestShard(t *testing.T) {
	var subs []grade.Submission
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		subs = append(subs, grade.Submission{ID: id})
	}
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		part := grade.Shard(subs, k, 3)
		assert.Equal(t, part, grade.Shard(subs, k, 3), "deterministic")
		assert.InDelta(t, len(subs)/3, len(part), 1)
		for _, s := range part {
			seen[s.ID]++
		}
	}
	assert.Len(t, seen, len(subs))
	for id, n := range seen {
		assert.Equal(t, 1, n, id)
	}
	assert.Equal(t, []grade.Submission{{ID: "b"}, {ID: "e"}}, grade.Shard(subs, 2, 3))
	assert.Empty(t, grade.Shard(subs[:1], 2, 3), "more shards than submissions: some are empty")
}

// shardDocs grades the given corpus cases in n shards and returns each
// shard's document, and the document of one run over all of them.
func shardDocs(t *testing.T, n int, names ...string) (shards []*grade.Document, whole *grade.Document) {
	t.Helper()
	exs := exercises(t)[2:] // the quiz: quick to check
	slices.Sort(names)      // as Find returns them
	subs := corpusSubmissions(names...)
	p := i18n.New("en")
	results, err := newGrader(exs, 2).Run(context.Background(), subs)
	require.NoError(t, err)
	whole = grade.NewDocument(p, "sha256:c0ffee", "v1.2.0", checker.DefaultSeed, exs, results)
	for k := 1; k <= n; k++ {
		part := grade.Shard(subs, k, n)
		res, err := newGrader(exs, 2).Run(context.Background(), part)
		require.NoError(t, err)
		d := grade.NewDocument(p, "sha256:c0ffee", "v1.2.0", checker.DefaultSeed, exs, res)
		d.Shard = &report.Shard{Index: k, Count: n, Class: len(subs)}
		shards = append(shards, d)
	}
	return shards, whole
}

func TestMerge(t *testing.T) {
	shards, whole := shardDocs(t, 3, "quiz-fail-swapped", "quiz-pass-init", "all-pass", "mixed-verdicts")
	encode := func(d *grade.Document) string {
		var b bytes.Buffer
		require.NoError(t, report.JSON(&b, d))
		return b.String()
	}
	// Given in any order, the shards join into the bytes of one run.
	merged, err := grade.Merge([]*grade.Document{shards[2], shards[0], shards[1]})
	require.NoError(t, err)
	assert.Equal(t, encode(whole), encode(merged))
	assert.Len(t, shards[0].Submissions, 2)
	assert.Len(t, shards[2].Submissions, 1)

	one, err := grade.Merge([]*grade.Document{whole})
	require.NoError(t, err)
	assert.Equal(t, encode(whole), encode(one), "a whole class merges into itself")

	mergeErr := func(docs ...*grade.Document) *grade.MergeError {
		_, err := grade.Merge(docs)
		var me *grade.MergeError
		require.True(t, errors.As(err, &me), "%v", err)
		return me
	}
	key := func(docs ...*grade.Document) string { return mergeErr(docs...).Key }
	// which returns the documents an error names: the one at fault, and
	// the one it disagrees with, so that the user reads their files.
	which := func(docs ...*grade.Document) [2]int {
		me := mergeErr(docs...)
		return [2]int{me.Doc, me.First}
	}
	other := *shards[1]
	other.Seed = 9
	assert.Equal(t, "seed", key(shards[0], &other, shards[2]))
	assert.Equal(t, [2]int{1, 0}, which(shards[0], &other, shards[2]))
	assert.Equal(t, [2]int{2, 0}, which(shards[0], shards[2], &other), "compared with the first")
	other = *shards[1]
	other.Course = "sha256:other"
	assert.Equal(t, "course", key(shards[0], &other, shards[2]))
	other = *shards[1]
	other.Kurs = "v0.9.0"
	me := mergeErr(shards[0], &other, shards[2])
	assert.Equal(t, "kurs", me.Key, "a shard of another kurs build")
	assert.Equal(t, []any{"Kurs", "v0.9.0", "FirstKurs", "v1.2.0"}, me.Args, "both builds named")
	// A score edited by hand: an exercise's, or a submission's total.
	for _, edit := range []func(d *grade.Document){
		func(d *grade.Document) { d.Submissions[0].Exercises[0].Score++ },
		func(d *grade.Document) { d.Submissions[0].Score++ },
		func(d *grade.Document) { d.Submissions[0].MaxScore-- },
		func(d *grade.Document) { d.Submissions[0].Exercises[0].Status = "pass" },
	} {
		var c grade.Document
		require.NoError(t, json.Unmarshal([]byte(encode(shards[1])), &c))
		_, err := grade.Merge([]*grade.Document{shards[0], &c, shards[2]})
		require.NoError(t, err, "unedited")
		edit(&c)
		me := mergeErr(shards[0], &c, shards[2])
		assert.Equal(t, "scores", me.Key)
		assert.Equal(t, [2]int{1, -1}, [2]int{me.Doc, me.First})
	}
	assert.Equal(t, "missing", key(shards[0], shards[2]))
	assert.Equal(t, "twice", key(shards[0], shards[0], shards[2]))
	assert.Equal(t, [2]int{2, 1}, which(shards[2], shards[0], shards[0]), "the shard's two documents")
	assert.Equal(t, "whole", key(shards[0], whole))
	assert.Equal(t, [2]int{1, -1}, which(shards[0], whole))
	assert.Equal(t, [2]int{-1, -1}, which(shards[0], shards[2]), "no document to name")
	other = *shards[1]
	other.Shard = &report.Shard{Index: 2, Count: 4, Class: 4}
	assert.Equal(t, "count", key(shards[0], &other, shards[2]))
	other = *shards[1]
	other.Submissions = append(slices.Clone(other.Submissions), shards[0].Submissions[0])
	assert.Equal(t, "duplicate", key(shards[0], &other, shards[2]))
	assert.Equal(t, [2]int{1, 0}, which(shards[0], &other, shards[2]))
	assert.Equal(t, "none", key())

	// The language of the messages: named by the shards, the same in all;
	// a document of a kurs that did not name it joins any.
	assert.Equal(t, "en", merged.Lang)
	other = *shards[1]
	other.Lang = "de"
	assert.Equal(t, "lang", key(shards[0], &other, shards[2]))
	_, err = grade.Merge([]*grade.Document{shards[0], &other, shards[2]})
	require.ErrorAs(t, err, &me)
	assert.Equal(t, []any{"Lang", "de", "FirstLang", "en"}, me.Args)
	assert.Equal(t, [2]int{1, 0}, [2]int{me.Doc, me.First})
	unnamed := []*grade.Document{}
	for _, d := range shards {
		c := *d
		c.Lang = ""
		unnamed = append(unnamed, &c)
	}
	unnamed[1] = &other
	merged, err = grade.Merge(unnamed)
	require.NoError(t, err)
	assert.Equal(t, "de", merged.Lang, "the one language named")
}

// TestCourseHash: the hash covers the course's lessons and exercises,
// changes with any byte of them, and leaves out what the go command does
// not embed.
func TestCourseHash(t *testing.T) {
	fsys := fstest.MapFS{
		"lessons/a/en.md":               {Data: []byte("# A\n")},
		"exercises/x/exercise.json":     {Data: []byte("{}")},
		"exercises/x/testdata/suite.go": {Data: []byte("package x\n")},
		"README.md":                     {Data: []byte("not the course")},
	}
	h, err := grade.CourseHash(fsys)
	require.NoError(t, err)
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, h)

	same := fstest.MapFS{}
	for k, v := range fsys {
		same[k] = v
	}
	same["README.md"] = &fstest.MapFile{Data: []byte("changed")}
	same["exercises/x/.hidden"] = &fstest.MapFile{Data: []byte("editor state")}
	same["exercises/_drafts/y.go"] = &fstest.MapFile{Data: []byte("package y\n")}
	h2, err := grade.CourseHash(same)
	require.NoError(t, err)
	assert.Equal(t, h, h2, "files outside the course, or that go:embed leaves out, do not count")

	same["exercises/x/testdata/suite.go"] = &fstest.MapFile{Data: []byte("package x \n")}
	h3, err := grade.CourseHash(same)
	require.NoError(t, err)
	assert.NotEqual(t, h, h3, "a hidden test changed")

	renamed := fstest.MapFS{"lessons/a/en.md": fsys["lessons/a/en.md"], "exercises/x/exercise2.json": fsys["exercises/x/exercise.json"],
		"exercises/x/testdata/suite.go": fsys["exercises/x/testdata/suite.go"]}
	h4, err := grade.CourseHash(renamed)
	require.NoError(t, err)
	assert.NotEqual(t, h, h4, "a file renamed")

	// The repository's course as a folder has the hash of the course
	// that go:embed puts into kurs; the cli's version test compares the two.
	_, err = grade.CourseHash(os.DirFS("../.."))
	require.NoError(t, err)
}

// junitValidates checks the JUnit of results, TestBatch's grading of
// right, wrong, non-building, panicking, hanging and hostile submissions,
// against the schema of what Jenkins xunit accepts.
func junitValidates(t *testing.T, results []grade.Result) {
	docs := map[string][]byte{}
	for _, r := range results {
		var b bytes.Buffer
		require.NoError(t, report.JUnit(&b, i18n.New("en"), r.Graded, report.Run{Course: "sha256:c0ffee", Seed: 1, Dir: "submissions/" + r.ID}))
		docs[r.ID] = b.Bytes()
	}
	testkit.ValidJUnit(t, docs)
	t.Logf("%d corpus submissions, JUnit valid against the schema", len(results))
}
