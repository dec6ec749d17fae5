package gateway

import "fmt"

// An init that starts a goroutine which panics a moment later: in a
// program that held other exercises' code too, it would end their tests
// midway. The test puts it beside the reference gateway.
func init() {
	go func() {
		n := 0
		for i := 0; i < 50_000_000; i++ {
			n += i
		}
		panic(fmt.Sprint("the gateway gives up after ", n))
	}()
}
