// Command kurs is an offline course runtime with graded Go exercises. See
// `kurs help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/kurs-course/kurs/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.System())
	stop()
	os.Exit(code)
}
