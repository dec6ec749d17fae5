package bulkheadquiz

import "strings"

var Answer [2]string

func init() {
	// case 1: bulkhead, case 2: load shedding
	Answer[0] = strings.ToUpper("d")
	Answer[1] = "A "
}
