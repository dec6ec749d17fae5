package cli

// resetVerb is not built yet; it reports so instead of pretending.
func resetVerb() *verb {
	return &verb{name: "reset", run: func(e *env, args []string) int {
		return e.usage("error.not_yet", "Verb", "reset")
	}}
}
