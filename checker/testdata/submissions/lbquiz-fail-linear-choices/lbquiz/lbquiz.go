package lbquiz

var Answer = [4]string{"C", "B", "D", "A"}
