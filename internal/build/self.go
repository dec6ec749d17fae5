package build

import (
	"os"
	"sync"
)

// Self names the running kurs by its file: its path and its identity on
// disk (size, modification time and, where there is one, device, inode
// and change time). A result that kurs's own code made, such as a
// verdict or its explanation, is kept under a key that includes Self, so
// that a kurs built anew (an upgrade, a developer's change) never takes
// the results of another for its own. The file's identity stands in for
// its content, which would take longer to hash than a check takes.
func Self() string { return self() }

var self = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	info, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return exe + "\x00" + fileID(info)
})
