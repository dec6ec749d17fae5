package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/harness"
)

// replayTimeout bounds one replay: a build and the reference on every
// trace, which takes a second or two; a reference that loops forever is
// the checker's to report.
const replayTimeout = 2 * time.Minute

// replayed is what the reference did on one trace.
type replayed struct {
	Name  string       `json:"name"`
	Init  string       `json:"init"` // the observation right after New
	Steps []replayStep `json:"steps"`
	// Panic is set when the reference panicked, at Step (1-based; 0 is
	// New, -1 the random trace's generator).
	Panic string `json:"panic,omitempty"`
	Step  int    `json:"step"`
	// Index and Trace identify a random trace.
	Index int            `json:"index"`
	Trace *harness.Trace `json:"trace,omitempty"`
}

type replayStep struct {
	Ret string `json:"ret"`
	Obs string `json:"obs"`
}

// replayOut is the replay program's answer. Driver is false when the
// exercise's driver is not a harness.Traces (a quiz).
type replayOut struct {
	Driver bool       `json:"driver"`
	Traces []replayed `json:"traces"`
	Random []replayed `json:"random"`
}

// replayRequest is what the replay program reads.
type replayRequest struct {
	Traces []harness.Test `json:"traces"`
	Random []harness.Test `json:"random"`
	Seed   uint64         `json:"seed"`
}

// replaySource is added to the exercise's driver, whose call of
// harness.Main is redirected to kursReplay: the driver's own mapping of
// calls to the API then serves to run the reference alone, step by step,
// recording every result and observation, which the harness does not
// report (it only compares).
const replaySource = `package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"

	kursharness "github.com/kurs-course/kurs/internal/harness"
)

type kursReplayStep struct {
	Ret string ` + "`json:\"ret\"`" + `
	Obs string ` + "`json:\"obs\"`" + `
}

type kursReplayed struct {
	Name  string             ` + "`json:\"name\"`" + `
	Init  string             ` + "`json:\"init\"`" + `
	Steps []kursReplayStep   ` + "`json:\"steps\"`" + `
	Panic string             ` + "`json:\"panic,omitempty\"`" + `
	Step  int                ` + "`json:\"step\"`" + `
	Index int                ` + "`json:\"index\"`" + `
	Trace *kursharness.Trace ` + "`json:\"trace,omitempty\"`" + `
}

func kursReplay(d kursharness.Driver) {
	var out struct {
		Driver bool           ` + "`json:\"driver\"`" + `
		Traces []kursReplayed ` + "`json:\"traces\"`" + `
		Random []kursReplayed ` + "`json:\"random\"`" + `
	}
	if tr, ok := d.(kursharness.Traces); ok {
		out.Driver = true
		data, err := os.ReadFile(os.Args[1])
		if err != nil {
			panic(err)
		}
		var req struct {
			Traces []kursharness.Test ` + "`json:\"traces\"`" + `
			Random []kursharness.Test ` + "`json:\"random\"`" + `
			Seed   uint64             ` + "`json:\"seed\"`" + `
		}
		if err := json.Unmarshal(data, &req); err != nil {
			panic(err)
		}
		for _, t := range req.Traces {
			out.Traces = append(out.Traces, kursReplayRun(tr, t.Name, kursharness.Trace{New: t.New, Steps: t.Steps}))
		}
		for _, t := range req.Random {
			if tr.Random == nil {
				continue
			}
			for i := range t.Random {
				var trace kursharness.Trace
				// The same traces as the check: harness.Traces.Run seeds
				// them the same way.
				if p := kursReplayCatch(func() { trace = tr.Random(rand.New(rand.NewPCG(req.Seed, uint64(i)))) }); p != "" {
					out.Random = append(out.Random, kursReplayed{Name: t.Name, Index: i, Panic: p, Step: -1})
					break
				}
				if r := kursReplayRun(tr, t.Name, trace); r.Panic != "" {
					r.Index, r.Trace = i, &trace
					out.Random = append(out.Random, r)
					break
				}
			}
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
	os.Exit(0)
}

func kursReplayCatch(f func()) (p string) {
	defer func() {
		if v := recover(); v != nil {
			if p = fmt.Sprint(v); p == "" {
				p = fmt.Sprintf("%#v", v)
			}
		}
	}()
	f()
	return ""
}

func kursReplayRun(d kursharness.Traces, name string, t kursharness.Trace) kursReplayed {
	r := kursReplayed{Name: name}
	var s kursharness.Subject
	if p := kursReplayCatch(func() { s = d.New(true, t.New); r.Init = s.Observe() }); p != "" {
		r.Panic = p
		return r
	}
	for i, st := range t.Steps {
		var res kursReplayStep
		if p := kursReplayCatch(func() { res.Ret = s.Do(st.Call, st.Args); res.Obs = s.Observe() }); p != "" {
			r.Panic, r.Step = p, i+1
			return r
		}
		r.Steps = append(r.Steps, res)
	}
	return r
}
`

// noReplay is why the reference could not be replayed: a driver that does
// not call harness.Main, or one that does not build or run with the
// reference (the checks say more about that).
type noReplay struct{ why string }

func (e *noReplay) Error() string { return "no replay: " + e.why }

// replay builds the exercise's driver with the reference in the learner's
// place and runs the reference alone on the requested traces.
func (v *validator) replay(ctx context.Context, e *exCode, req replayRequest) (*replayOut, error) {
	driver, _, err := e.ex.Tests()
	if err != nil {
		return nil, &noReplay{err.Error()}
	}
	tmp, err := os.MkdirTemp(v.opts.checker().TempDir, "kurs-validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	write := func(name string, data []byte) error {
		name = filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, data, 0o644)
	}
	if err := write("go.mod", []byte("module github.com/kurs-course/kurs\n\ngo 1.22\n")); err != nil {
		return nil, err
	}
	for _, f := range e.solution {
		if err := write(path.Join(e.ex.ID, f.Name), f.Data); err != nil {
			return nil, err
		}
		if err := write(path.Join("internal/reference", e.ex.ID, f.Name), f.Data); err != nil {
			return nil, err
		}
	}
	support, err := e.ex.SupportFiles()
	if err != nil {
		return nil, &noReplay{err.Error()}
	}
	for dir, files := range support {
		for _, f := range files {
			if err := write(path.Join("exercises", dir, f.Name), f.Data); err != nil {
				return nil, err
			}
		}
	}
	redirected := false
	for _, f := range driver {
		data, ok := redirect(f.Data)
		redirected = redirected || ok
		if err := write(path.Join("internal/run", f.Name), data); err != nil {
			return nil, err
		}
	}
	if !redirected {
		return nil, &noReplay{"testdata/driver.go does not call harness.Main"}
	}
	if err := write("internal/run/zz_kurs_replay.go", []byte(replaySource)); err != nil {
		return nil, err
	}
	err = fs.WalkDir(harness.Source, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(harness.Source, name)
		if err != nil {
			return err
		}
		return write(path.Join("internal/harness", name), data)
	})
	if err != nil {
		return nil, err
	}
	reqData, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if err := write("request.json", reqData); err != nil {
		return nil, err
	}

	ctx, cancel := context.WithTimeout(ctx, replayTimeout)
	defer cancel()
	prog := filepath.Join(tmp, "kurs-replay")
	if runtime.GOOS == "windows" {
		prog += ".exe"
	}
	build := exec.CommandContext(ctx, v.goCommand(), "build", "-trimpath", "-o", prog, "./internal/run")
	build.Dir, build.Env, build.WaitDelay = tmp, checker.BuildEnv(), time.Second
	if out, err := build.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, &noReplay{string(bytes.TrimSpace(out))}
		}
		return nil, fmt.Errorf("go build: %w: %s", err, bytes.TrimSpace(out))
	}
	run := exec.CommandContext(ctx, prog, filepath.Join(tmp, "request.json"))
	run.Dir, run.Env, run.WaitDelay = tmp, []string{"GOTRACEBACK=single"}, time.Second
	var stdout bytes.Buffer
	run.Stdout = &stdout
	if err := run.Run(); err != nil {
		if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
			return nil, ctx.Err()
		}
		return nil, &noReplay{err.Error()} // an endless loop or a crash: the check reports it
	}
	var out replayOut
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, &noReplay{err.Error()}
	}
	return &out, nil
}

// redirect rewrites a driver file so that its call of harness.Main calls
// kursReplay instead. It reports whether it found the call.
func redirect(src []byte) ([]byte, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "driver.go", src, parser.ParseComments)
	if err != nil {
		return src, false
	}
	name := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/kurs-course/kurs/internal/harness" {
			name = "harness"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" {
		return src, false
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Main" {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == name {
				call.Fun = ast.NewIdent("kursReplay")
				found = true
			}
		}
		return true
	})
	if !found {
		return src, false
	}
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return src, false
	}
	// The harness import may now be unused; keep it used.
	b.WriteString("\nvar _ " + name + ".Driver\n")
	return b.Bytes(), true
}

func (v *validator) goCommand() string {
	if g := v.opts.checker().Go; g != "" {
		return g
	}
	if g, err := exec.LookPath("go"); err == nil {
		return g
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}
