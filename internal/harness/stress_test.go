package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// StressClaim reads back the claim and bound of the calls Judge writes,
// and nothing else.
func TestStressClaim(t *testing.T) {
	for _, c := range []struct{ call, claim, bound string }{
		{stressCall("maxInUse") + " ≤ 5", "maxInUse", "≤ 5"},
		{stressCall("acquired"), "acquired", ""},
	} {
		claim, bound, ok := StressClaim(c.call)
		assert.True(t, ok, c.call)
		assert.Equal(t, c.claim, claim, c.call)
		assert.Equal(t, c.bound, bound, c.call)
	}
	for _, call := range []string{"TryAcquire()", "stress(16)", "New(1)", "(16 goroutines)", "f(x)(16 goroutines)"} {
		_, _, ok := StressClaim(call)
		assert.False(t, ok, call)
	}
}
