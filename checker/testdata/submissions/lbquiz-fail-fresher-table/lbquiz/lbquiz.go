package lbquiz

// Answer holds my letters for cases 1 to 4.
var Answer = [4]string{"A", "A", "D", "B"}
