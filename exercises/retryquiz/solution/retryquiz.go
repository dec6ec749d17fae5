// Package retryquiz is the reference answer of the exercise "retryquiz":
// timeout, retry budget or jitter?
package retryquiz

// Answer holds the option letters for cases 1, 2 and 3.
var Answer = [3]string{"C", "D", "A"}
