package lbquiz

import "strings"

// Answer is filled in by init.
var Answer = [4]string{}

func init() {
	for i, letter := range strings.Split("c,a,d,b", ",") {
		Answer[i] = strings.ToUpper(letter)
	}
}
