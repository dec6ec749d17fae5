package kurs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kurs-course/kurs/internal/atomicfile"
	"github.com/kurs-course/kurs/internal/browsertest"
	"github.com/kurs-course/kurs/internal/pty"
	"github.com/kurs-course/kurs/internal/term"
)

// cmdTTYFits implements `ttyfits [-until REGEXP] [-reset PATH] WIDTH
// ARGS...`: it runs kurs ARGS on a pseudo-terminal WIDTH columns wide
// and through a pipe, and fails when a line on the
// terminal is wider than WIDTH or a word on it is none of the pipe's,
// which is what a word broken in two leaves: the pipe shows kurs's text
// whole, so its words are the text's. Only after a hyphen or a slash may
// a word go on in the next line. What the terminal showed goes to
// stdout.
//
// -until reads only until the output matches REGEXP and then ends kurs by
// its process group, for a verb that runs until stopped (serve, watch).
// -reset puts PATH, a file or a folder, back as it was before the first
// run, so that the pipe sees the state the terminal saw: the hint
// counter, the backups of kurs restore, or no workspace yet for init; it
// may be given more than once.
//
// WIDTH may be a list, such as 80,60: kurs then runs on a terminal of
// each width, each run's lines are checked, and one run in a pipe, as
// wide as the first, gives the words for all. That is for a verb whose
// output in a pipe does not depend on the width (kurs check's does not:
// its prose stays whole and it draws no table as wide as the window); a
// broken word is none of the pipe's at any width. A verb whose pipe wraps
// prose to COLUMNS (kurs hint) gives the same words at any width as long
// as the wrap breaks none, so a list for it starts with the widest: its
// pipe keeps whole what a narrower one might break. Each width of a list
// costs one run of kurs, not two.
func cmdTTYFits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! ttyfits")
	}
	var until *regexp.Regexp
	var reset []string
	for len(args) > 1 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-until":
			until = regexp.MustCompile(args[1])
		case "-reset":
			reset = append(reset, ts.MkAbs(args[1]))
		default:
			ts.Fatalf("ttyfits: unknown option %s", args[0])
		}
		args = args[2:]
	}
	if len(args) < 2 {
		ts.Fatalf("usage: ttyfits [-until REGEXP] [-reset PATH] WIDTH[,WIDTH...] ARGS...")
	}
	var widths []int
	for w := range strings.SplitSeq(args[0], ",") {
		width, err := strconv.Atoi(w)
		ts.Check(err)
		widths = append(widths, width)
	}
	var err error
	quoted := make([]string, len(args)-1)
	for i, a := range args[1:] {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := "kurs " + strings.Join(quoted, " ")
	saved := make([][]byte, len(reset))
	copies := make([]string, len(reset)) // a folder's copy
	for i, r := range reset {
		if info, err := os.Stat(r); err == nil && info.IsDir() {
			copies[i] = filepath.Join(ts.Getenv("WORK"), fmt.Sprintf(".ttyfits-reset-%d", i))
			ts.Check(os.RemoveAll(copies[i]))
			ts.Check(os.CopyFS(copies[i], os.DirFS(r)))
			continue
		}
		saved[i], err = os.ReadFile(r)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			ts.Fatalf("%v", err)
		}
	}
	restore := func() {
		for i, r := range reset {
			ts.Check(os.RemoveAll(r))
			switch {
			case copies[i] != "":
				ts.Check(os.CopyFS(r, os.DirFS(copies[i])))
			case saved[i] != nil:
				ts.Check(os.WriteFile(r, saved[i], 0o644))
			}
		}
	}
	tty := make([]string, len(widths))
	for i, width := range widths {
		if i > 0 {
			restore()
		}
		tty[i] = ttyRun(ts, until, width, true, args[1:])
	}
	restore()
	pipe := ttyRun(ts, until, widths[0], false, args[1:])
	for i, width := range widths {
		ttyCheck(ts, cmd, width, tty[i], pipe)
	}
}

// ttyCheck writes tty, what the terminal WIDTH columns wide showed of
// cmd, to stdout, and fails when a line of it is wider than WIDTH or a
// word on it is none of pipe's, what cmd wrote to a pipe.
func ttyCheck(ts *testscript.TestScript, cmd string, width int, tty, pipe string) {
	ts.Stdout().Write([]byte(tty))
	if strings.TrimSpace(tty) == "" {
		ts.Fatalf("%s showed nothing on the terminal", cmd)
	}
	// A server's port is its own each time.
	port := regexp.MustCompile(`(127\.0\.0\.1|localhost):[0-9]+`)
	// A concurrent exercise's stress counts, the addresses in a race
	// report and the time a run took differ from run to run, so a number
	// is compared by its place in the word, not its digits, and a time's
	// unit may differ too (86 ms in one run, 0.4 s or 0,4 s in the next, and
	// past a minute 1 min 3 s).
	digits := regexp.MustCompile(`0x[0-9a-f]+|[0-9]+([.,][0-9]+)?`)
	shape := func(w string) string { return digits.ReplaceAllString(w, "0") }
	words := map[string]bool{"s": true, "ms": true, "min": true, "h": true}
	for _, w := range strings.Fields(port.ReplaceAllString(pipe, "$1")) {
		words[w], words[shape(w)] = true, true
	}
	// A word may go on in the next line after a hyphen or a slash, as a
	// long test id does; any other break of a word is a fault.
	var carry, carried string
	for l := range strings.Lines(tty) {
		l = strings.TrimRight(l, "\n")
		if w := term.Width(l); w > width {
			ts.Fatalf("%s: a line of %d columns in a terminal of %d:\n%s", cmd, w, width, l)
		}
		fields := strings.Fields(port.ReplaceAllString(l, "$1"))
		for i, w := range fields {
			if carry != "" {
				w, carried = carry+w, carried+"\n"+l
				carry = ""
			} else {
				carried = l
			}
			if words[w] || words[shape(w)] || strings.Trim(w, "─═│┌┐└┘├┤┬┴┼") == "" {
				continue // a table's or a rule's border is drawn to the width
			}
			if i == len(fields)-1 && (strings.HasSuffix(w, "-") || strings.HasSuffix(w, "/")) {
				carry = w
				continue
			}
			ts.Fatalf("%s: %q, broken from a longer word? The line:\n%s\nThe pipe got:\n%s", cmd, w, carried, pipe)
		}
	}
	if carry != "" {
		ts.Fatalf("%s: %q at the end, broken from a longer word?", cmd, carry)
	}
}

// cmdTTYWatch implements `ttywatch WIDTH WORKSPACE DEST FILE... -- ARGS...`:
// like ttyfits, it runs kurs ARGS (a kurs watch) on a pseudo-terminal
// WIDTH columns wide and through a pipe, and checks every line the
// terminal showed by ttyfits's rules. While kurs runs, each time a screen
// has ended with its keys line it saves the next FILE (a path in the
// module's folder, such as a reference solution) as DEST, a file of the
// watched exercise, and waits for the next screen; after the screen of
// the last FILE it ends kurs. The pipe sees the same saves in a copy of
// WORKSPACE as it was before the terminal's run, so that a first pass is
// a first pass there too; WORKSPACE is left as it was found.
func cmdTTYWatch(ts *testscript.TestScript, neg bool, args []string) {
	sep := slices.Index(args, "--")
	if neg || sep < 4 || sep == len(args)-1 {
		ts.Fatalf("usage: ttywatch WIDTH WORKSPACE DEST FILE... -- ARGS...")
	}
	width, err := strconv.Atoi(args[0])
	ts.Check(err)
	ws, dest := ts.MkAbs(args[1]), ts.MkAbs(args[2])
	var saves [][]byte
	for _, f := range args[3:sep] {
		// The command runs in the test's process, in the module's folder.
		data, err := os.ReadFile(f)
		ts.Check(err)
		saves = append(saves, data)
	}
	quoted := make([]string, len(args)-sep-1)
	for i, a := range args[sep+1:] {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := "kurs " + strings.Join(quoted, " ")
	// Every screen of watch ends with its keys line.
	keys := regexp.MustCompile(`(quit|beenden)\n`)
	steps := func() []ttyStep {
		var st []ttyStep
		for _, data := range saves {
			// Saved whole, by a rename, as most editors save: a truncate
			// and then a write can be split by a busy machine for longer
			// than watch's debounce, and watch then shows, correctly, a
			// check of the empty file first, a screen the pipe's run
			// need not have.
			st = append(st, ttyStep{until: keys, then: func() { ts.Check(atomicfile.WriteFile(dest, data, 0o644)) }})
		}
		return append(st, ttyStep{until: keys})
	}
	before := filepath.Join(ts.MkAbs("."), ".ttywatch-"+filepath.Base(ws))
	ts.Check(os.RemoveAll(before))
	ts.Check(os.CopyFS(before, os.DirFS(ws)))
	tty := ttySteps(ts, steps(), width, true, args[sep+1:])
	ts.Check(os.RemoveAll(ws))
	ts.Check(os.CopyFS(ws, os.DirFS(before)))
	pipe := ttySteps(ts, steps(), width, false, args[sep+1:])
	ts.Check(os.RemoveAll(ws))
	ts.Check(os.Rename(before, ws))
	ttyCheck(ts, cmd, width, tty, pipe)
}

// escapes matches the escape sequences a terminal receives: CSI, OSC and
// the single-character ones.
var escapes = regexp.MustCompile(`\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)

// ttyRun runs kurs with args in the script's folder and environment, on
// a pseudo-terminal width columns wide (tty) or through a pipe, and
// returns what it wrote without escape sequences, a carriage return alone
// ending a line; with until, only until that matches, when its process
// group is ended.
func ttyRun(ts *testscript.TestScript, until *regexp.Regexp, width int, tty bool, args []string) string {
	if until == nil {
		return ttySteps(ts, nil, width, tty, args)
	}
	return ttySteps(ts, []ttyStep{{until: until}}, width, tty, args)
}

// A ttyStep waits until the output since the previous step matches until,
// then does then, if any.
type ttyStep struct {
	until *regexp.Regexp
	then  func()
}

// ttySteps is ttyRun with steps: it reads the output until each step's
// until matches in turn, doing its then, and ends the process group after
// the last. Each wait has waitfor's deadline. Without steps it reads all.
//
// kurs runs on the terminal as a shell in a terminal window starts it: the
// leader of a session whose controlling terminal is its standard input,
// output and error. The test opens the terminal itself rather than
// through script(1) and stty, which cost three processes more per run,
// and scripts run kurs a few hundred times so.
func ttySteps(ts *testscript.TestScript, steps []ttyStep, width int, tty bool, args []string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, lookPath(ts, "kurs"), args...)
	c.Args[0] = "kurs"
	c.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "LANG", "KURS_LANG", "KURS_CACHE", "KURS_CACHE_OBJECTS", "GOROOT", "GOPATH", "GOMODCACHE", "GOCACHE", "TMPDIR"} {
		if v := ts.Getenv(k); v != "" {
			c.Env = append(c.Env, k+"="+v)
		}
	}
	// No colours: a style is no word, and the words are compared.
	c.Env = append(c.Env, "NO_COLOR=1", "TERM=xterm", "SHELL=/bin/sh")
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	// A carriage return alone starts a line drawn over the last one (a
	// status rewritten in place): each drawing is checked as a line.
	clean := func(b []byte) string {
		s := strings.ReplaceAll(escapes.ReplaceAllString(string(b), ""), "\r\n", "\n")
		return strings.ReplaceAll(s, "\r", "\n")
	}
	var r *os.File
	if tty {
		master, slave, err := pty.Open(width, 50)
		ts.Check(err)
		r = master
		// A terminal shows stderr too. Its input never ends, as a
		// terminal's does until someone types Ctrl-D.
		c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
		err = c.Start()
		slave.Close()
		ts.Check(err)
	} else {
		// The pipe draws tables as wide as the terminal; its prose stays
		// whole.
		c.Env = append(c.Env, "COLUMNS="+strconv.Itoa(width))
		pr, w, err := os.Pipe()
		ts.Check(err)
		r = pr
		c.Stdout, c.Stderr = w, w
		if len(steps) > 0 {
			// An input that never ends, as on the terminal: at the end
			// of its input watch quits.
			in, keep, err := os.Pipe()
			ts.Check(err)
			defer keep.Close()
			defer in.Close()
			c.Stdin = in
		}
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		err = c.Start()
		w.Close()
		ts.Check(err)
	}
	defer r.Close()
	// The end of the output: EOF on a pipe; on a terminal, EIO once
	// nothing holds it open any more.
	ended := func(err error) bool { return errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) }
	var out []byte
	buf := make([]byte, 4096)
	if len(steps) == 0 {
		for {
			n, err := r.Read(buf)
			out = append(out, buf[:n]...)
			if ended(err) {
				break
			}
			ts.Check(err)
		}
		_ = c.Wait() // kurs check fails, as it should, for a misconception
		return clean(out)
	}
	// However a step ends, the process group ends with it.
	defer func() {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGTERM)
		_ = c.Wait()
	}()
	mark := 0 // where the output since the previous step starts
	for _, s := range steps {
		// A busy machine stretches the wait, as it does waitfor's.
		limit := browsertest.Scale(waitForDefault)
		ts.Check(r.SetReadDeadline(time.Now().Add(limit)))
		for !s.until.MatchString(clean(out[mark:])) {
			n, err := r.Read(buf)
			out = append(out, buf[:n]...)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				ts.Fatalf("kurs: no match of %s after %v:\n%s", s.until, limit, clean(out))
			}
			if err != nil {
				ts.Fatalf("kurs ended before its output matched %s:\n%s", s.until, clean(out))
			}
		}
		mark = len(out)
		if s.then != nil {
			s.then()
		}
	}
	return clean(out)
}

// lookPath finds the program name in the script's PATH, where testscript
// puts kurs.
func lookPath(ts *testscript.TestScript, name string) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p
		}
	}
	ts.Fatalf("%s is not in the script's PATH", name)
	return ""
}

// cmdMisconceptions implements `misconceptions K DIR`: it writes the
// files of the K-th misconception (in the order of their folders) of
// every exercise of the built-in course into the workspace DIR, so that
// kurs check meets each of them. It fails when no exercise has a K-th.
func cmdMisconceptions(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: misconceptions K DIR")
	}
	k, err := strconv.Atoi(args[0])
	ts.Check(err)
	// The command runs in the test's process, in the module's folder.
	dirs, err := filepath.Glob("exercises/*/misconceptions/*/misconception.json")
	ts.Check(err)
	found := 0
	byExercise := map[string][]string{}
	for _, d := range dirs {
		ex := strings.Split(filepath.ToSlash(d), "/")[1]
		byExercise[ex] = append(byExercise[ex], filepath.Dir(d))
	}
	for ex, list := range byExercise {
		slices.Sort(list)
		if k >= len(list) {
			continue
		}
		files, err := filepath.Glob(filepath.Join(list[k], "*.go"))
		ts.Check(err)
		for _, f := range files {
			data, err := os.ReadFile(f)
			ts.Check(err)
			ts.Check(os.WriteFile(ts.MkAbs(filepath.Join(args[1], ex, filepath.Base(f))), data, 0o644))
		}
		found++
	}
	if (found == 0) != neg {
		ts.Fatalf("misconceptions %d: %d exercises have one (a course with more misconceptions needs a step more in the script)", k, found)
	}
}

// cmdSolutions implements `solutions DIR`: it writes the reference
// solution of every code exercise of the built-in course into the
// workspace DIR, so that kurs check passes them and kurs solution opens.
func cmdSolutions(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: solutions DIR")
	}
	files, err := filepath.Glob("exercises/*/solution/*.go")
	ts.Check(err)
	if len(files) == 0 {
		ts.Fatalf("no reference solutions in exercises/*/solution")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		ts.Check(err)
		ex := strings.Split(filepath.ToSlash(f), "/")[1]
		ts.Check(os.WriteFile(ts.MkAbs(filepath.Join(args[0], ex, filepath.Base(f))), data, 0o644))
	}
}
