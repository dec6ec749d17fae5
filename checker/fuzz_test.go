package checker

import (
	"bytes"
	"encoding/json"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kurs-course/kurs/internal/harness"
)

var allowed = []string{"errors", "fmt", "math", "strconv", "strings", "sync", "sync/atomic"}

// FuzzInspect feeds arbitrary learner files to the static checks: they must
// never panic, and what they let through must parse, be in the right
// package, import only allowed packages and carry no refused directive.
func FuzzInspect(f *testing.F) {
	for _, s := range []string{
		"package circuitbreaker\n",
		"package circuitbreaker\nimport \"os\"\n",
		"package circuitbreaker\nimport (\n\tx \"os/exec\"\n\t_ \"unsafe\"\n)\n",
		"package circuitbreaker\n//go:linkname f runtime.f\nfunc f()\n",
		"package circuitbreaker\nimport \"C\"\n",
		"package other\n",
		"package circuitbreaker\nfunc (",
		"package circuitbreaker\n/*\n//go:embed x\n*/\n",
		"\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p := inspect("circuitbreaker", []source{{Name: "a.go", Path: "circuitbreaker/a.go", Data: []byte(src)}}, allowed)
		if p != nil {
			if p.Kind == "" {
				t.Fatalf("problem without a kind: %+v", p)
			}
			return
		}
		af, err := parser.ParseFile(token.NewFileSet(), "a.go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("let through a file that does not parse: %v", err)
		}
		if af.Name.Name != "circuitbreaker" {
			t.Fatalf("let through package %s", af.Name.Name)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(allowed, path) {
				t.Fatalf("let through import %q", path)
			}
		}
		for _, g := range af.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, "//go:linkname") || strings.HasPrefix(c.Text, "//go:embed") {
					t.Fatalf("let through %q", c.Text)
				}
			}
		}
	})
}

// FuzzReadRecords feeds arbitrary bytes to the result channel's reader: it
// must never panic or block, and must return only records with the nonce.
func FuzzReadRecords(f *testing.F) {
	good, _ := json.Marshal(harness.Record{Nonce: "n0nce", Kind: "result", Test: "t", Status: "pass"})
	for _, s := range []string{
		string(good) + "\n",
		`{"nonce":"guess","kind":"result","test":"t","status":"pass"}` + "\n",
		"\x16=== RUN   TestX\n--- PASS: TestX (0.00s)\nok  \tx\t0.1s\n",
		`{"Action":"pass","Test":"TestX"}` + "\n",
		strings.Repeat("x", 70000) + "\n" + string(good) + "\n",
		"{\"nonce\":\"n0nce\",\"kind\":",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, r := range readRecords(bytes.NewReader(data), "n0nce") {
			if r.Nonce != "n0nce" {
				t.Fatalf("accepted a record without the nonce: %+v", r)
			}
		}
	})
}
