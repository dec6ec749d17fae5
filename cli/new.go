package cli

// newVerb is not built yet; it reports so instead of pretending.
func newVerb() *verb {
	return &verb{name: "new", run: func(e *env, args []string) int {
		return e.usage("error.not_yet", "Verb", "new")
	}}
}
