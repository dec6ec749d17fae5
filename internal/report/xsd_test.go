package report_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/report"
)

// xmllint finds xmllint (Debian's libxml2-utils), or skips the test; in CI
// (the CI variable set) the schema test must run.
func xmllint(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("xmllint")
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("xmllint is missing, and CI is set: the JUnit schema test must run in CI (apt-get install -y libxml2-utils)")
	}
	t.Skip("skipping: xmllint is not installed (apt-get install -y libxml2-utils); in CI it is required")
	return ""
}

// validJUnit checks docs against testdata/junit.xsd: what Jenkins xunit's
// junit-10 schema allows, closed to exactly what kurs writes.
func validJUnit(t *testing.T, docs map[string][]byte) {
	t.Helper()
	lint := xmllint(t)
	dir := t.TempDir()
	args := []string{"--noout", "--nonet", "--schema", filepath.Join("testdata", "junit.xsd")}
	for name, doc := range docs {
		f := filepath.Join(dir, name+".xml")
		require.NoError(t, os.WriteFile(f, doc, 0o644))
		args = append(args, f)
	}
	out, err := exec.Command(lint, args...).CombinedOutput()
	require.NoError(t, err, "JUnit that the schema rejects:\n%s", out)
}

// TestJUnitValidates: the JUnit of a failing, a non-building, a crashing,
// a passing and a hostile submission, in both languages, validates against
// the schema of what Jenkins xunit accepts (testdata/junit.xsd).
func TestJUnitValidates(t *testing.T) {
	graded := fixture(t)
	crashed := fixture(t)[:1]
	res := *crashed[0].Result
	res.Status, res.Problem = checker.Error, &checker.Problem{Kind: checker.ProblemCrash, Detail: "panic: init\n\ncircuitbreaker.init()\n\tcircuitbreaker/circuitbreaker.go:7"}
	crashed[0].Result = &res
	passed := fixture(t)[:1]
	ok := *passed[0].Result
	ok.Status, ok.Score = checker.Pass, ok.MaxScore
	ok.Tests = nil
	for _, st := range passed[0].Exercise.Suite.Tests {
		ok.Tests = append(ok.Tests, checker.Test{Name: st.Name, Status: checker.Pass})
	}
	passed[0].Result = &ok

	docs := map[string][]byte{}
	for _, lang := range []string{"en", "de"} {
		for name, g := range map[string][]report.Graded{"fixture": graded, "crashed": crashed, "passed": passed, "hostile": hostile(t)} {
			var b bytes.Buffer
			require.NoError(t, report.JUnit(&b, i18n.New(lang), g, fixtureRun))
			docs[name+"-"+lang] = b.Bytes()
		}
	}
	validJUnit(t, docs)
}
