//go:build !linux && !darwin

package launch

import (
	"fmt"
	"os"
)

// Main says that there is no launcher on this system, where package
// sandbox starts programs plainly.
func Main([]string) {
	fmt.Fprintln(os.Stderr, "kurs sandbox: no launcher on this system")
	os.Exit(ExitLaunch)
}
