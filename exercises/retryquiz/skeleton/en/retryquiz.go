// Package retryquiz is exercise 3 of the lesson "Resilience part 1":
// timeout, retry budget or jitter?
//
// Read the three cases with their options A to D in the task and put one
// letter per case into Answer.
//
// Check your answer with
//
//	kurs check retryquiz
//
// and get the next hint with
//
//	kurs hint retryquiz
package retryquiz

// Answer holds the letters of the chosen options (A, B, C or D), first for
// case 1, then for case 2 and case 3, e.g. [3]string{"X", "Y", "Z"}. Each
// case is graded on its own; upper or lower case does not matter.
//
//   - Case 1: the shipping service hangs, and without a timeout its calls
//     occupy all 50 slots of the order service. What helps most directly?
//   - Case 2: three layers with four attempts each keep a database that is
//     healthy again overloaded. What gets the system out of it?
//   - Case 3: 10,000 apps reconnect with backoff without jitter and arrive
//     in waves. What changes that most directly?
//
// TODO: put in the three letters.
var Answer = [3]string{"", "", ""}
