package cli

// lessonVerb is not built yet; it reports so instead of pretending.
func lessonVerb() *verb {
	return &verb{name: "lesson", run: func(e *env, args []string) int {
		return e.usage("error.not_yet", "Verb", "lesson")
	}}
}
