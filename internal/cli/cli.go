// Package cli implements the kurs command line: it parses verbs and flags,
// finds the workspace and the course, and calls the checker and the report
// package. Only Main's caller exits.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/build"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/term"
	"github.com/kurs-course/kurs/internal/workspace"
)

// Exit codes, the same for every verb.
const (
	ExitOK    = 0 // everything checked passes, or the verb succeeded
	ExitFail  = 1 // some exercise fails, does not build or is refused
	ExitUsage = 2 // bad usage or setup
)

// IO is what a command reads and writes; tests pass buffers.
type IO struct {
	In       io.Reader // keys for watch; nil means no input
	Out, Err io.Writer
	Getenv   func(string) string
	Getwd    func() (string, error)
}

// System returns the process's real IO.
func System() IO {
	return IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv, Getwd: os.Getwd}
}

// globals are the flags every verb takes.
type globals struct {
	workspace string
	lang      string
	course    string
	help      bool
}

// env is what a verb runs with: its streams, the chosen language, and the
// workspace and course once found.
type env struct {
	IO
	ctx context.Context
	g   globals
	p   *i18n.Printer
	// verb is the verb that runs, nil until Main has found it.
	verb *verb
	// build is the run's Builder, made on first use (see builder); Main
	// closes it.
	build *build.Builder
	// warming is set while kurs init prepares the cache, which it has
	// announced itself.
	warming bool
	// outTerm and errTerm are Out and Err as terminals, made on first use
	// (see stdout).
	outTerm, errTerm *term.Terminal
}

// verb is one kurs command. A verb's options are a struct of its own,
// filled by flags; its work is a named function that returns an error,
// which exit maps to the exit code (see command).
type verb struct {
	name  string
	flags func(fs *flag.FlagSet) // registers the verb's own flags
	do    func(e *env, args []string) error
	// help returns the verb's help when it is more than its message
	// help.VERB, such as a list made from a registry.
	help func(e *env) string
	// graderLang: the verb speaks the grader's language (--lang, or the
	// environment) and never the workspace's, because the kurs.toml it
	// might find is not the user's: grade reads students' submissions.
	graderLang bool
	// quick: the verb ends at once and leaves nothing to clean up, so
	// Ctrl-C may end kurs as it ends any program, and Run sets up no
	// signal handling, which costs every start two threads.
	quick bool
}

// command registers the verb name, whose options O are set by flags and
// which run does.
func command[O any](name string, flags func(o *O, fs *flag.FlagSet), run func(e *env, o *O, args []string) error) *verb {
	o := new(O)
	v := &verb{name: name, do: func(e *env, args []string) error { return run(e, o, args) }}
	if flags != nil {
		v.flags = func(fs *flag.FlagSet) { flags(o, fs) }
	}
	return v
}

// noOptions is the option struct of verbs without flags of their own.
type noOptions struct{}

// helpText returns the verb's help in the learner's language.
func (v *verb) helpText(e *env) string {
	text := e.p.T("help." + v.name)
	if v.help != nil {
		text = v.help(e)
	}
	return layoutHelp(text, e.helpWidth())
}

// verbs returns kurs's verbs, in the order kurs help lists them.
func verbs() []*verb {
	return []*verb{
		initVerb(), listVerb(), lessonVerb(), checkVerb(), watchVerb(), serveVerb(), hintVerb(),
		resetVerb(), restoreVerb(), tryVerb(), solutionVerb(), gradeVerb(), validateVerb(), newVerb(),
		helpVerb(), versionVerb(),
	}
}

// usageError is a mistake in how kurs was called or set up, or a failure
// of kurs itself such as a document it could not write: exit status 2. Its
// text is localized; "" means it was reported already.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// failedError means that the verb did its work and found that something
// fails (an exercise, a refused request); msg, when set, says what.
type failedError struct{ msg string }

func (e *failedError) Error() string { return e.msg }

// errFailed is a failedError with nothing more to say: the verb's output
// says it already.
var errFailed = &failedError{}

// exit reports err, if any, on stderr in the learner's language, on a
// terminal wrapped to its width at spaces as sayErr wraps, and returns
// the exit code that stands for it: the one place where errors become
// exit codes. Of errors joined with errors.Join, each is reported
// and the most serious code counts (the codes grow with seriousness).
func (e *env) exit(err error) int {
	var ue *usageError
	var fe *failedError
	var unsafe *build.UnsafeError
	if errs, ok := err.(interface{ Unwrap() []error }); ok {
		code := ExitOK
		for _, err := range errs.Unwrap() {
			code = max(code, e.exit(err))
		}
		return code
	}
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &fe):
		if fe.msg != "" {
			e.stderr().Println(fe.msg)
		}
		return ExitFail
	case errors.As(err, &ue):
		if ue.msg != "" { // "" was reported already
			e.stderr().Println(ue.msg)
		}
	case e.ctx.Err() != nil:
		e.stderr().Println(e.p.T("error.interrupted"))
	case errors.As(err, &unsafe):
		id := "error.cache_open"
		switch {
		case unsafe.Link && unsafe.Foreign:
			id = "error.cache_link_foreign"
		case unsafe.Link:
			id = "error.cache_link_open"
		case unsafe.Foreign:
			id = "error.cache_foreign"
		}
		e.stderr().Println(e.p.T(id, "Dir", unsafe.Dir))
	case errors.Is(err, workspace.ErrNotFound):
		dir := e.g.workspace
		if dir == "" {
			dir, _ = e.Getwd()
		}
		e.stderr().Println(e.p.T("error.no_workspace", "Dir", dir))
	default:
		e.stderr().Println(e.p.T("error.setup", "Err", err))
	}
	return ExitUsage
}

// builder returns the run's Builder, shared by all its checks, made on
// first use. It is nil when the cache cannot be used: each check then
// meets the same failure, which exit reports.
func (e *env) builder() *build.Builder {
	if e.build == nil {
		// On an empty cache the first check builds Go's standard library
		// and the judges for a minute or more: it says so first, unless
		// kurs init already said it prepares them.
		e.build, _ = build.New(build.Options{Preparing: func() {
			if !e.warming {
				// A Terminal of its own: the builds that call this
				// run on goroutines of their own.
				term.New(e.Err, e.Getenv).Println(e.p.T("check.preparing"))
			}
		}})
	}
	return e.build
}

// usageErr returns the usage mistake of message id.
func (e *env) usageErr(id string, kv ...any) error { return &usageError{e.p.T(id, kv...)} }

// Run is the kurs command as a whole: Main with the process's streams,
// ending the run early, and cleanly, on Ctrl-C or SIGTERM.
func Run(args []string) int {
	ctx := context.Background()
	if !quick(args) {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	return Main(ctx, args, System())
}

// quick reports whether args run a quick verb, or only print usage or a
// usage error.
func quick(args []string) bool {
	_, rest := peekGlobals(args)
	if len(rest) == 0 {
		return true
	}
	for _, v := range verbs() {
		if v.name == rest[0] {
			return v.quick
		}
	}
	return true
}

// Main runs kurs with args (without the program name) and returns the exit
// code. The context ends the run early, e.g. on Ctrl-C.
func Main(ctx context.Context, args []string, io IO) int {
	g, rest := peekGlobals(args)
	e := &env{IO: io, ctx: ctx, g: g}
	defer func() {
		if e.build != nil {
			e.build.Close()
		}
	}()
	e.p = i18n.New(i18n.Choose(g.lang, "", io.Getenv))
	if len(rest) == 0 {
		e.settleLang()
		return e.exit(&usageError{e.usageText()})
	}
	name := rest[0]
	if name == "--help" || name == "-h" || name == "-help" {
		// "kurs -h check" asks for check's help.
		if len(rest) > 1 && !strings.HasPrefix(rest[1], "-") {
			name, rest = "help", []string{"help", rest[1]}
		} else {
			e.settleLang()
			fmt.Fprintln(io.Out, e.usageText())
			return ExitOK
		}
	}
	var v *verb
	for _, c := range verbs() {
		if c.name == name {
			v = c
		}
	}
	if v == nil {
		e.settleLang()
		return e.exit(e.usageErr("error.unknown_verb", "Verb", name))
	}
	e.verb = v
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Err)
	fs.Usage = func() {}
	fs.StringVar(&e.g.workspace, "workspace", "", "")
	// The default is what peekGlobals found: a flag error stops the
	// parse before a later --lang, which must still choose the language.
	fs.StringVar(&e.g.lang, "lang", g.lang, "")
	fs.StringVar(&e.g.course, "course", "", "")
	fs.BoolVar(&e.g.help, "help", false, "")
	fs.BoolVar(&e.g.help, "h", false, "")
	if v.flags != nil {
		v.flags(fs)
	}
	fs.SetOutput(discard{})
	pos, err := parse(fs, rest[1:])
	// Every message, a usage error in the first line included, speaks the
	// workspace's language: settle it before the verb can complain
	// (settleLang leaves a verb that speaks the grader's language alone).
	e.settleLang()
	if err != nil {
		return e.exit(errors.Join(e.usageErr("error.flag", "Err", flagError(e.p, fs, err, rest[1:])),
			e.usageErr("error.see_help", "Verb", name)))
	}
	if e.g.lang != "" && !i18n.Supported(e.g.lang) {
		return e.exit(e.usageErr("error.lang", "Lang", e.g.lang))
	}
	if e.g.help {
		e.settleLang()
		fmt.Fprintln(io.Out, v.helpText(e))
		return ExitOK
	}
	return e.exit(v.do(e, pos))
}

// settleLang chooses the language as a verb with a workspace would: the
// workspace's language counts, when there is one. Help needs no
// workspace, but speaks the learner's language. A verb that speaks the
// grader's language takes nothing from a kurs.toml, its language included.
func (e *env) settleLang() {
	if e.verb == nil || !e.verb.graderLang {
		_, _ = e.workspace()
	}
}

// usageText is kurs's usage: what kurs is, its verbs with what each does,
// as the registry lists them, the flags of every verb and the exit codes.
//
// It is laid out to the width of the terminal (see helpWidth): each
// verb's description wrapped in a column of its own, which keeps at least
// three fifths of the width; a verb too long for it has its description
// on the lines under it.
func (e *env) usageText() string {
	width := e.helpWidth()
	var rows []definition
	for _, v := range verbs() {
		synopsis, summary, _ := strings.Cut(e.p.T("verb."+v.name), "\t")
		rows = append(rows, definition{synopsis, summary})
	}
	var b strings.Builder
	b.WriteString(layoutHelp(e.p.T("help.header"), width) + "\n\n")
	b.WriteString(e.p.T("help.verbs") + "\n")
	for _, l := range definitionList(rows, 2, 0, width*3/5, width) {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n" + layoutHelp(e.p.T("help.footer"), width))
	return b.String()
}

// peekGlobals finds --lang early, so that even errors in parsing the verb
// are in the user's language.
func peekGlobals(args []string) (globals, []string) {
	var g globals
	for i, a := range args {
		switch {
		case a == "--lang" || a == "-lang":
			if i+1 < len(args) {
				g.lang = args[i+1]
			}
		case strings.HasPrefix(a, "--lang=") || strings.HasPrefix(a, "-lang="):
			_, g.lang, _ = strings.Cut(a, "=")
		}
	}
	// The verb is the first argument that is not a global flag or its value.
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--lang" || a == "-lang" || a == "--workspace" || a == "-workspace" || a == "--course" || a == "-course" {
			i++
			continue
		}
		if n, _, ok := strings.Cut(strings.TrimLeft(a, "-"), "="); ok && strings.HasPrefix(a, "-") && (n == "lang" || n == "workspace" || n == "course") {
			continue
		}
		return g, append(args[i:i+1:i+1], append(append([]string(nil), args[:i]...), args[i+1:]...)...)
	}
	return g, nil
}

// parse parses flags that may stand before or after the arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagError localizes the flag package's errors and names the flag as the
// user typed it.
func flagError(p *i18n.Printer, fs *flag.FlagSet, err error, args []string) string {
	s := err.Error()
	for prefix, id := range map[string]string{
		"flag provided but not defined: ": "error.flag_unknown",
		"flag needs an argument: ":        "error.flag_needs_value",
	} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			name := strings.TrimLeft(rest, "-")
			for _, a := range args {
				if n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); n == name && strings.HasPrefix(a, "-") {
					rest, _, _ = strings.Cut(a, "=")
					break
				}
			}
			return p.T(id, "Flag", rest)
		}
	}
	if m := badValue().FindStringSubmatch(s); m != nil {
		value, name, reason := m[1], m[2], m[3]
		// The flag package quotes the value as Go does; the message puts
		// it in the quotation marks of its language, escaped as Go
		// escapes it.
		if u, err := strconv.Unquote(value); err == nil {
			q := strconv.Quote(u)
			value = q[1 : len(q)-1]
		}
		typed := "-" + name
		for _, a := range args {
			if n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); n == name && strings.HasPrefix(a, "-") {
				typed, _, _ = strings.Cut(a, "=")
				break
			}
		}
		// The flag package's reason ("parse error") is English and says
		// little; what the flag takes says more, in the learner's language.
		id := "error.flag_value_reason"
		if f := fs.Lookup(name); f != nil {
			v := f.Value
			if r, ok := v.(setRecorder); ok {
				v = r.Value
			}
			if g, ok := v.(flag.Getter); ok {
				switch g.Get().(type) {
				case time.Duration:
					id = "error.flag_value_duration"
				case int, int64:
					id = "error.flag_value_int"
				case uint, uint64:
					id = "error.flag_value_uint"
				case bool:
					id = "error.flag_value_bool"
				}
			}
		}
		return p.T(id, "Value", value, "Flag", typed, "Reason", reason)
	}
	return s
}

// badValue matches the flag package's error for a value a flag refused:
// the value as Go quotes it, the flag's name and the reason. Compiled on
// first use, not at every start of kurs (TestNoHeavyInit).
var badValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-(\S+?): (.*)$`)
})

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// abs resolves a path given on the command line against the working folder.
func (e *env) abs(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := e.Getwd()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, p), nil
}

// workspace finds the workspace: --workspace, or the current folder and its
// parents. It also settles the language, which the workspace may set.
func (e *env) workspace() (*workspace.Workspace, error) {
	var ws *workspace.Workspace
	var err error
	if e.g.workspace != "" {
		dir, aerr := e.abs(e.g.workspace)
		if aerr != nil {
			return nil, aerr
		}
		ws, err = workspace.Open(dir)
	} else {
		wd, werr := e.Getwd()
		if werr != nil {
			return nil, werr
		}
		ws, err = workspace.Find(wd)
	}
	if err != nil {
		return nil, err
	}
	e.p = i18n.New(i18n.Choose(e.g.lang, ws.Config.Lang, e.Getenv))
	return ws, nil
}

// course loads the course: --course, else the workspace's, else the
// embedded one.
func (e *env) course(ws *workspace.Workspace) (*course.Course, error) {
	dir := e.g.course
	if dir == "" && ws != nil && ws.Config.Course != "" && ws.Config.Course != "embedded" {
		dir = ws.Config.Course
	}
	var fsys fs.FS = kurs.Content()
	if dir != "" {
		abs, err := e.abs(dir)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(abs, "exercises")); err != nil {
			return nil, &usageError{e.p.T("error.course_dir", "Dir", abs)}
		}
		fsys = os.DirFS(abs)
	}
	c, err := course.Load(fsys)
	if err != nil {
		return nil, &usageError{e.p.T("error.course", "Err", err)}
	}
	return c, nil
}

// openCourse finds the workspace and its course.
func (e *env) openCourse() (*workspace.Workspace, *course.Course, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, nil, err
	}
	c, err := e.course(ws)
	if err != nil {
		return nil, nil, err
	}
	return ws, c, nil
}

// open finds the workspace, its course and the named exercises (all of
// them when names is empty): what most verbs begin with.
func (e *env) open(names []string) (*workspace.Workspace, *course.Course, []*course.Exercise, error) {
	ws, c, err := e.openCourse()
	if err != nil {
		return nil, nil, nil, err
	}
	exs, err := e.exercises(c, names)
	if err != nil {
		return nil, nil, nil, err
	}
	return ws, c, exs, nil
}

// openNamed is open for a verb that works on the named exercises alone:
// of the built-in course, which kurs's own tests validate whole, it reads
// the lessons and only those exercises, not every exercise's files. A
// name that is none of them, or any other course, gets open's answer.
func (e *env) openNamed(names []string) (*workspace.Workspace, *course.Course, []*course.Exercise, error) {
	if len(names) == 0 || e.g.course != "" {
		return e.open(names)
	}
	ws, err := e.workspace()
	if err != nil {
		return nil, nil, nil, err
	}
	if ws.Config.Course != "" && ws.Config.Course != "embedded" {
		return e.open(names)
	}
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = strings.Trim(filepath.ToSlash(n), "/.")
	}
	c, err := course.LoadExercises(kurs.Content(), ids)
	if err != nil {
		return e.open(names)
	}
	exs, err := e.exercises(c, names)
	if err != nil {
		return e.open(names)
	}
	return ws, c, exs, nil
}

// exercises returns the named exercises, or all of them.
func (e *env) exercises(c *course.Course, names []string) ([]*course.Exercise, error) {
	if len(names) == 0 {
		return c.Exercises, nil
	}
	var out []*course.Exercise
	for _, n := range names {
		n = strings.Trim(filepath.ToSlash(n), "/.")
		ex, ok := c.Exercise(n)
		if !ok {
			var ids []string
			for _, x := range c.Exercises {
				ids = append(ids, x.ID)
			}
			return nil, &usageError{e.p.T("error.unknown_exercise", "Name", n, "Known", strings.Join(ids, ", "))}
		}
		if !slices.Contains(out, ex) {
			out = append(out, ex)
		}
	}
	return out, nil
}
