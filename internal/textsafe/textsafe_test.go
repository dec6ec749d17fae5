package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/i18n"
)

// hostile holds what a learner's code can put into a panic value or its
// output: a window title, a screen clear, a bell, NUL, a C1 CSI, invalid
// UTF-8, a right-to-left override.
const hostile = "a\x1b]0;pwned\x07b\x1b[2Jc\x00d\u009be\xff\xfef\u202eg\x7fh\ri\n\tj"

func TestTextEscapesControls(t *testing.T) {
	p := i18n.New("en")
	got := Text(p, hostile, MessageMax)
	assert.Equal(t, `a\x1b]0;pwned\x07b\x1b[2Jc\x00d\u009be`+"\uFFFD\uFFFD"+`f\u202eg\x7fh\ri`+"\n\tj", got)
	assert.Equal(t, `a\x1b]0;pwned\x07b\x1b[2Jc\x00d\u009be`+"\uFFFD\uFFFD"+`f\u202eg\x7fh\ri\n\tj`, Line(p, hostile, MessageMax))
	assert.Equal(t, got, Escape(hostile))
	assert.Equal(t, Line(p, hostile, MessageMax), EscapeLine(hostile))
}

func TestTextKeepsSafeText(t *testing.T) {
	p := i18n.New("de")
	for _, s := range []string{"", "closed", "Zustand „offen“ – 5 €\n\tweiter", strings.Repeat("x", ValueMax)} {
		assert.Equal(t, s, Text(p, s, ValueMax))
	}
	assert.Equal(t, "a b", Line(p, "a b", ValueMax))
}

func TestTextCutsWithANote(t *testing.T) {
	big := strings.Repeat("ä", 3<<20/2) // 3 MiB of a two-byte rune
	for lang, note := range map[string]string{
		"en": "… [3144704 more bytes not shown]",
		"de": "… [3144704 weitere Bytes nicht angezeigt]",
	} {
		got := Text(i18n.New(lang), big, ValueMax)
		assert.Equal(t, strings.Repeat("ä", ValueMax/2)+note, got, lang)
	}
	// One byte cut: the singular.
	assert.Equal(t, "ab… [1 more byte not shown]", Text(i18n.New("en"), "abc", 2))
	assert.Equal(t, "ab… [1 weiteres Byte nicht angezeigt]", Text(i18n.New("de"), "abc", 2))
	// An escape is never split: \x1b does not fit in 3 bytes.
	assert.Equal(t, "ab… [2 more bytes not shown]", Text(i18n.New("en"), "ab\x1bc", 3))
	// Nor is a rune.
	assert.Equal(t, "a… [2 more bytes not shown]", Text(i18n.New("en"), "aä", 2))
}

func TestPrefix(t *testing.T) {
	for _, tt := range []struct {
		s     string
		limit int
		want  string
		cut   int
	}{
		{"abc", 5, "abc", 0},
		{"abc", 2, "ab", 1},
		{"aä", 2, "a", 2},
		{"a€", 3, "a", 3},
		{"a😀b", 4, "a", 5},
		{"a😀b", 5, "a😀", 1},
		{"\x80\x80\x80\x80\x80", 4, "\x80", 4}, // no rune start: cut after at most 3 steps back
		{"abc", 0, "", 3},
		{"abc", -1, "", 3},
	} {
		got, cut := Prefix(tt.s, tt.limit)
		assert.Equal(t, tt.want, got, "%q %d", tt.s, tt.limit)
		assert.Equal(t, tt.cut, cut, "%q %d", tt.s, tt.limit)
	}
}

// TestHugeValueIsCheap makes sure a 3 MiB value costs about the limit,
// not the value's size, in memory.
func TestHugeValueIsCheap(t *testing.T) {
	p := i18n.New("en")
	big := strings.Repeat("\x1b", 3<<20)
	allocs := testing.AllocsPerRun(10, func() { _ = Text(p, big, ValueMax) })
	assert.Less(t, allocs, 40.0)
	var s string
	n := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			s = Text(p, big, ValueMax)
		}
	}).AllocedBytesPerOp()
	assert.Less(t, n, int64(16<<10), "bytes allocated for one 3 MiB value")
	assert.Less(t, len(s), ValueMax+64)
}

// check asserts what every result of Text and Line promises.
func check(t *testing.T, p *i18n.Printer, s, out string, limit int, line bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("not UTF-8: %q", out)
	}
	for _, r := range out {
		if r < 0x20 && (line || r != '\n' && r != '\t') || r >= 0x7f && r <= 0x9f || r == 0x202e {
			t.Fatalf("raw control character %U in %q", r, out)
		}
	}
	if most := max(limit, 0) + len(Cut(p, len(s))); len(out) > most {
		t.Fatalf("%d bytes, more than %d: %q", len(out), most, out)
	}
	if len(s) <= limit && safe(s, line, false) && out != s {
		t.Fatalf("safe text changed: %q to %q", s, out)
	}
}

func FuzzText(f *testing.F) {
	f.Add(hostile, 10, false)
	f.Add("plain", 100, true)
	f.Add("\xf0\x9f\x98", 2, false)
	f.Add(strings.Repeat("\u009b", 50), 7, true)
	en, de := i18n.New("en"), i18n.New("de")
	f.Fuzz(func(t *testing.T, s string, limit int, german bool) {
		p := en
		if german {
			p = de
		}
		limit %= 4096
		check(t, p, s, Text(p, s, limit), limit, false)
		check(t, p, s, Line(p, s, limit), limit, true)
		check(t, p, s, Escape(s), len(s)*6, false)
	})
}

// TestNoteFitsBothLanguages runs the seed inputs through both catalogs.
func TestNoteFitsBothLanguages(t *testing.T) {
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		for _, s := range []string{hostile, strings.Repeat(hostile, 100), "\xf0\x9f\x98"} {
			for _, limit := range []int{0, 1, 5, 17, 100, 10000} {
				check(t, p, s, Text(p, s, limit), limit, false)
				check(t, p, s, Line(p, s, limit), limit, true)
			}
		}
	}
}

// A learner's text can never carry kurs's style marks: they are escaped
// like control characters, so a renderer can tell its own marks apart.
func TestMarksAreEscaped(t *testing.T) {
	p := i18n.New("en")
	in := "a" + string(MarkBad) + "b" + string(MarkEnd)
	for _, out := range []string{Text(p, in, 100), Line(p, in, 100), Escape(in), EscapeLine(in)} {
		if out != `a\ue000b\ue002` {
			t.Errorf("got %q, want the marks escaped", out)
		}
	}
	if got := Marked(p, in+"\x1b", 100); got != in+`\x1b` {
		t.Errorf("Marked = %q, want the marks kept and ESC escaped", got)
	}
}
