// Package kurs holds the embedded course: the lessons and exercises that
// ship inside the kurs binary.
package kurs

import (
	"embed"
	"io/fs"
)

//go:embed lessons exercises
var content embed.FS

// Content returns the embedded course, laid out as lessons/ and exercises/.
func Content() fs.FS { return content }
