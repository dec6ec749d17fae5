package cli

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kurs-course/kurs/internal/course"
	"github.com/kurs-course/kurs/internal/session"
	"github.com/kurs-course/kurs/internal/term"
	"github.com/kurs-course/kurs/internal/termdoc"
	"github.com/kurs-course/kurs/internal/termdoc/pager"
	"github.com/kurs-course/kurs/internal/workspace"
)

// maxTextWidth bounds the width of running text (see term.MaxText).
const maxTextWidth = term.MaxText

func lessonVerb() *verb { return command("lesson", nil, showLesson) }

// showLesson shows the lesson args names, or the one the learner is at, in
// the pager on a terminal and as text elsewhere.
func showLesson(e *env, _ *noOptions, args []string) error {
	if len(args) > 1 {
		return e.usageErr("error.lesson_args")
	}
	// A lesson can be read before there is a workspace; with one, kurs
	// knows the learner's language and where they are.
	ws, err := e.workspace()
	if err != nil {
		if e.g.workspace != "" || !errors.Is(err, workspace.ErrNotFound) {
			return err
		}
		ws = nil
	}
	c, err := e.course(ws)
	if err != nil {
		return err
	}
	l, err := e.lesson(c, ws, args)
	if err != nil {
		return err
	}
	lang := e.p.Lang()
	md, err := l.Markdown(lang)
	if err != nil {
		if md, err = l.Markdown("en"); err != nil {
			return err
		}
	}
	// What to do next, wrapped like the lesson; a hard line break
	// ("\\" at a line's end) keeps each note on a line of its own.
	next := []string{e.p.T("lesson.exercises", "Exercises", strings.Join(l.Exercises, ", "))}
	if ws == nil {
		next = append(next, e.p.T("lesson.no_workspace"))
	} else if st, err := session.ReadStanding(ws, c); err == nil {
		if ex := st.Next(nil, nil); ex != nil {
			next = append(next, e.p.T("lesson.next", "Exercise", ex.ID, "Title", ex.Title.In(lang)))
		}
	}
	if len(c.Lessons) > 1 {
		var others []string
		for _, o := range c.Lessons {
			if o != l {
				others = append(others, o.IDIn(lang))
			}
		}
		next = append(next, e.p.T("lesson.others", "Lessons", strings.Join(others, ", ")))
	}
	md = append(md, "\n\n---\n\n"+strings.Join(next, "\\\n")+"\n"...)
	s := e.screen()
	if s.tty && e.interactive() {
		return e.page(md, s)
	}
	return termdoc.Render(e.Out, md, s.text())
}

// interactive reports whether keys can be read from a terminal.
func (e *env) interactive() bool {
	_, ok := terminal(e.In)
	return ok
}

// page shows the Markdown document md in the pager until the learner
// quits it, rendered anew whenever the window's width changes.
func (e *env) page(md []byte, s screen) error {
	render := func(width int) ([]string, []termdoc.Heading) {
		s.width = width
		return termdoc.Lines(md, s.text())
	}
	m := pager.New(render, pager.Labels{
		Help:         e.p.T("lesson.pager.help"),
		Contents:     e.p.T("lesson.pager.contents"),
		ContentsHelp: e.p.T("lesson.pager.contents_help"),
		Search:       e.p.T("lesson.pager.search"),
		NotFound:     e.p.T("lesson.pager.not_found"),
	})
	_, err := tea.NewProgram(m, tea.WithInput(e.In), tea.WithOutput(e.Out), tea.WithContext(e.ctx)).Run()
	if errors.Is(err, tea.ErrInterrupted) || errors.Is(err, tea.ErrProgramKilled) && e.ctx.Err() != nil {
		return nil // interrupted: the terminal is restored, nothing to report
	}
	return err
}

// lesson returns the lesson args name, by its id or by one of its
// exercises; without a name, the first lesson with an exercise the learner
// has not passed yet.
func (e *env) lesson(c *course.Course, ws *workspace.Workspace, args []string) (*course.Lesson, error) {
	if len(c.Lessons) == 0 {
		return nil, &usageError{e.p.T("error.no_lessons")}
	}
	if len(args) == 1 {
		name := strings.Trim(args[0], "/.")
		if l, ok := c.Lesson(name); ok {
			return l, nil
		}
		if ex, ok := c.Exercise(name); ok {
			if l, ok := c.Lesson(ex.Lesson); ok {
				return l, nil
			}
		}
		var ids []string
		for _, l := range c.Lessons {
			ids = append(ids, l.IDIn(e.p.Lang()))
		}
		return nil, &usageError{e.p.T("error.unknown_lesson", "Name", name, "Known", strings.Join(ids, ", "))}
	}
	if ws == nil {
		return c.Lessons[0], nil
	}
	st, err := session.ReadStanding(ws, c)
	if err != nil {
		return nil, err
	}
	if next := st.Next(nil, nil); next != nil {
		if l, ok := c.Lesson(next.Lesson); ok {
			return l, nil
		}
	}
	return c.Lessons[0], nil
}
