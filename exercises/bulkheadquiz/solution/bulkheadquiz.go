// Package bulkheadquiz is the reference answer of the exercise
// "bulkheadquiz": bulkhead or load shedding?
package bulkheadquiz

// Answer holds the option letters for case 1 and case 2.
var Answer = [2]string{"D", "A"}
