// Package bulkheadquiz is exercise 3 of the lesson "Resilience part 2":
// bulkhead or load shedding?
//
// Read the two cases with their options A to D in the task and put one
// letter per case into Answer.
//
// Check your answer with
//
//	kurs check bulkheadquiz
//
// and get the next hint with
//
//	kurs hint bulkheadquiz
package bulkheadquiz

// Answer holds the letters of the chosen options (A, B, C or D), first for
// case 1, then for case 2, e.g. [2]string{"X", "Y"}. Each case is graded on
// its own; upper or lower case does not matter.
//
//   - Case 1: a hanging report export occupies all 20 threads of the shared
//     pool, and the checkout stops answering. What fixes this most directly?
//   - Case 2: 150 instead of the possible 100 requests per second, new
//     servers take 10 minutes, priorities payment, search, recommendations.
//     What do you do in the next few minutes?
//
// TODO: fill in the two letters.
var Answer = [2]string{"", ""}
