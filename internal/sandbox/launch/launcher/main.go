// Command launcher is kurs's sandbox launcher on its own: package sandbox
// starts it with a spec and a program, and it applies the spec and
// executes the program (see package launch). It initialises nothing but
// the standard library, so it starts in a fraction of kurs's time. kurs
// builds it from the sources that package sandbox embeds.
package main

import (
	"os"

	"github.com/kurs-course/kurs/internal/sandbox/launch"
)

func main() { launch.Main(os.Args[1:]) }
