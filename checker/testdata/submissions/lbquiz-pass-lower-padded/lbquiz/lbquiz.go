package lbquiz

var Answer = [4]string{" c", "a ", "d", " b "}
