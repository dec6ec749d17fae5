package checker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/internal/course"
)

// Serve (kurs try, the page's try panel, validate) holds a learner's files
// to the same rules as a check: the size limit, a bounded initialisation,
// and the runtime's own words when the program dies before it is ready.
func TestServeRefusesWhatACheckRefuses(t *testing.T) {
	c := loadCourse(t)
	warm(t, c)
	ex, ok := c.Exercise("circuitbreaker")
	require.True(t, ok)
	ck := &checker.Checker{Build: testBuild, Timeout: hangTimeout, TempDir: t.TempDir()}
	serve := func(src string) *checker.Problem {
		t.Helper()
		s, p, err := ck.Serve(context.Background(), ex, []course.File{{Name: "circuitbreaker.go", Data: []byte(src)}})
		require.NoError(t, err)
		if s != nil {
			s.Close()
		}
		return p
	}

	huge := breaker + "\n// " + strings.Repeat("x", 1<<20) + "\n"
	if p := serve(huge); assert.NotNil(t, p) {
		assert.Equal(t, checker.ProblemTooLarge, p.Kind)
	}

	// An init that never ends spins until the limit ends it, a
	// processor busy all the while: a limit of a second ends it the same
	// way, on a loaded machine too, as the program was started before the
	// limit begins. The serves that must get ready keep hangTimeout.
	endless := &checker.Checker{Build: testBuild, Timeout: time.Second, TempDir: t.TempDir()}
	start := time.Now()
	es, ep, err := endless.Serve(context.Background(), ex, []course.File{{Name: "circuitbreaker.go", Data: []byte(breaker + "\nfunc init() { for {} }\n")}})
	require.NoError(t, err)
	assert.Nil(t, es, "a session of an init that never ends")
	if assert.NotNil(t, ep, "an init that never ends") {
		assert.Equal(t, checker.ProblemTimeout, ep.Kind)
	}
	t.Logf("an endless init was stopped after %s", time.Since(start).Round(time.Millisecond))

	if p := serve(breaker + "\nfunc init() { panic(\"broken at start\") }\n"); assert.NotNil(t, p) {
		assert.Equal(t, checker.ProblemCrash, p.Kind)
		assert.Contains(t, p.Detail, "broken at start")
	}

	s, p, err := ck.Serve(context.Background(), ex, []course.File{{Name: "circuitbreaker.go", Data: []byte(breaker)}})
	require.NoError(t, err)
	require.Nil(t, p)
	s.Close()
}
