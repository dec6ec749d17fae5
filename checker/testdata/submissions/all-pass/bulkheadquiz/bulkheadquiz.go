// Package bulkheadquiz ist Übung 3.
package bulkheadquiz

// Answer: Fall 1 Bulkhead (D), Fall 2 Load Shedding (A).
var Answer = [2]string{"D", "A"}
