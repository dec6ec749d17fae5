package lbquiz

var Answer = [4]string{"C", "A", "B", "B"}
