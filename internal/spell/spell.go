// Package spell tells whether a name someone wrote is likely a slip of
// the keyboard for another: a learner's Nwe for New, an author's "titel"
// for "title". Both the learner's explanation and the course's validation
// ask it, so that they agree on what counts as a typo.
package spell

import "strings"

// Slips returns the largest distance (see Distance) at which another
// name counts as a typo of name: one slip in a short name, two from eight
// letters on.
func Slips(name string) int {
	return max(1, len([]rune(name))/4)
}

// Near reports whether written is likely a typo of name: a different
// name within Slips(name) of it.
func Near(written, name string) bool {
	return written != name && Distance(written, name) <= Slips(name)
}

// Distance is the edit distance of two names, case ignored, where
// swapping two neighbouring letters counts as one edit (optimal string
// alignment): Nwe, new and NEw are all close to New.
func Distance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	// Three rows of the table suffice: the transposition looks two back.
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
