// Package bulkheadquiz is exercise 3 of the lesson "Resilience part 2":
// bulkhead or load shedding?
package bulkheadquiz

// Answer holds the letters of the chosen options (A, B, C or D).
//
// TODO: fill in the two letters.
var Answer = [2]string{"", ""}
