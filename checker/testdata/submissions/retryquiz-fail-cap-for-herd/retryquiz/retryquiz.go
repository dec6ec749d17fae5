package retryquiz

// Answer holds my letters for cases 1, 2 and 3.
var Answer = [3]string{"C", "D", "D"}
