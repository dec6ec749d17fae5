package report_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/checker"
	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
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

// validJUnit checks docs against testdata/junit.xsd: what both Jenkins
// xunit's junit-10 schema and Ant's JUnit schema allow, closed to exactly
// what kurs writes.
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

// TestJUnitValidates: the JUnit of a failing, a non-building, a crashing
// (before its first test and during one), one failing a random trace, a
// passing and a hostile submission, in both languages, validates against
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
	random, crashedDuring := departedAndCrashed(t)

	docs := map[string][]byte{}
	for _, lang := range []string{"en", "de"} {
		for name, g := range map[string][]explain.Graded{"fixture": graded, "crashed": crashed, "passed": passed, "hostile": hostile(t), "api": apiDiffers(t), "random": random, "crashed-during": crashedDuring} {
			var b bytes.Buffer
			require.NoError(t, report.JUnit(&b, i18n.New(lang), g, fixtureRun))
			docs[name+"-"+lang] = b.Bytes()
		}
	}
	validJUnit(t, docs)
}

// TestBatchJUnitValidates: the JUnit of a class (failing, untestable,
// hostile and passing submissions), in both languages, validates against
// the schema of what both Jenkins xunit and Ant accept.
func TestBatchJUnitValidates(t *testing.T) {
	docs := map[string][]byte{}
	for _, lang := range []string{"en", "de"} {
		b := junitBatch(t, lang)
		var with, without bytes.Buffer
		require.NoError(t, report.BatchJUnit(&with, i18n.New(lang), b, exercisesOf(fixture(t))))
		docs["class-"+lang] = with.Bytes()
		require.NoError(t, report.BatchJUnit(&without, i18n.New(lang), b, nil))
		docs["class-nocourse-"+lang] = without.Bytes()
		api := &report.Batch{Version: report.Version, Course: "sha256:c0ffee", Kurs: "v1.2.0+0123456789ab", Seed: 7, ExerciseIDs: []string{"circuitbreaker"},
			Submissions: []report.Entry{{ID: "ada", Document: report.NewDocumentFor(i18n.New(lang), apiDiffers(t), explain.Teacher)}}}
		var class bytes.Buffer
		require.NoError(t, report.BatchJUnit(&class, i18n.New(lang), api, exercisesOf(apiDiffers(t))))
		docs["class-api-"+lang] = class.Bytes()
	}
	validJUnit(t, docs)
}

// TestJUnitSchemaRejects: the schema is closed; what only one of the two
// consumers accepts fails it.
func TestJUnitSchemaRejects(t *testing.T) {
	lint := xmllint(t)
	const suite = `<testsuite name="a" timestamp="2026-12-01T20:00:00" hostname="kurs" tests="0" failures="0" errors="0" time="0" package="p" id="0"%s><properties/>%s<system-out/><system-err/></testsuite>`
	for name, doc := range map[string]string{
		"attributes on testsuites (Ant has none)": `<testsuites name="kurs">` + fmt.Sprintf(suite, "", "") + `</testsuites>`,
		"file on testsuite (Ant has none)":        `<testsuites>` + fmt.Sprintf(suite, ` file="a.go"`, "") + `</testsuites>`,
		"skipped on testsuite (Ant has none)":     `<testsuites>` + fmt.Sprintf(suite, ` skipped="0"`, "") + `</testsuites>`,
		"no system-err (Ant needs it)":            `<testsuites><testsuite name="a" timestamp="2026-12-01T20:00:00" hostname="kurs" tests="0" failures="0" errors="0" time="0" package="p" id="0"><properties/><system-out/></testsuite></testsuites>`,
		"a timestamp with a zone":                 `<testsuites>` + strings.Replace(fmt.Sprintf(suite, "", ""), "20:00:00", "20:00:00Z", 1) + `</testsuites>`,
		"a failure without type":                  `<testsuites>` + fmt.Sprintf(suite, "", `<testcase name="t" classname="c" time="0"><failure message="m">x</failure></testcase>`) + `</testsuites>`,
		"file on testcase (junit-10 has none)":    `<testsuites>` + fmt.Sprintf(suite, "", `<testcase name="t" classname="c" time="0" file="a.go"/>`) + `</testsuites>`,
	} {
		f := filepath.Join(t.TempDir(), "doc.xml")
		require.NoError(t, os.WriteFile(f, []byte(doc), 0o644))
		out, err := exec.Command(lint, "--noout", "--nonet", "--schema", filepath.Join("testdata", "junit.xsd"), f).CombinedOutput()
		assert.Error(t, err, "%s: the schema takes it:\n%s", name, out)
	}
}
