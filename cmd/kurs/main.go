// Command kurs is an offline course runtime with graded Go exercises. See
// `kurs help`.
package main

import (
	"os"

	"github.com/kurs-course/kurs/internal/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:])) }
