package bulkheadquiz

// Fall 1: getrennte Pools. Fall 2: auch getrennte Pools, damit Bezahlen
// seine eigenen Threads hat.
var Answer = [2]string{"D", "D"}
