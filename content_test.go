package kurs_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/kurs-course/kurs"
	"github.com/kurs-course/kurs/internal/course"
)

func loadCourse(t *testing.T) *course.Course {
	t.Helper()
	c, err := course.Load(kurs.Content())
	require.NoError(t, err)
	return c
}

// TestCourseHasThePromisedExercises pins the course's promised exercises (ids,
// which are package and folder names in every workspace, and points), and
// the order of the lessons: part 1 before part 2.
func TestCourseHasThePromisedExercises(t *testing.T) {
	c := loadCourse(t)
	points := map[string]int{}
	var ids []string
	for _, e := range c.Exercises {
		points[e.ID] = e.Points
		ids = append(ids, e.ID)
	}
	assert.Equal(t, 4, points["circuitbreaker"], "circuitbreaker in %v", ids)
	assert.Equal(t, 3, points["tokenbucket"], "tokenbucket in %v", ids)
	assert.Equal(t, 2, points["bulkheadquiz"], "bulkheadquiz in %v", ids)
	var lessons []string
	for _, l := range c.Lessons {
		lessons = append(lessons, l.ID)
	}
	require.NotEmpty(t, lessons)
	assert.Less(t, indexOf(lessons, "resilienz-1"), indexOf(lessons, "resilienz-2"), "lessons in order: %v", lessons)
	for _, l := range c.Lessons {
		var mine []string
		for _, e := range c.Exercises {
			if e.Lesson == l.ID {
				mine = append(mine, e.ID)
			}
		}
		assert.Equal(t, l.Exercises, mine, "lesson %s lists its exercises in course order", l.ID)
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// TestSkeletonsAreDocumented checks that every exported name in a skeleton
// has a doc comment and that the package says how to check it.
func TestSkeletonsAreDocumented(t *testing.T) {
	c := loadCourse(t)
	for _, ex := range c.Exercises {
		for _, lang := range course.Languages {
			files, err := ex.Skeleton(lang)
			require.NoError(t, err)
			for _, f := range files {
				af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.ParseComments)
				require.NoError(t, err)
				assert.NotNil(t, af.Doc, "%s/%s: package comment", ex.ID, lang)
				assert.Contains(t, string(f.Data), "kurs check "+ex.ID, "%s/%s", ex.ID, lang)
				assert.Empty(t, af.Imports, "%s/%s: a skeleton needs no imports", ex.ID, lang)
				for _, d := range af.Decls {
					switch d := d.(type) {
					case *ast.FuncDecl:
						if d.Name.IsExported() {
							assert.NotNil(t, d.Doc, "%s/%s: %s has no doc comment", ex.ID, lang, d.Name.Name)
						}
					case *ast.GenDecl:
						for _, s := range d.Specs {
							var name *ast.Ident
							switch s := s.(type) {
							case *ast.TypeSpec:
								name = s.Name
							case *ast.ValueSpec:
								name = s.Names[0]
							}
							if name != nil && name.IsExported() {
								assert.True(t, d.Doc != nil, "%s/%s: %s has no doc comment", ex.ID, lang, name.Name)
							}
						}
					}
				}
			}
		}
	}
}

// TestTextsInBothLanguages checks titles, tasks, hints and quiz feedback.
func TestTextsInBothLanguages(t *testing.T) {
	c := loadCourse(t)
	for _, ex := range c.Exercises {
		for _, lang := range course.Languages {
			assert.NotEmpty(t, ex.Title[lang], "%s: title %s", ex.ID, lang)
			assert.NotEmpty(t, ex.Summary[lang], "%s: summary %s", ex.ID, lang)
			assert.GreaterOrEqual(t, len(ex.Hints[lang]), 3, "%s: hints %s", ex.ID, lang)
			assert.Len(t, ex.Hints[lang], len(ex.Hints["en"]), "%s: hints in %s and en differ in number", ex.ID, lang)
		}
		for _, q := range ex.Quiz {
			for _, letter := range []string{"A", "B", "C", "D"} {
				for _, lang := range course.Languages {
					assert.NotEmpty(t, q.Options[letter][lang], "%s case %d option %s in %s", ex.ID, q.Case, letter, lang)
				}
			}
		}
		random := 0
		for _, tc := range ex.Suite.Tests {
			random += tc.Random
		}
		if ex.Quiz == nil {
			assert.GreaterOrEqual(t, random, 1000, "%s: at least 1,000 random traces", ex.ID)
		}
	}
}

// TestLessonsParse renders every lesson's Markdown and checks that it holds
// what the lesson promises: a title, tables, Go code and the state diagram.
func TestLessonsParse(t *testing.T) {
	c := loadCourse(t)
	require.NotEmpty(t, c.Lessons)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	for _, l := range c.Lessons {
		for _, lang := range course.Languages {
			src, err := l.Markdown(lang)
			require.NoError(t, err, "%s/%s.md", l.ID, lang)
			doc := md.Parser().Parse(text.NewReader(src))
			var h1, tables, goBlocks, mermaid int
			_ = gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
				if !entering {
					return gast.WalkContinue, nil
				}
				switch n := n.(type) {
				case *gast.Heading:
					if n.Level == 1 {
						h1++
					}
				case *east.Table:
					tables++
				case *gast.FencedCodeBlock:
					switch string(n.Language(src)) {
					case "go":
						goBlocks++
					case "mermaid":
						mermaid++
					}
				}
				return gast.WalkContinue, nil
			})
			assert.Equal(t, 1, h1, "%s/%s.md: one title", l.ID, lang)
			assert.GreaterOrEqual(t, tables, 5, "%s/%s.md: tables", l.ID, lang)
			assert.Positive(t, goBlocks, "%s/%s.md: Go code", l.ID, lang)
			assert.Equal(t, 1, mermaid, "%s/%s.md: state diagram", l.ID, lang)
			assert.True(t, bytes.Contains(src, []byte("stateDiagram-v2")), "%s/%s.md", l.ID, lang)
			assert.NotEmpty(t, l.Title[lang])
		}
		for _, id := range l.Exercises {
			_, ok := c.Exercise(id)
			assert.True(t, ok, "lesson %s names unknown exercise %s", l.ID, id)
		}
	}
}
