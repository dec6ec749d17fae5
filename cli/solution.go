package cli

// solutionVerb is not built yet; it reports so instead of pretending.
func solutionVerb() *verb {
	return &verb{name: "solution", run: func(e *env, args []string) int {
		return e.usage("error.not_yet", "Verb", "solution")
	}}
}
