// Command guarded is a learner's program with the harness's guard linked
// in, as the checker builds it: a fixture of package sandbox. It prints
// "ready" and waits for stdin to close.
package main

import (
	"bufio"
	"fmt"
	"os"

	_ "github.com/kurs-course/kurs/internal/harness/guard"
)

func main() {
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
}
