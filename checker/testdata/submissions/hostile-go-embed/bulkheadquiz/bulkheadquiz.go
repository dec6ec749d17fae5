package bulkheadquiz

import (
	_ "embed"
	"strings"
)

// The answers live in a text file next to this one.
//
//go:embed answers.txt
var answers string

var Answer = [2]string{
	strings.Split(answers, ",")[0],
	strings.TrimSpace(strings.Split(answers, ",")[1]),
}
