//go:build !linux

package watch

// eventsUnreliable reports whether dir lies on a file system whose changes
// fsnotify may not see. Only Linux tells; elsewhere --poll is the way out.
func eventsUnreliable(dir string) bool { return false }
