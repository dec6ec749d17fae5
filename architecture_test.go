package kurs_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modulePath is the module's import path, as go.mod says.
const modulePath = "github.com/kurs-course/kurs"

// notInDiagram are the module's packages that docs/architecture.md leaves
// out of its package diagram, by prefix of their path in the module.
var notInDiagram = []string{
	"exercises/",             // the course's own code: skeletons, references, simulators
	"bench/",                 // benchmarks, run by hand or by make bench
	"lessons",                // tests of the lessons' numbers
	"internal/browsertest",   // a helper of the browser tests
	"internal/testkit",       // a helper of the tests that check learner code
	"internal/pty",           // a helper of the terminal tests and bench/live
	"checker/corpus",         // tests only: the checker's corpus test
	"internal/harness/guard", // copied into every check, imported by none
}

// TestArchitectureDiagram holds the package diagram of docs/architecture.md
// to the code: every arrow is an import of one package by another, and
// every import between the packages shown is an arrow.
func TestArchitectureDiagram(t *testing.T) {
	drawn, nodes := diagramArrows(t, "docs/architecture.md")
	actual := importArrows(t)

	for pkg := range actual.nodes {
		assert.Contains(t, nodes, pkg, "docs/architecture.md: the package %s is not in the diagram", pkg)
	}
	for _, a := range drawn {
		assert.Contains(t, actual.arrows, a, "docs/architecture.md draws %s, but the code has no such import", a)
	}
	for _, a := range actual.arrows {
		assert.Contains(t, drawn, a, "docs/architecture.md lacks the arrow %s (an import in the code)", a)
	}
}

// arrow is "from --> to", packages by their path in the module.
type arrow = string

// diagramArrows reads the first mermaid flowchart of the Markdown file
// name: its arrows, and every node it names.
func diagramArrows(t *testing.T, name string) ([]arrow, map[string]bool) {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	node := `(\w+)(?:\[([^\]]+)\])?`
	edge := regexp.MustCompile(`^\s*` + node + `\s*-->\s*` + node + `\s*$`)
	alone := regexp.MustCompile(`^\s*` + node + `\s*$`)
	labels := map[string]string{}
	label := func(id, l string) string {
		if l != "" {
			labels[id] = l
		}
		if l, ok := labels[id]; ok {
			return l
		}
		return id
	}
	var arrows []arrow
	nodes := map[string]bool{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.TrimSpace(line) == "```mermaid":
			in = true
			continue
		case in && strings.TrimSpace(line) == "```":
			require.NotEmpty(t, arrows, "%s: no arrows in the first mermaid block", name)
			return arrows, nodes
		case !in, strings.HasPrefix(strings.TrimSpace(line), "flowchart"):
			continue
		}
		if m := edge.FindStringSubmatch(line); m != nil {
			from, to := pkgOf(label(m[1], m[2])), pkgOf(label(m[3], m[4]))
			nodes[from], nodes[to] = true, true
			a := from + " --> " + to
			assert.NotContains(t, arrows, a, "%s draws %s twice", name, a)
			arrows = append(arrows, a)
		} else if m := alone.FindStringSubmatch(line); m != nil {
			nodes[pkgOf(label(m[1], m[2]))] = true
		} else {
			t.Errorf("%s: a line of the diagram that is not an arrow: %q", name, line)
		}
	}
	require.NoError(t, sc.Err())
	t.Fatalf("%s: no mermaid flowchart", name)
	return nil, nil
}

// pkgOf returns the package a node's label names: its path in the module,
// "." for the module's root (content.go).
func pkgOf(label string) string {
	if label == "content.go" {
		return "."
	}
	return label
}

type imports struct {
	arrows []arrow
	nodes  map[string]bool
}

// importArrows lists the direct imports between the module's packages, as
// the go command sees them (tests left out).
func importArrows(t *testing.T) imports {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	require.NoError(t, err)
	rel := func(p string) (string, bool) {
		if p == modulePath {
			return ".", true
		}
		r, ok := strings.CutPrefix(p, modulePath+"/")
		if !ok {
			return "", false
		}
		for _, skip := range notInDiagram {
			if strings.HasPrefix(r, skip) {
				return "", false
			}
		}
		return r, true
	}
	res := imports{nodes: map[string]bool{}}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		require.NoError(t, dec.Decode(&p))
		from, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		res.nodes[from] = true
		for _, imp := range p.Imports {
			if to, ok := rel(imp); ok {
				res.arrows = append(res.arrows, from+" --> "+to)
			}
		}
	}
	slices.Sort(res.arrows)
	return res
}

// topOf returns the folder that holds the package pkg (its path in the
// module) in the README's map: internal/x for internal/x/..., else the
// first folder ("checker", "cmd/kurs" for cmd/...).
func topOf(pkg string) string {
	parts := strings.Split(pkg, "/")
	if len(parts) > 1 && (parts[0] == "internal" || parts[0] == "cmd") {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// TestMapsNameEveryPackage holds the README's "Where things live" and the
// package table of docs/architecture.md to the code: each names every
// folder of packages that the diagram shows.
func TestMapsNameEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	_, where, ok := strings.Cut(string(readme), "## Where things live")
	require.True(t, ok, "README.md has no section \"Where things live\"")
	arch, err := os.ReadFile("docs/architecture.md")
	require.NoError(t, err)
	tops := map[string]bool{}
	for pkg := range importArrows(t).nodes {
		if pkg != "." {
			tops[topOf(pkg)] = true
		}
	}
	var rows []string // the package table's rows
	for _, line := range strings.Split(string(arch), "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, strings.Split(line, " | ")[0])
		}
	}
	for top := range tops {
		assert.True(t, strings.Contains(where, "`"+top+"/"), "README.md's \"Where things live\" does not name %s/", top)
		if top == "docs" {
			continue // docs/ci checks the CI examples; the diagram shows it alone
		}
		found := slices.ContainsFunc(rows, func(r string) bool { return strings.Contains(r, "`"+top+"`") })
		assert.True(t, found, "docs/architecture.md's package table has no row for %s", top)
	}
}

// frontEnds are the folders of the front ends that show a learner where
// they stand: they ask internal/session and render its answers.
var frontEnds = []string{"web", "internal/cli"}

// TestFrontEndsOnlyRender fails on a front end that reads or writes the
// learner's progress, decides an exercise's state, counts hints or runs a
// checker itself: internal/session answers those for every front end (see
// docs/architecture.md), so that the page, kurs watch, list, lesson and
// hint never disagree.
func TestFrontEndsOnlyRender(t *testing.T) {
	own := regexp.MustCompile(`\.(Progress|SaveProgress|Record|StateOf|CheckAll)\(|\bprog\.State\(|workspace\.Hints\(|\.Exercises\[[^]]+\]\.Passed`)
	for _, dir := range frontEnds {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, names, dir)
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			for i, line := range strings.Split(string(data), "\n") {
				if own.MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "//") {
					t.Errorf("%s:%d: a front end decides the learner's state itself; ask internal/session: %s", name, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
}
