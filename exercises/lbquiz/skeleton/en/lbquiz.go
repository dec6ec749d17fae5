// Package lbquiz is exercise 3 of the lesson "Load balancing": what do the
// measurements show?
//
// Read the four cases with their options A to D in the task and put one
// letter per case into Answer.
//
// Check your answer with
//
//	kurs check lbquiz
//
// and get the next hint with
//
//	kurs hint lbquiz
package lbquiz

// Answer holds the letters of the chosen options (A, B, C or D) for cases 1
// to 4 in order, e.g. [4]string{"W", "X", "Y", "Z"}. Each case is graded
// on its own; upper or lower case does not matter.
//
//   - Case 1: eight balancers choose by least connections from a shared
//     table that is rewritten every five seconds. What helps most directly?
//   - Case 2: one million jobs, one million queues: what does a second
//     random choice bring?
//   - Case 3: one backend of 16 is half as fast, weighted round robin at
//     80% load. Which setting is the most dangerous?
//   - Case 4: an EDNS Client Subnet answer with SCOPE PREFIX-LENGTH /0.
//     What may the resolver do with it?
//
// TODO: fill in the four letters.
var Answer = [4]string{"", "", "", ""}
