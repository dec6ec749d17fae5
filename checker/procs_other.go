//go:build !(linux || darwin || freebsd)

package checker

// killedByLimit reports false: there are no resource limits here.
func killedByLimit(error) bool { return false }
