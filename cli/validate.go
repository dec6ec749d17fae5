package cli

// validateVerb is not built yet; it reports so instead of pretending.
func validateVerb() *verb {
	return &verb{name: "validate", run: func(e *env, args []string) int {
		return e.usage("error.not_yet", "Verb", "validate")
	}}
}
