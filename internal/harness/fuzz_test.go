package harness

import (
	"strings"
	"testing"
)

// FuzzAnswer checks the quiz's rule for learner answers: case and
// surrounding space do not matter, and normalizing twice changes nothing.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"D", " d ", "a\t", "", "AB", "ä", "\u00a0B\u00a0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Answer(s)
		if Answer(n) != n {
			t.Fatalf("Answer(%q) = %q is not stable", s, n)
		}
		if Answer(" "+strings.ToLower(s)+"\n") != n && strings.EqualFold(strings.ToLower(s), s) {
			t.Fatalf("case or space changed the answer %q", s)
		}
	})
}

// FuzzSameValue checks that comparing results is symmetric and reflexive,
// so a learner's value is never judged by the order of comparison.
func FuzzSameValue(f *testing.F) {
	for _, p := range [][2]string{{"0.5", "0.5000000001"}, {"true", "false"}, {"NaN", "NaN"}, {"1e309", "Inf"}, {"", "0"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !SameValue(a, a) {
			t.Fatalf("%q differs from itself", a)
		}
		if SameValue(a, b) != SameValue(b, a) {
			t.Fatalf("sameValue(%q, %q) is not symmetric", a, b)
		}
	})
}

// FuzzParseLine feeds arbitrary lines of a learner's program to the
// judge's parser: it must never panic, and what it accepts is bounded.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{`s 0 0 "" "closed"`, `p 3 1 "boom" "x.go:1"`, `o 0 2 "" ""`, `s -1 0 "" ""`, `s 0 0 "a`, "s 0 0 \"\\x1b\" \"\"", `m "1,2"`,
		`s 007 +1 "" ""`, `s 1234567890123456789 0 "" ""`, "s 0 0 \"\xff\" \"\"", `s 0 0 "a" "b" `, `s 0 0 "a""b"`, `o 2 3 "ü" "x.go:9"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		kind, ti, si, a, b, err := parseLine(line, &values{})
		// The quick path for plain lines reads what the general one does.
		k2, ti2, si2, a2, b2, err2 := parseGeneral(line)
		if kind != k2 || ti != ti2 || si != si2 || a != a2 || b != b2 || (err == nil) != (err2 == nil) {
			t.Fatalf("%q: parsed as %c %d %d %q %q (%v), in general %c %d %d %q %q (%v)", line, kind, ti, si, a, b, err, k2, ti2, si2, a2, b2, err2)
		}
		if err != nil {
			return
		}
		if ti < 0 || si < 0 {
			t.Fatalf("negative numbers accepted: %d %d", ti, si)
		}
		if len(a) > MaxValue+len("…") || len(b) > MaxValue+len("…") {
			t.Fatalf("value over the bound: %d, %d bytes", len(a), len(b))
		}
	})
}
