package bulkheadquiz

var Answer = [2]string{"A", "a"}
