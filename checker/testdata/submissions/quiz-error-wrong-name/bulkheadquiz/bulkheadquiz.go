package bulkheadquiz

// Antwort: Fall 1 und Fall 2.
var Antwort = [2]string{"D", "A"}
