// Package lbquiz is the reference answer of the exercise "lbquiz": what
// the measurements of the lesson "Lastverteilung" show.
package lbquiz

// Answer holds the option letters for cases 1 to 4.
var Answer = [4]string{"C", "A", "D", "B"}
