package retryquiz

import _ "github.com/kurs-course/kurs/internal/harness/guard"

// The API that kurs expects: three option letters, one per case.
var _ *[3]string = &Answer
