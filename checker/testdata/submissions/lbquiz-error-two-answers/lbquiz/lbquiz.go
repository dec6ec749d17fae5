package lbquiz

var Answer = [2]string{"C", "A"}
