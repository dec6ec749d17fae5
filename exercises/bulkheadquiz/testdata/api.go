package bulkheadquiz

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects: two option letters, one per case.
var _ *[2]string = &Answer
