package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The Go linker's question is the flag with what it always passes; the
// folder of the trivial program, new each time, is not part of it.
func TestQuestion(t *testing.T) {
	q, ok := question([]string{"-m64", "-o", "/tmp/go-link-1/a.out", "-no-pie", "/tmp/go-link-1/trivial.c"})
	assert.True(t, ok)
	assert.Equal(t, "-m64 -no-pie", q)
	again, _ := question([]string{"-m64", "-o", "/tmp/go-link-2/a.out", "-no-pie", "/tmp/go-link-2/trivial.c"})
	assert.Equal(t, q, again)

	_, ok = question([]string{"-m64", "-s", "-o", "/tmp/go-build/exe/a.out", "/tmp/go-link-1/go.o", "-static"})
	assert.False(t, ok, "the link itself")
}
