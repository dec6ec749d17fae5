// The tiny test of the baseline that a warm check is measured against
// (checker's BenchmarkGoTestBaseline, bench/watch, bench/web): the
// seed's trace of the circuit breaker, as go test runs it. It lives in
// testdata, so the go command never builds it here.
package circuitbreaker

import "testing"

func TestSeedTrace(t *testing.T) {
	b := New(3, 5)
	b.Failure(0)
	b.Failure(1)
	b.Success()
	b.Failure(2)
	b.Failure(3)
	b.Failure(4)
	if b.Allow(8) || !b.Allow(9) || b.Allow(9) {
		t.Fatal("wrong")
	}
	b.Failure(9)
	if b.Allow(13) || !b.Allow(14) {
		t.Fatal("wrong")
	}
	b.Success()
	if b.State() != "closed" {
		t.Fatal(b.State())
	}
}
