package report

import (
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/explain"
)

// Batch is the result document of a batch, `kurs grade --submissions DIR
// --format json`: the course and seed every submission was graded with,
// the exercises graded, and per submission the document of `kurs grade
// --format json` plus its id, in the order of the ids.
//
// A Batch holds everything the other batch formats show (CSV, the text
// table, the class report), so that the documents of shards, joined by
// `kurs grade merge`, give the same bytes as one run.
type Batch struct {
	Version int    `json:"version"`
	Course  string `json:"course"`
	// Kurs names the kurs build that graded every submission (see
	// Run.Kurs); merge joins only shards of one build.
	Kurs string `json:"kurs"`
	Seed uint64 `json:"seed"`
	// Lang is the language of the messages ("de", "en"); absent in the
	// documents of a kurs that did not record it.
	Lang string `json:"lang,omitempty"`
	// ExerciseIDs are the exercises every submission was graded in, in
	// the order of their results.
	ExerciseIDs []string `json:"exercise_ids"`
	// Shard says which part of the class a shard's document holds; nil
	// for the whole class.
	Shard       *Shard  `json:"shard,omitempty"`
	Submissions []Entry `json:"submissions"`
	// Written is when the formats that ask for a timestamp (JUnit) say
	// they were written; zero means now. It is not part of the document:
	// merged shards give the bytes of one run.
	Written time.Time `json:"-"`
}

// Shard is the part of a class that one `kurs grade --shard K/N` graded:
// every Count-th submission of the class in the order of their ids,
// starting with the Index-th.
type Shard struct {
	Index int `json:"index"` // 1 to Count
	Count int `json:"count"`
	// Class is the number of submissions in the whole class, so that a
	// merge knows when a shard is missing.
	Class int `json:"class"`
}

// Entry is one submission's entry in a Batch.
type Entry struct {
	ID string `json:"id"`
	*Document
}

// Rows returns the batch's entries as the table and the CSV take
// them: per exercise its id, status and points, why no test ran and
// whether the files were the skeleton.
func (b *Batch) Rows() []Submission {
	subs := make([]Submission, len(b.Submissions))
	for i, e := range b.Submissions {
		subs[i].ID = e.ID
		if e.Document == nil {
			continue
		}
		for _, ex := range e.Exercises {
			res := &checker.Result{Exercise: ex.ID, Status: checker.Status(ex.Status), Score: ex.Score, MaxScore: ex.MaxScore}
			if ex.Problem != "" {
				res.Problem = &checker.Problem{Kind: checker.ProblemKind(ex.Problem)}
			}
			subs[i].Graded = append(subs[i].Graded, explain.Graded{Result: res, Untouched: ex.Skeleton, Unanswered: ex.Unanswered})
		}
	}
	return subs
}
