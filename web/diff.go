package web

import "strings"

// changedLines compares two texts line by line and returns the lines
// (1-based, as ranges for highlighting) of each that are not part of a
// longest common subsequence: what one side has and the other lacks.
// Lines are compared without their surrounding white space, so that a
// different indentation does not count as a change.
func changedLines(a, b string) (inA, inB [][2]int) {
	x := strings.Split(strings.TrimRight(a, "\n"), "\n")
	y := strings.Split(strings.TrimRight(b, "\n"), "\n")
	for i := range x {
		x[i] = strings.TrimSpace(x[i])
	}
	for i := range y {
		y[i] = strings.TrimSpace(y[i])
	}
	// lcs[i][j] is the length of a longest common subsequence of x[i:] and
	// y[j:]. Files of a few hundred lines make this cheap.
	n, m := len(x), len(y)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case x[i] == y[j]:
				lcs[i][j] = lcs[i+1][j+1] + 1
			case lcs[i+1][j] >= lcs[i][j+1]:
				lcs[i][j] = lcs[i+1][j]
			default:
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	mark := func(r [][2]int, line int) [][2]int {
		if k := len(r) - 1; k >= 0 && r[k][1] == line-1 {
			r[k][1] = line
			return r
		}
		return append(r, [2]int{line, line})
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i++
			j++
		case j >= m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			if x[i] != "" {
				inA = mark(inA, i+1)
			}
			i++
		default:
			if y[j] != "" {
				inB = mark(inB, j+1)
			}
			j++
		}
	}
	return inA, inB
}
