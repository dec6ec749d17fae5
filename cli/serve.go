package cli

// serveVerb is not built yet; it reports so instead of pretending.
func serveVerb() *verb {
	return &verb{name: "serve", run: func(e *env, args []string) int {
		return e.usage("error.not_yet", "Verb", "serve")
	}}
}
