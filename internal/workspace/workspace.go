// Package workspace manages a learner's workspace: the folder that kurs
// init creates, its kurs.toml, and the progress kurs keeps there.
//
// It never overwrites a learner's file; state is written atomically
// (package atomicfile), under an operating system's lock that every kurs
// process on the workspace respects (lockState).
package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/atomicfile"
	"github.com/kurs-course/kurs/internal/course"
)

// ConfigFile is the file that marks a workspace's root.
const ConfigFile = "kurs.toml"

// Format is the version of the workspace layout that this kurs writes.
const Format = 1

// ErrNotFound means no kurs.toml was found in a folder or its parents.
var ErrNotFound = errors.New("no kurs workspace")

// Config is the content of kurs.toml.
type Config struct {
	Format int    `toml:"format"`
	Course string `toml:"course"`         // "embedded" or the folder of an external course
	Lang   string `toml:"lang,omitempty"` // the skeletons' language; none in an old workspace: the locale decides
}

// Workspace is a learner's workspace.
type Workspace struct {
	Dir    string
	Config Config
}

// Find returns the workspace whose root is dir or one of its parents.
func Find(dir string) (*Workspace, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ConfigFile)); err == nil {
			return Open(d)
		}
		if filepath.Dir(d) == d {
			return nil, fmt.Errorf("%w in %s or above", ErrNotFound, dir)
		}
	}
}

// Open returns the workspace rooted at dir.
func Open(dir string) (*Workspace, error) {
	w := &Workspace{Dir: dir}
	data, err := ReadFileMax(filepath.Join(dir, ConfigFile), MaxStateFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w in %s", ErrNotFound, dir)
		}
		return nil, err
	}
	if _, err := toml.Decode(string(data), &w.Config); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ConfigFile), err)
	}
	return w, nil
}

// ExerciseDir returns the folder of an exercise.
func (w *Workspace) ExerciseDir(id string) string { return filepath.Join(w.Dir, id) }

// Init creates a workspace in dir for c, with cfg as its kurs.toml and the
// skeletons' comments in lang. Files that already exist are kept, never
// overwritten, and returned in kept.
func Init(dir string, c *course.Course, cfg Config, lang string) (created, kept []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	put := func(rel string, data []byte) error {
		name := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			kept = append(kept, rel)
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return err
		}
		created = append(created, rel)
		return f.Close()
	}
	cfg.Format = Format
	var conf bytes.Buffer
	fmt.Fprintf(&conf, "# %s\n", i18n.New(lang).T("init.config_comment")) // in the workspace's language
	if err := toml.NewEncoder(&conf).Encode(cfg); err != nil {
		return nil, nil, err
	}
	if err := put(ConfigFile, conf.Bytes()); err != nil {
		return created, kept, err
	}
	if err := put("go.mod", []byte("module kurs-workspace\n\ngo 1.22\n")); err != nil {
		return created, kept, err
	}
	if err := put(".gitignore", []byte(".kurs/\n")); err != nil {
		return created, kept, err
	}
	for _, ex := range c.Exercises {
		files, err := ex.Skeleton(lang)
		if err != nil {
			return created, kept, fmt.Errorf("exercise %s: %w", ex.ID, err)
		}
		for _, f := range files {
			if err := put(ex.ID+"/"+f.Name, f.Data); err != nil {
				return created, kept, err
			}
		}
	}
	return created, kept, nil
}

// Progress is what kurs remembers of a learner's work.
type Progress struct {
	Exercises map[string]*ExerciseProgress `json:"exercises"`
}

// ExerciseProgress is the progress on one exercise.
type ExerciseProgress struct {
	Status    string    `json:"status,omitempty"` // last check: pass, fail or error
	Score     int       `json:"score"`
	MaxScore  int       `json:"max_score"`
	Checked   time.Time `json:"checked,omitzero"`
	HintsSeen int       `json:"hints_seen,omitempty"`
	Passed    bool      `json:"passed,omitempty"` // passed at least once
	Best      int       `json:"best,omitempty"`   // the best score of any check
	// Files is the Digest of the files the last check saw: files that
	// differ from them have not been checked since they changed.
	Files string `json:"files,omitempty"`
}

func (w *Workspace) progressFile() string { return filepath.Join(w.Dir, ".kurs", "progress.json") }

// Progress returns the stored progress, empty when there is none yet.
func (w *Workspace) Progress() (*Progress, error) {
	p := &Progress{Exercises: map[string]*ExerciseProgress{}}
	data, err := ReadFileMax(w.progressFile(), MaxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, p); err != nil {
		return nil, fmt.Errorf("%s: %w", w.progressFile(), err)
	}
	if p.Exercises == nil {
		p.Exercises = map[string]*ExerciseProgress{}
	}
	return p, nil
}

// Of returns the progress on exercise id, adding an empty entry if needed.
func (p *Progress) Of(id string) *ExerciseProgress {
	e, ok := p.Exercises[id]
	if !ok {
		e = &ExerciseProgress{}
		p.Exercises[id] = e
	}
	return e
}

// SaveProgress replaces the stored progress with p, atomically and under
// the lock on the workspace's state. A change to the progress goes
// through updateProgress instead, which reads it under the same lock.
func (w *Workspace) SaveProgress(p *Progress) error {
	unlock, err := w.lockState()
	if err != nil {
		return err
	}
	defer unlock()
	return w.saveProgress(p)
}

// saveProgress writes p atomically: readers see the old or the new file,
// never a part. The caller holds the lock on the state.
func (w *Workspace) saveProgress(p *Progress) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(w.progressFile(), append(data, '\n'), 0o644)
}

// updateProgress reads the progress, lets change change it and writes it
// back when change reports a change, all under the lock on the
// workspace's state (see lockState): whatever another kurs process or
// goroutine records meanwhile waits, and is not undone.
func (w *Workspace) updateProgress(change func(p *Progress) (changed bool, err error)) error {
	unlock, err := w.lockState()
	if err != nil {
		return err
	}
	defer unlock()
	p, err := w.Progress()
	if err != nil {
		return err
	}
	changed, err := change(p)
	if err != nil || !changed {
		return err
	}
	return w.saveProgress(p)
}
