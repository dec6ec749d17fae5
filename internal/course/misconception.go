package course

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/kurs-course/kurs/internal/harness"
)

// MisconceptionsDir is the folder of an exercise that holds its
// misconceptions, one sub-folder each.
const MisconceptionsDir = "misconceptions"

// SignaturesFile is the file in MisconceptionsDir where kurs validate
// --signatures records how each misconception behaves under the hidden
// tests.
const SignaturesFile = "signatures.json"

// Misconception is a mistake learners make in an exercise, written down as
// course content: the wrong code (Go files of the exercise's package) and
// what the learner probably believes, in every language. It is read from
// exercises/ID/misconceptions/NAME/: the Go files, de.md and en.md (a
// title as the first heading, then the explanation) and, optionally,
// misconception.json.
type Misconception struct {
	// ID is the folder's name.
	ID string
	// Title names the belief in one line; Explanation says, in Markdown,
	// what the learner probably believes, why it breaks and which rule of
	// the task it violates.
	Title       Text
	Explanation Text
	// CaughtBy names hidden tests that must fail for this mistake.
	CaughtBy []string
	// Files are the wrong code.
	Files []File
	// Signature is how the wrong code behaves under the hidden tests, as
	// recorded in signatures.json; nil when none is recorded or the
	// record is stale (see Exercise.Misconceptions).
	Signature *Signature
}

// misconceptionMeta is the strict form of misconception.json; docs/schema/
// misconception.schema.json publishes it.
type misconceptionMeta struct {
	Schema   string   `json:"$schema,omitempty"`
	CaughtBy []string `json:"caught_by,omitempty"`
}

// Signature is how code behaves under an exercise's hidden tests, as far as
// a check's result tells: which tests fail, and for each failing fixed
// trace where and how it departs. Two programs with the same signature are
// indistinguishable to the hidden tests.
type Signature struct {
	// Fail are the failing tests, in the suite's order, without the
	// stress tests: which of those fail depends on how the goroutines
	// were scheduled, so Stress and Races stand for them.
	Fail []string `json:"fail"`
	// Steps holds, for each failing fixed trace, its first departure.
	Steps map[string]Departure `json:"steps,omitempty"`
	// Stress reports that the race detector found a data race, or that a
	// stress test failed while every other test passed; Races, that the
	// detector found one.
	Stress bool `json:"stress,omitempty"`
	Races  bool `json:"races,omitempty"`
	// RacyReads reports that every data race the detector found is a
	// read in a function that writes in none of them, against a write
	// elsewhere: the writers are synchronised with one another, a reader
	// is not. Which races the detector reports depends on scheduling;
	// whether a writer races with a writer hardly does.
	RacyReads bool `json:"racy_reads,omitempty"`
}

// Departure is where a fixed trace departs from the expected behaviour.
type Departure struct {
	// Kind is the failure's kind (harness.Mismatch, Panicked, Timeout).
	Kind string `json:"kind"`
	Step int    `json:"step"`
	// Want and Got are the values at the step, for a mismatch.
	Want harness.Result `json:"want,omitzero"`
	Got  harness.Result `json:"got,omitzero"`
}

// Equal reports whether two signatures are the same behaviour, comparing
// values as the judge does.
func (s *Signature) Equal(o *Signature) bool {
	if !slices.Equal(s.Fail, o.Fail) || len(s.Steps) != len(o.Steps) || s.Stress != o.Stress || s.Races != o.Races || s.RacyReads != o.RacyReads {
		return false
	}
	for name, d := range s.Steps {
		od, ok := o.Steps[name]
		if !ok || !d.Same(od) {
			return false
		}
	}
	return true
}

// Same reports whether two departures are the same: the same kind at the
// same step, with the same values as the judge compares them.
func (d Departure) Same(o Departure) bool {
	return d.Kind == o.Kind && d.Step == o.Step &&
		harness.SameValue(d.Want.Ret, o.Want.Ret) && harness.SameValue(d.Want.Obs, o.Want.Obs) &&
		harness.SameValue(d.Got.Ret, o.Got.Ret) && harness.SameValue(d.Got.Obs, o.Got.Obs)
}

// Signatures is an exercise's signatures.json: the signature of each
// misconception, and the hash of everything that decided them.
type Signatures struct {
	Schema string `json:"$schema,omitempty"`
	// Hash is Exercise.BehaviourHash when the signatures were recorded.
	Hash           string               `json:"hash"`
	Misconceptions map[string]Signature `json:"misconceptions"`
}

// misconceptions caches an exercise's misconceptions: a course is read
// once, and a check only compares. Copies of an Exercise share it.
type misconceptions struct {
	once sync.Once
	list []*Misconception
	err  error
}

// Misconceptions returns the exercise's misconceptions, sorted by id, each
// with its recorded signature when signatures.json is up to date with the
// exercise (see BehaviourHash). A misconception whose files cannot be read
// is left out and its error, an *Error with file and line, joined into err;
// the others are returned. An exercise without misconceptions returns
// none and no error.
func (e *Exercise) Misconceptions() ([]*Misconception, error) {
	if e.fsys == nil {
		return nil, nil
	}
	if e.misc == nil { // not loaded by Load: read each time
		return e.readMisconceptions()
	}
	e.misc.once.Do(func() { e.misc.list, e.misc.err = e.readMisconceptions() })
	return e.misc.list, e.misc.err
}

func (e *Exercise) readMisconceptions() ([]*Misconception, error) {
	entries, err := fs.ReadDir(e.fsys, MisconceptionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	root := path.Join("exercises", e.ID, MisconceptionsDir)
	var list []*Misconception
	var errs []error
	for _, d := range entries {
		if !d.IsDir() {
			continue
		}
		m, err := e.readMisconception(root, d.Name())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		list = append(list, m)
	}
	if len(list) == 0 {
		return nil, errors.Join(errs...)
	}
	sigs, err := e.RecordedSignatures()
	if err != nil {
		errs = append(errs, err)
	} else if sigs != nil {
		if hash, err := e.BehaviourHash(); err == nil && hash == sigs.Hash {
			for _, m := range list {
				if s, ok := sigs.Misconceptions[m.ID]; ok {
					m.Signature = &s
				}
			}
		}
	}
	return list, errors.Join(errs...)
}

// readMisconception reads one misconception folder.
func (e *Exercise) readMisconception(root, name string) (*Misconception, error) {
	dir := path.Join(MisconceptionsDir, name)
	file := path.Join(root, name)
	if !ValidID(name) && !validSlug(name) {
		return nil, &Error{File: file, Code: ErrMisconceptionName, Args: []any{"Name", name},
			Msg: fmt.Sprintf("the misconception's folder %q is not a name of lower-case letters, digits and hyphens", name)}
	}
	m := &Misconception{ID: name, Title: Text{}, Explanation: Text{}}
	files, err := goFiles(e.fsys, dir)
	if err != nil {
		return nil, &Error{File: file, Code: ErrMisconceptionCode, Msg: "the misconception has no .go files"}
	}
	m.Files = files
	for _, lang := range Languages {
		md := path.Join(file, lang+".md")
		data, err := fs.ReadFile(e.fsys, path.Join(dir, lang+".md"))
		if err != nil {
			return nil, &Error{File: md, Code: ErrMissing, Msg: "this file is missing"}
		}
		title, body, ok := splitTitle(string(data))
		if !ok {
			return nil, &Error{File: md, Line: 1, Code: ErrMarkdown, Args: []any{"What", "misconception", "Got", firstLine(strings.TrimSpace(string(data)))},
				Msg: "a misconception's text begins with its title as a heading (# Title)"}
		}
		m.Title[lang], m.Explanation[lang] = title, body
	}
	meta := path.Join(dir, "misconception.json")
	if _, err := fs.Stat(e.fsys, meta); err == nil {
		var mm misconceptionMeta
		data, err := fs.ReadFile(e.fsys, meta)
		if err != nil {
			return nil, err
		}
		if err := Decode(path.Join(file, "misconception.json"), data, &mm); err != nil {
			return nil, err
		}
		m.CaughtBy = mm.CaughtBy
	}
	return m, nil
}

// Codes of a misconception's problems, besides the general ones.
const (
	ErrMisconceptionName = "misconception_name" // a folder name that is no id; Args: Name
	ErrMisconceptionCode = "misconception_code" // a misconception without Go files
)

func validSlug(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' || strings.HasSuffix(s, "-") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// splitTitle splits a Markdown text into its first heading's text and the
// rest, trimmed.
func splitTitle(s string) (title, body string, ok bool) {
	s = strings.TrimLeft(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	first, rest, _ := strings.Cut(s, "\n")
	t, found := strings.CutPrefix(first, "# ")
	if !found || strings.TrimSpace(t) == "" {
		return "", "", false
	}
	return strings.TrimSpace(t), strings.TrimSpace(rest), true
}

// RecordedSignatures returns the exercise's signatures.json as written,
// stale or not; nil when there is none.
func (e *Exercise) RecordedSignatures() (*Signatures, error) {
	name := path.Join(MisconceptionsDir, SignaturesFile)
	data, err := fs.ReadFile(e.fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s Signatures
	if err := Decode(path.Join("exercises", e.ID, name), data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// BehaviourHash returns a hash of everything that decides how code behaves
// under the exercise's hidden tests, and of the misconceptions' code: the
// reference, the test program, the support packages, the allowlist and the
// hidden tests without their titles. Texts do not count, so rewording a
// title or a task leaves recorded signatures valid; nor do the skeletons,
// which no signature describes, so that fixing or rewording a skeleton
// does not stop kurs check from naming misconceptions.
func (e *Exercise) BehaviourHash() (string, error) {
	h := sha256.New()
	put := func(label string, data []byte) {
		if strings.HasSuffix(label, ".go") {
			data = goTokens(data)
		}
		fmt.Fprintf(h, "%s %d\n", label, len(data))
		h.Write(data)
	}
	sol, err := e.Solution()
	if err != nil {
		return "", err
	}
	for _, f := range sol {
		put("solution/"+f.Name, f.Data)
	}
	// The test program's files as Tests returns them, read directly: Tests
	// also derives the API check, which parses the reference, and a
	// learner's first check pays for this hash.
	if !e.Traits().Data {
		driver, err := goFiles(e.fsys, "testdata")
		if err != nil {
			return "", err
		}
		for _, f := range driver {
			if f.Name != "api.go" {
				put("testdata/"+f.Name, f.Data)
			}
		}
	}
	support, err := e.SupportFiles()
	if err != nil {
		return "", err
	}
	dirs := make([]string, 0, len(support))
	for d := range support {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		for _, f := range support[d] {
			put(d+"/"+f.Name, f.Data)
		}
	}
	suite, err := json.Marshal(e.Suite)
	if err != nil {
		return "", err
	}
	put("suite", suite)
	put("imports", []byte(strings.Join(e.Imports, "\n")))
	entries, _ := fs.ReadDir(e.fsys, MisconceptionsDir)
	for _, d := range entries {
		if !d.IsDir() {
			continue
		}
		files, _ := goFiles(e.fsys, path.Join(MisconceptionsDir, d.Name()))
		for _, f := range files {
			put(d.Name()+"/"+f.Name, f.Data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// MarshalSignatures writes signatures.json as kurs validate --signatures
// records it: indented, keys sorted, ending in a newline.
func MarshalSignatures(s *Signatures) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// goTokens returns Go source as its tokens, one a line, without comments:
// what decides behaviour, so that a reworded comment or a reformatted file
// hashes the same.
func goTokens(src []byte) []byte {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var b bytes.Buffer
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch {
		case tok == token.SEMICOLON:
			b.WriteString(";")
		case lit != "":
			b.WriteString(lit)
		default:
			b.WriteString(tok.String())
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}
