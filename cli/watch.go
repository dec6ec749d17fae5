package cli

// watchVerb is not built yet; it reports so instead of pretending.
func watchVerb() *verb {
	return &verb{name: "watch", run: func(e *env, args []string) int {
		return e.usage("error.not_yet", "Verb", "watch")
	}}
}
