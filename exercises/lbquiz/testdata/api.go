package lbquiz

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects: four option letters, one per case.
var _ *[4]string = &Answer
