package grade

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/report"
)

// ParseShard parses "K/N", one shard of N counted from 1.
func ParseShard(s string) (k, n int, ok bool) {
	a, b, found := strings.Cut(s, "/")
	if !found {
		return 0, 0, false
	}
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, false
	}
	return k, n, true
}

// Shard returns shard k of n of subs: every n-th submission, starting with
// the k-th (k counts from 1). With subs in the order Find returns them,
// every machine that sees the same folder makes the same shards, and they
// differ in size by one submission at most.
func Shard(subs []Submission, k, n int) []Submission {
	var part []Submission
	for i, s := range subs {
		if i%n == k-1 {
			part = append(part, s)
		}
	}
	return part
}

// MergeError says why the documents given to Merge are not the shards of
// one class. Key names the message (grade.merge_KEY in the catalogs) and
// Args are its template's fields. Doc is the document at fault and First
// the one it disagrees with, as indexes into Merge's docs (-1 for none),
// so that the caller names each as the user gave it, by its file.
type MergeError struct {
	Key        string
	Doc, First int
	Args       []any
}

func (e *MergeError) Error() string {
	return fmt.Sprint(append([]any{e.Key, "Doc", e.Doc, "First", e.First}, e.Args...)...)
}

// Merge joins the documents of the shards of one class into the document
// one run over the whole class gives: the same course, kurs build, seed, exercises and
// language of the messages (where a document names it) in every shard,
// each shard of the same count exactly once, and no submission twice. The
// entries come in the order of their ids, as Find returns the
// submissions. A single document of a whole class merges into itself.
func Merge(docs []*Document) (*Document, error) {
	fail := func(key string, doc, first int, args ...any) error {
		return &MergeError{Key: key, Doc: doc, First: first, Args: args}
	}
	if len(docs) == 0 {
		return nil, fail("none", -1, -1)
	}
	first := docs[0]
	out := &Document{Version: first.Version, Course: first.Course, Kurs: first.Kurs, Seed: first.Seed,
		ExerciseIDs: first.ExerciseIDs, Submissions: []Entry{}}
	shardAt := map[int]int{} // the document that holds each shard
	idAt := map[string]int{} // the document that holds each submission
	langDoc := -1            // the first document that names its language
	for i, d := range docs {
		if d.Lang != "" && langDoc < 0 {
			out.Lang, langDoc = d.Lang, i
		}
		switch {
		case d.Version != report.Version:
			return nil, fail("version", i, -1, "Version", d.Version)
		case d.Course != first.Course:
			return nil, fail("course", i, 0)
		case d.Kurs != first.Kurs:
			return nil, fail("kurs", i, 0, "Kurs", d.Kurs, "FirstKurs", first.Kurs)
		case d.Seed != first.Seed:
			return nil, fail("seed", i, 0, "Seed", d.Seed, "FirstSeed", first.Seed)
		case !slices.Equal(d.ExerciseIDs, first.ExerciseIDs):
			return nil, fail("exercises", i, 0)
		case d.Lang != "" && d.Lang != out.Lang:
			return nil, fail("lang", i, langDoc, "Lang", d.Lang, "FirstLang", out.Lang)
		}
		switch sh := d.Shard; {
		case sh == nil && len(docs) > 1:
			return nil, fail("whole", i, -1)
		case sh == nil: // a whole class, alone: it merges into itself
		case first.Shard == nil || sh.Count != first.Shard.Count || sh.Class != first.Shard.Class:
			return nil, fail("count", i, 0)
		default:
			if at, ok := shardAt[sh.Index]; ok {
				return nil, fail("twice", i, at, "Shard", sh.Index, "Count", sh.Count)
			}
			shardAt[sh.Index] = i
		}
		if where := inconsistent(d); where != "" {
			return nil, fail("scores", i, -1, "Where", where)
		}
		for _, e := range d.Submissions {
			if at, ok := idAt[e.ID]; ok {
				return nil, fail("duplicate", i, at, "ID", e.ID)
			}
			idAt[e.ID] = i
			out.Submissions = append(out.Submissions, e)
		}
	}
	if sh := first.Shard; sh != nil {
		for k := 1; k <= sh.Count; k++ {
			if _, ok := shardAt[k]; !ok {
				return nil, fail("missing", -1, -1, "Shard", k, "Count", sh.Count)
			}
		}
		if len(out.Submissions) != sh.Class {
			return nil, fail("class", -1, -1, "Got", len(out.Submissions), "Class", sh.Class)
		}
	}
	slices.SortStableFunc(out.Submissions, func(a, b Entry) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// inconsistent returns where in d a score does not follow from the tests
// and verdicts it stands beside ("anna/circuitbreaker", or "anna" for a
// submission's total), or "" when every one does. kurs writes only
// documents that agree with themselves; one that does not was changed
// after grading, and its scores are not kurs's.
func inconsistent(d *Document) string {
	for _, e := range d.Submissions {
		if e.Document == nil {
			continue
		}
		score, maxScore, pass := 0, 0, true
		var ids []string
		for _, ex := range e.Exercises {
			where := e.ID + "/" + ex.ID
			passed := 0
			for _, t := range ex.Tests {
				if t.Status == string(checker.Pass) {
					passed++
				}
			}
			switch {
			case ex.Score < 0 || ex.MaxScore < 0 || ex.Score > ex.MaxScore:
				return where
			case ex.Status == string(checker.Pass) && (ex.Score != ex.MaxScore || passed != len(ex.Tests)):
				return where
			case ex.Status == string(checker.Fail) && (ex.Score == ex.MaxScore && ex.MaxScore > 0 || passed == 0 && ex.Score != 0 || passed == len(ex.Tests) && len(ex.Tests) > 0):
				return where
			case ex.Status == string(checker.Error) && ex.Score != 0:
				return where
			case ex.Status != string(checker.Pass) && ex.Status != string(checker.Fail) && ex.Status != string(checker.Error):
				return where
			}
			score += ex.Score
			maxScore += ex.MaxScore
			pass = pass && ex.Status == string(checker.Pass)
			ids = append(ids, ex.ID)
		}
		if e.Score != score || e.MaxScore != maxScore || (e.Status == string(checker.Pass)) != pass || !slices.Equal(ids, d.ExerciseIDs) {
			return e.ID
		}
	}
	return ""
}

// CourseHash returns the content hash of a course: a SHA-256 over the
// names and contents of every file in its lessons/ and exercises/
// folders, in the order of their names, as "sha256:" and 64 hex digits.
// Files and folders whose names start with "." or "_" are left out, as
// the go command leaves them out of the course it embeds in kurs, so that
// the embedded course and a folder with the same files have the same hash.
func CourseHash(fsys fs.FS) (string, error) {
	h := sha256.New()
	// The files stream through one buffer: kurs version hashes the
	// embedded course at every start, and reading each file whole would
	// copy the course onto the heap.
	buf := make([]byte, 32<<10)
	for _, top := range []string{"lessons", "exercises"} {
		err := fs.WalkDir(fsys, top, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if name != top && skipped(path.Base(name)) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			return hashFile(h, fsys, name, buf)
		})
		if err != nil {
			return "", err
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile adds the file name of fsys to h: its name, its length and its
// bytes, read through buf. A file whose length changes while it is read
// is an error rather than a hash of neither version.
func hashFile(h io.Writer, fsys fs.FS, name string, buf []byte) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s\x00%d\x00", name, info.Size())
	n, err := io.CopyBuffer(h, f, buf)
	if err != nil {
		return err
	}
	if n != info.Size() {
		return fmt.Errorf("%s changed while it was hashed", name)
	}
	return nil
}
