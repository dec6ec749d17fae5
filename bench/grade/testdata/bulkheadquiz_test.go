// The hidden test of bulkheadquiz as a naive grader writes it for `go
// test`: each case's letter, trimmed and in any case, against the
// reference's. See circuitbreaker_test.go.
package bulkheadquiz_test

import (
	"strings"
	"testing"

	learner "bench/bulkheadquiz"
	reference "bench/reference/bulkheadquiz"
)

func TestAnswers(t *testing.T) {
	for i := range reference.Answer {
		got := strings.ToUpper(strings.TrimSpace(learner.Answer[i]))
		if got != reference.Answer[i] {
			t.Errorf("case %d: %q is not the best choice", i+1, learner.Answer[i])
		}
	}
}
