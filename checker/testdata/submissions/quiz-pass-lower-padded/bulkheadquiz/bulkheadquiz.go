package bulkheadquiz

// Fall 1: getrennte Pools (Bulkhead), Fall 2: Last abwerfen.
var Answer = [2]string{" d ", "a"}
