package grade

import (
	"crypto/rand"
	"encoding/binary"
	"strconv"
)

// NewSeed returns a seed for the random traces that no one can know before
// the run: drawn from the operating system's random source, so that a
// learner cannot list a grading's random traces in advance and answer
// them. It is at least 1 and below 2⁵³, so that it survives JSON readers
// that hold numbers as float64 (JavaScript, jq) and repeats with --seed.
func NewSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return max(1, binary.LittleEndian.Uint64(b[:])>>11)
}

// Seed is the value of a --seed flag that remembers whether it was given:
// without it, a grading draws its seed with NewSeed.
type Seed struct {
	N     uint64
	Given bool
}

// String returns the seed, or "random" when none was given.
func (s *Seed) String() string {
	if s == nil || !s.Given {
		return "random"
	}
	return strconv.FormatUint(s.N, 10)
}

// Get returns the seed's number, for flag.Getter: a flag's error can then
// say that it takes a whole number.
func (s *Seed) Get() any { return s.N }

// Set takes the seed from a flag's value.
func (s *Seed) Set(v string) error {
	n, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return err
	}
	s.N, s.Given = n, true
	return nil
}
