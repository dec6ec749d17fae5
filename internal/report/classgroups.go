package report

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/explain"
	"github.com/kurs-course/kurs/internal/harness"
	"github.com/kurs-course/kurs/internal/textsafe"
)

// classGroupsOf sorts the submissions of a class that fail exercise id
// into what they show: the misconceptions named in their results, with
// how many show each; then the unnamed behaviours, grouped by signature
// (which tests fail, and where), each by its first failing test's title
// and step; for a quiz, which wrong option each case drew and how often,
// which answers were none of the options, and which cases were left
// unanswered; and apart from the real attempts,
// the submissions that do not compile or could not be tested otherwise,
// and those that are no attempt yet: without code, with the unchanged
// skeleton, or a quiz with no case answered. The counts split the class
// the same way, so the pass-rate bars agree with the groups. ex gives the
// titles in p's language; nil shows ids. Of the unnamed behaviours, the
// most common ones, as many as most, are listed and the rest counted
// together; every one when most is not positive. It reads only the batch, so merged shards
// give the same groups.
func classGroupsOf(p *i18n.Printer, b *Batch, id string, ex *course.Exercise, most int,
	link func(string) classLink, share func(int) string) (ce classExercise, n classCounts) {
	ce.ID = id
	type group struct {
		text string
		subs []classLink
		num  int // the quiz case, which orders the options
	}
	sections := map[string]map[string]*group{}
	orders := map[string][]string{}
	add := func(section, key, text, sub string) *group {
		if sections[section] == nil {
			sections[section] = map[string]*group{}
		}
		g, ok := sections[section][key]
		if !ok {
			g = &group{text: text}
			sections[section][key] = g
			orders[section] = append(orders[section], key)
		}
		if sub != "" {
			g.subs = append(g.subs, link(sub))
		}
		return g
	}
	// The learner's answers to cases are grouped by the option chosen;
	// code, by what it did.
	answers := ex != nil && ex.Traits().Answers
	for _, e := range b.Submissions {
		x := exerciseOf(e, id)
		if x == nil {
			continue
		}
		switch {
		case x.Status == string(checker.Pass):
			n.Pass++
			continue
		case x.Status == string(checker.Error) && checker.ProblemKind(x.Problem) == checker.ProblemNoFiles:
			n.None++
			add("none", "no_files", p.T("grade.class_group_no_code"), e.ID)
			continue
		case x.Status == string(checker.Error):
			n.Error++
			switch checker.ProblemKind(x.Problem) {
			case checker.ProblemCompile:
				add("apart", "compile", p.T("grade.class_group_compile"), e.ID)
			case checker.ProblemAPI:
				add("apart", "api", p.T("grade.class_group_api"), e.ID)
			default:
				reason, _, _ := strings.Cut(x.Message, "\n")
				reason = strings.TrimSuffix(textsafe.Line(p, reason, textsafe.ValueMax), ":")
				if p.Lang() == "en" {
					// English goes on in lower case after the colon
					// ("cannot be tested: the test program crashed");
					// German keeps the capital a sentence or noun has.
					reason = lowerFirstWord(reason)
				}
				add("apart", "error\x00"+reason, p.T("grade.class_group_error", "Reason", reason), e.ID)
			}
			continue
		case x.Skeleton:
			n.None++
			add("none", "skeleton", p.T("grade.class_group_skeleton"), e.ID)
			continue
		case answers && unanswered(x):
			n.None++
			add("none", "unanswered", p.T("grade.class_group_unanswered"), e.ID)
			continue
		}
		n.Fail++
		switch {
		case answers:
			// A case left empty is no wrong option: it has its own
			// section, so that "chose" counts only letters chosen. The
			// cases one submission left empty make one group, so that
			// it counts once.
			var blank, blankNames []string
			for _, t := range x.Tests {
				if t.Status == string(checker.Pass) {
					continue
				}
				num, _ := strconv.Atoi(strings.TrimPrefix(t.Name, "case"))
				label := caseLabel(p, ex, t.Name, num)
				if t.Given == "" {
					blank, blankNames = append(blank, label), append(blankNames, t.Name)
					continue
				}
				option := harness.Answer(t.Given)
				if !isOption(ex, num, option) {
					// An answer that is none of the options is no
					// choice: counting it as one reads as a real option.
					// It is shown as the learner wrote it.
					add("invalid", t.Name+"\x00"+t.Given, p.T("grade.class_group_invalid", "Case", label, "Given", t.Given), e.ID).num = num
					continue
				}
				// An option is one however it is cased.
				add("quiz", t.Name+"\x00"+option, p.T("grade.class_group_quiz", "Case", label, "Option", option), e.ID).num = num
			}
			if len(blank) > 0 {
				add("blank", strings.Join(blankNames, "\x00"), p.T("grade.class_group_blank", "Case", andList(p, blank)), e.ID)
			}
		case x.Misconception != nil:
			m := x.Misconception
			title := nested(p, misconceptionTitle(p, ex, m))
			if m.Maybe {
				add("named", "maybe\x00"+m.ID, p.T("grade.class_group_maybe", "Title", title), e.ID)
			} else {
				add("named", m.ID, p.T("grade.class_group_misconception", "Title", title), e.ID)
			}
		default:
			key, text := behaviour(p, ex, x)
			add("unnamed", key, text, e.ID)
		}
	}
	for _, name := range []string{"named", "unnamed", "quiz", "invalid", "blank", "apart", "none"} {
		order := orders[name]
		if len(order) == 0 {
			continue
		}
		groups := sections[name]
		// Most common first; equally common ones in the order of their
		// first submission, which is the order of the ids.
		// A quiz's options go by case, as the quiz asks them.
		slices.SortStableFunc(order, func(a, b string) int {
			if name == "quiz" || name == "invalid" {
				if c := groups[a].num - groups[b].num; c != 0 {
					return c
				}
			}
			return len(groups[b].subs) - len(groups[a].subs)
		})
		sec := classSection{Kind: name, Heading: p.T("grade.class_section_" + name)}
		rest := 0
		for j, key := range order {
			g := groups[key]
			// Every named misconception is listed; the unnamed ones
			// only as far as they are common.
			if name == "unnamed" && most > 0 && j >= most {
				rest += len(g.subs)
				continue
			}
			sec.Groups = append(sec.Groups, classGroup{
				Text:  p.T("grade.class_group", "Share", share(len(g.subs)), "What", g.text),
				Share: percent(len(g.subs), len(b.Submissions)),
				Subs:  g.subs,
			})
		}
		if rest > 0 {
			sec.Other = p.T("grade.class_other", "Count", rest)
		}
		ce.Sections = append(ce.Sections, sec)
	}
	return ce, n
}

// classCounts splits a class by how it did in one exercise: passed,
// failed, could not be tested (does not build, or no test could run), and
// no attempt yet (no code, the skeleton, a quiz with no case answered).
type classCounts struct{ Pass, Fail, Error, None int }

// unanswered reports whether a failing quiz has no case answered: no
// attempt yet, like the skeleton, only without its comments.
func unanswered(x *Exercise) bool {
	for _, t := range x.Tests {
		if t.Status == string(checker.Pass) || t.Given != "" {
			return false
		}
	}
	return len(x.Tests) > 0
}

// behaviour returns the key of a failing exercise's behaviour, as far as
// the document tells it (every failing test and its step), and its text:
// the first failing test by its title, and where it departs.
func behaviour(p *i18n.Printer, ex *course.Exercise, x *Exercise) (key, text string) {
	var parts []string
	failing, notRun := 0, 0
	for _, t := range x.Tests {
		if t.Status == string(checker.Pass) {
			continue
		}
		failing++
		if t.Failure == "not_run" {
			notRun++
		}
		step := "-"
		if t.Step != nil {
			step = strconv.Itoa(*t.Step)
		}
		parts = append(parts, t.Name+"@"+step+"@"+t.Failure)
	}
	t := firstFailing(x)
	if t == nil {
		return "fail", p.T("grade.class_group_unknown")
	}
	// Code that fails only the stress tests fails them where the
	// scheduler happened to interleave its goroutines: the step says
	// nothing, and the submissions belong in one group.
	if stress := explain.StressTests(ex); len(stress) > 0 && !slices.ContainsFunc(x.Tests, func(t TestCase) bool {
		return t.Status != string(checker.Pass) && !stress[t.Name]
	}) {
		return "stress", p.T("grade.class_group_stress")
	}
	name := nested(p, textsafe.Line(p, explain.TestLabel(p, ex, t.Name), textsafe.ValueMax))
	// A panic, the time limit or a crash is named: it is not a wrong
	// answer, and the tests after a crash did not run at all. The
	// messages by how the test failed: with no step, at the
	// constructor, at a later step.
	keys, ok := map[string][3]string{
		"panic":   {"grade.class_group_panic", "grade.class_group_panic_new", "grade.class_group_panic_step"},
		"timeout": {"grade.class_group_timeout", "grade.class_group_timeout_new", "grade.class_group_timeout_step"},
	}[t.Failure]
	if !ok {
		keys = [3]string{"grade.class_group_test", "grade.class_group_new", "grade.class_group_step"}
	}
	switch {
	case t.Failure == "crash":
		text = p.T("grade.class_group_crash", "Test", name)
	case t.Step == nil:
		text = p.T(keys[0], "Test", name)
	case *t.Step == 0:
		text = p.T(keys[1], "Test", name)
	default:
		text = p.T(keys[2], "Test", name, "Step", *t.Step)
	}
	switch {
	case failing > 1 && notRun == failing-1:
		text += " " + p.T("grade.class_group_not_run", "Count", notRun)
	case failing > 1:
		text += " " + p.T("grade.class_group_more", "Count", failing-1)
	}
	return "sig\x00" + strings.Join(parts, "\x00"), text
}

// misconceptionTitle returns a misconception's title in p's language, from
// the course when it knows the misconception, else as the document has it.
func misconceptionTitle(p *i18n.Printer, ex *course.Exercise, m *MisconceptionRef) string {
	if ex != nil {
		list, _ := ex.Misconceptions()
		for _, mc := range list {
			if mc.ID == m.ID {
				return mc.Title.In(p.Lang())
			}
		}
	}
	return textsafe.Line(p, m.Title, textsafe.ValueMax)
}

// isOption reports whether given is one of the options of case n of the
// quiz ex; an answer to a case the course does not know counts as one.
func isOption(ex *course.Exercise, n int, given string) bool {
	if ex == nil {
		return true
	}
	for _, c := range ex.Quiz {
		if c.Case == n {
			_, ok := c.Options[given]
			return ok
		}
	}
	return true
}

// andList joins items as a sentence lists them: "Case 1, Case 2 and
// Case 4".
func andList(p *i18n.Printer, items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return p.T("grade.class_and", "First", strings.Join(items[:len(items)-1], ", "), "Last", items[len(items)-1])
}

// caseLabel names a quiz case in p's language ("Case 2").
func caseLabel(p *i18n.Printer, ex *course.Exercise, name string, n int) string {
	if ex != nil {
		if t := ex.TestTitle(name, p.Lang()); t != "" {
			return t
		}
	}
	return p.T("test.kind.case", "Case", n)
}

// nested returns s for use inside the quotation marks of p's language:
// its own quotation marks, and straight ones, become the inner ones, as
// a reader writes a quote within a quote (German „… ‚half-open‘“, English
// “… ‘half-open’”), not two pairs of the same.
func nested(p *i18n.Printer, s string) string {
	open, close := p.T("quote.open"), p.T("quote.close")
	innerOpen, innerClose := p.T("quote.inner_open"), p.T("quote.inner_close")
	var b strings.Builder
	straightOpen := true
	for _, r := range s {
		switch c := string(r); {
		case c == open:
			b.WriteString(innerOpen)
		case c == close:
			b.WriteString(innerClose)
		case c == `"` && straightOpen:
			b.WriteString(innerOpen)
			straightOpen = false
		case c == `"`:
			b.WriteString(innerClose)
			straightOpen = true
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lowerFirstWord returns s with its first word in lower case when that word
// is an ordinary capitalised word ("The", "There"), so that it can follow
// a colon in English; a file name ("Helper.go: …"), an acronym or a name
// such as "kurs" stays as it is.
func lowerFirstWord(s string) string {
	word, _, _ := strings.Cut(s, " ")
	r, n := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(r) || n == len(word) {
		return s
	}
	for _, c := range word[n:] {
		if !unicode.IsLower(c) {
			return s
		}
	}
	return string(unicode.ToLower(r)) + s[n:]
}
