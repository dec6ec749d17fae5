package retryquiz

import "strings"

// Answer holds my letters for cases 1, 2 and 3.
var Answer [3]string

func init() {
	// Timeout for hanging calls, a budget against the storm, jitter
	// against the waves.
	for i, s := range strings.Fields("c d a") {
		Answer[i] = strings.ToUpper(s)
	}
}
