package validate

import (
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/tracegen"
)

// minRandom is how many random traces every trace exercise needs at least.
const minRandom = 1000

// exCode is what validation learns from an exercise's Go files and suite.
type exCode struct {
	ex       *course.Exercise
	solution []course.File
	// api is nil when the reference has no New (a quiz) or does not parse.
	api *tracegen.API
	// parsed reports whether the reference parses.
	parsed bool
	// traces reports whether the exercise is graded by traces.
	traces bool
	// extraImports are the reference's imports outside the allowlist,
	// reported once; the reference is checked with them allowed, so that
	// its tests still say whether it is right.
	extraImports []string
	// generated reports that testdata/driver.go was written by kurs new
	// driver, which maps each call to the method of that name. A
	// hand-written driver may name calls as it likes ("pool.Acquire")
	// and build arguments from several numbers, so only its replay can
	// tell whether the reference runs a trace.
	generated bool
	// stale reports that the generated driver is out of date: nothing
	// built with it would say anything about the exercise.
	stale bool
	// noReplay says why the reference could not be replayed, if so.
	noReplay string
	// refPassed reports whether the reference passes its hidden tests.
	refPassed bool
	// replayed reports whether the reference ran the exercise's traces:
	// the test program builds and runs with it, whether or not it passes.
	replayed bool
	// unrunnable holds the names of fixed traces the reference cannot
	// even start (wrong calls), so they are not replayed.
	unrunnable map[string]bool
}

func (e *exCode) dir() string { return path.Join("exercises", e.ex.ID) }

// code checks each exercise by what its kind is made of: this is the one
// place that decides what an exercise must have. An exercise that is data
// (a quiz) is checked as such; the reference of a code exercise is
// parsed, its traces are checked against the reference's API, and a
// generated driver against the description it comes from.
func (v *validator) code(c *course.Course) map[string]*exCode {
	codes := map[string]*exCode{}
	for _, ex := range c.Exercises {
		e := &exCode{ex: ex, unrunnable: map[string]bool{}}
		codes[ex.ID] = e
		if ex.Traits().Data {
			v.quiz(ex)
			e.solution, _ = ex.Solution()
			e.parsed = e.solution != nil
		} else {
			v.trace(e)
		}
	}
	return codes
}

// trace checks the reference, the traces and the driver of a trace
// exercise.
func (v *validator) trace(e *exCode) {
	sol, err := e.ex.Solution()
	if err != nil {
		v.add(path.Join(e.dir(), "solution")+"/", 0, MissingFile)
		return
	}
	e.solution = sol
	e.parsed = v.reference(e)
	if e.parsed {
		api, err := tracegen.ParseAPI(sol)
		if err != nil {
			v.add(path.Join(e.dir(), "solution"), 0, RefParse, "Detail", err.Error())
		}
		e.api = api
	}
	if data, err := fs.ReadFile(v.fsys, path.Join(e.dir(), "testdata", "driver.go")); err == nil {
		e.generated = tracegen.IsGenerated(data)
	}
	v.traces(e)
	v.driver(e)
}

// reference parses the reference solution and checks its imports against
// the exercise's allowlist. It reports whether every file parses.
func (v *validator) reference(e *exCode) bool {
	fset := token.NewFileSet()
	ok := true
	for _, f := range e.solution {
		file := path.Join(e.dir(), "solution", f.Name)
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.ImportsOnly)
		if err != nil {
			ok = false
			var list scanner.ErrorList
			if errors.As(err, &list) && len(list) > 0 {
				v.add(file, list[0].Pos.Line, RefParse, "Detail", list[0].Msg)
			} else {
				v.add(file, 0, RefParse, "Detail", err.Error())
			}
			continue
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(e.ex.Imports, p) {
				v.add(file, fset.Position(imp.Pos()).Line, RefImport, "Import", p)
				e.extraImports = append(e.extraImports, p)
			}
		}
	}
	return ok
}

// traces checks every fixed trace against the reference's API: the calls
// exist and get as many arguments as they take, whole numbers where an
// int is expected.
func (v *validator) traces(e *exCode) {
	file := path.Join(e.dir(), "testdata", "suite.json")
	fixed, random := 0, 0
	for i, t := range e.ex.Suite.Tests {
		at := func(p string) int { return v.at(file, fmt.Sprintf("tests.%d%s", i, p)) }
		random += t.Random
		if t.Random > 0 || t.Case > 0 {
			continue
		}
		if len(t.Steps) == 0 && t.New == nil {
			continue
		}
		fixed++
		e.traces = true
		if !e.parsed || !e.generated {
			continue
		}
		if e.api == nil {
			v.add(file, at(""), TraceNoNew, "Test", t.Name)
			e.unrunnable[t.Name] = true
			continue
		}
		if len(t.New) != len(e.api.New) {
			v.add(file, at(".new"), TraceNew, "Test", t.Name, "Want", len(e.api.New), "Got", len(t.New))
			e.unrunnable[t.Name] = true
		} else if j := fraction(t.New, e.api.New); j >= 0 {
			v.add(file, at(".new"), TraceWhole, "Test", t.Name, "Call", "New", "Arg", e.api.New[j].Name)
			e.unrunnable[t.Name] = true
		}
		for j, s := range t.Steps {
			sp := fmt.Sprintf(".steps.%d", j)
			m, ok := e.api.Method(s.Call)
			switch {
			case !ok:
				v.add(file, at(sp), TraceCall, "Test", t.Name, "Step", j+1, "Call", s.Call)
			case len(s.Args) != len(m.Params):
				v.add(file, at(sp), TraceArgs, "Test", t.Name, "Step", j+1, "Call", s.Call, "Want", len(m.Params), "Got", len(s.Args))
			case fraction(s.Args, m.Params) >= 0:
				v.add(file, at(sp), TraceWhole, "Test", t.Name, "Call", s.Call, "Arg", m.Params[fraction(s.Args, m.Params)].Name)
			default:
				continue
			}
			e.unrunnable[t.Name] = true
		}
	}
	if random > 0 {
		e.traces = true
	}
	if !e.traces {
		return
	}
	if fixed == 0 {
		v.add(file, v.at(file, "tests"), NoFixedTraces, "Exercise", e.ex.ID)
	}
	if random < minRandom {
		v.add(file, v.at(file, "tests"), FewRandom, "Got", random, "Want", minRandom)
	}
}

// fraction returns the index of the first argument that is not a whole
// number although its parameter is an integer, or -1.
func fraction(args []float64, ps []tracegen.Param) int {
	for i, a := range args {
		if i < len(ps) && (ps[i].Type == tracegen.Int || ps[i].Type == tracegen.Int64) && a != math.Trunc(a) {
			return i
		}
	}
	return -1
}

// driver checks a generated driver.go: the description it comes from must
// fit the API, and it must be what kurs new driver would write today.
func (v *validator) driver(e *exCode) {
	if e.api == nil {
		return
	}
	suite := path.Join(e.dir(), "testdata", "suite.json")
	driverFile := path.Join(e.dir(), "testdata", "driver.go")
	old, err := fs.ReadFile(v.fsys, driverFile)
	generated := err == nil && tracegen.IsGenerated(old)
	suiteData := e.ex.Suite
	if !generated && suiteData.Observe == "" && suiteData.Generate == nil {
		return // a hand-written driver is the author's business
	}
	ms := tracegen.Check(suiteData, e.api)
	for _, m := range ms {
		v.add(suite, v.at(suite, m.Path), Generate, append([]any{"Gen", m.Kind}, m.Args...)...)
	}
	if !generated {
		return
	}
	random := false
	for _, t := range e.ex.Suite.Tests {
		random = random || t.Random > 0
	}
	ok := len(ms) == 0
	if random && suiteData.Generate == nil {
		v.add(suite, v.at(suite, "tests"), NoGenerate)
		ok = false
	}
	if ok {
		driver, err := tracegen.Driver(e.ex.ID, e.api, suiteData)
		if err == nil && !bytes.Equal(old, driver) {
			v.add(driverFile, 1, DriverStale, "Exercise", e.ex.ID)
			e.stale, ok = true, false
		}
	}
	if !ok {
		// The driver does not draw what the description says, so its
		// random traces say nothing about the reference; the problems
		// above are what to fix.
		for _, t := range e.ex.Suite.Tests {
			if t.Random > 0 {
				e.unrunnable[t.Name] = true
			}
		}
	}
}
