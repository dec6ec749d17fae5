package build

import (
	"bytes"
	"context"
	_ "embed" // the source of extld
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// extldSource is the program that stands in for the C compiler when the
// Go linker links a race-enabled program (see extld/main.go).
//
//go:embed extld/main.go
var extldSource []byte

// extldID names extld among the judges; see launcherID.
const extldID = "_extld"

// raceLinker is what a race build needs to link through extld: the flag
// for the Go linker, the environment for extld, and the file where extld
// notes what it had to ask the C compiler.
type raceLinker struct {
	flag    string   // -extld=…, for -ldflags
	env     []string // KURS_EXTLD_*
	learned string   // KURS_EXTLD_LEARNED
	known   []string // the answers passed in, one a line
	answers string   // the file that keeps the answers of this C compiler
	gold    bool     // whether the C compiler links static programs with gold
}

// extldflags returns the Go linker's flag for the C compiler's link: a
// static program, linked by GNU gold where the C compiler can. gold links
// a race detector's program in about two thirds of the CPU time of the
// default BFD linker, and the program is the same to run.
func (l *raceLinker) extldflags() string {
	if l.gold {
		return "-extldflags=-static -fuse-ld=gold"
	}
	return "-extldflags=-static"
}

// raceLinker returns how the race build of the module in dir links
// through extld, which answers the Go linker's questions about the C
// compiler from what it answered before; ok is false when there is no
// extld (the build then links as the go command does by itself).
func (b *Builder) raceLinker(ctx context.Context, dir string) (l raceLinker, ok bool) {
	_, value, ok := b.raceReady()
	if !ok {
		return l, false
	}
	cc := []string{"gcc"}
	if v := strings.Fields(os.Getenv("CC")); len(v) > 0 {
		cc = v
	}
	path, err := exec.LookPath(cc[0])
	if err != nil {
		return l, false
	}
	if path, err = filepath.Abs(path); err != nil {
		return l, false
	}
	cc[0] = path
	judges, err := b.sub("judges")
	if err != nil {
		return l, false
	}
	prog, err := b.Judge(ctx, extldID, map[string][]byte{
		"go.mod":               []byte("module github.com/kurs-course/kurs\n\ngo " + GoLanguage + "\n"),
		"internal/run/main.go": extldSource,
	})
	// -ldflags and the Go linker split at spaces and take quotes: a path
	// with either is not worth the quoting.
	if err != nil || strings.ContainsAny(prog, " \t\n'\"\\") {
		return l, false
	}
	l.answers = filepath.Join(judges, extldID+".answers-"+value)
	if data, err := os.ReadFile(l.answers); err == nil {
		l.known = strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	l.learned = filepath.Join(dir, ".kurs-extld-learned")
	l.flag = "-extld=" + prog
	l.gold = linksWithGold(ctx, cc, filepath.Join(judges, extldID+".gold-"+value))
	l.env = []string{"KURS_EXTLD_CC=" + strings.Join(cc, "\n"), "KURS_EXTLD_KNOWN=" + strings.Join(l.known, "\n"),
		"KURS_EXTLD_LEARNED=" + l.learned}
	return l, true
}

// keep adds the answers extld learned in a build to those kept.
func (l raceLinker) keep() {
	data, err := os.ReadFile(l.learned)
	if err != nil {
		return
	}
	all := slices.Clone(l.known)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if (strings.HasPrefix(line, "yes ") || strings.HasPrefix(line, "no ")) && !slices.Contains(all, line) {
			all = append(all, line)
		}
	}
	if len(all) > len(l.known) {
		_ = writeRecord(l.answers, strings.Join(all, "\n")+"\n")
	}
}

// linksWithGold reports whether the C compiler cc links a static program
// with GNU gold (-fuse-ld=gold), which not every system has. It asks once
// per C compiler, by linking a trivial program as the Go linker asks about
// a flag, and keeps the answer in the file record.
func linksWithGold(ctx context.Context, cc []string, record string) bool {
	if data, err := os.ReadFile(record); err == nil {
		return strings.TrimSpace(string(data)) == "yes"
	}
	dir, err := os.MkdirTemp("", "kurs-gold-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "trivial.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o600); err != nil {
		return false
	}
	cmd := exec.CommandContext(ctx, cc[0], append(cc[1:len(cc):len(cc)], "-static", "-fuse-ld=gold", "-o", filepath.Join(dir, "a.out"), src)...)
	cmd.Env = append([]string{"LC_ALL=C"}, os.Environ()...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return false // no answer: asked again next time
	}
	yes := err == nil && !bytes.Contains(out, []byte("unrecognized")) && !bytes.Contains(out, []byte("unknown"))
	answer := "no"
	if yes {
		answer = "yes"
	}
	_ = writeRecord(record, answer+"\n")
	return yes
}
