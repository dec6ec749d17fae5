package workspace

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/internal/course"
)

// recorderEnv makes this test binary a recorder (see record): its value is
// "DIR N NAME", the workspace, how many times to record and the
// recorder's name.
const recorderEnv = "KURS_TEST_RECORDER"

// records is how many times each of the two recorders records.
const records = 2000

func TestMain(m *testing.M) {
	if v := os.Getenv(recorderEnv); v != "" {
		if err := record(v); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hinted is an exercise with a hint for every record of both recorders:
// each NextHint is one read-change-write of the progress that counts.
func hinted() *course.Exercise {
	hints := make([]string, 2*records)
	for i := range hints {
		hints[i] = "hint " + strconv.Itoa(i+1)
	}
	return &course.Exercise{ID: "hinted", Hints: map[string][]string{"en": hints}}
}

// record is a recorder process, as kurs watch or kurs serve records: after
// a line on its standard input, so that both start together, it records
// n checks of the exercise "shared", scoring 1 to n, and of its own
// exercise, and shows a hint of the exercise "hinted" after each.
func record(v string) error {
	var dir, name string
	var n int
	if _, err := fmt.Sscan(v, &dir, &n, &name); err != nil {
		return err
	}
	w, err := Open(dir)
	if err != nil {
		return err
	}
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return err
	}
	ex := hinted()
	for i := 1; i <= n; i++ {
		if err := w.Record(
			Outcome{Exercise: "shared", Status: StatusFail, Score: i, MaxScore: n},
			Outcome{Exercise: name, Status: StatusFail, Score: i, MaxScore: n},
		); err != nil {
			return err
		}
		if _, err := w.NextHint(ex, "en"); err != nil {
			return err
		}
	}
	return nil
}

// TestTwoProcessesKeepEachOthersRecords runs two processes that record
// into one workspace at the same time, 2,000 checks and 2,000 hints each,
// as kurs serve and kurs watch do on one workspace: no record is lost,
// and the best score is the best of either.
func TestTwoProcessesKeepEachOthersRecords(t *testing.T) {
	w, _ := newWorkspace(t, "en")
	type recorder struct {
		cmd   *exec.Cmd
		start io.WriteCloser
		out   strings.Builder
	}
	var rs [2]*recorder
	for i := range rs {
		r := &recorder{cmd: exec.Command(os.Args[0], "-test.run=^$")}
		r.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d p%d", recorderEnv, w.Dir, records, i))
		r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
		var err error
		r.start, err = r.cmd.StdinPipe()
		require.NoError(t, err)
		require.NoError(t, r.cmd.Start())
		t.Cleanup(func() {
			if r.cmd.ProcessState == nil {
				r.cmd.Process.Kill() // by its id; a failed test leaves none behind
				r.cmd.Wait()
			}
		})
		rs[i] = r
	}
	for _, r := range rs {
		_, err := io.WriteString(r.start, "go\n")
		require.NoError(t, err)
	}
	for i, r := range rs {
		require.NoError(t, r.cmd.Wait(), "recorder %d: %s", i, r.out.String())
	}

	p, err := w.Progress()
	require.NoError(t, err)
	assert.Equal(t, 2*records, p.Of("hinted").HintsSeen, "every hint shown is counted")
	assert.Equal(t, records, p.Of("shared").Best, "the best score of either")
	for i := range rs {
		own := p.Of(fmt.Sprintf("p%d", i))
		assert.Equal(t, records, own.Score, "recorder %d's last record stays", i)
	}
}
