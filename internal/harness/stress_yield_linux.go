package harness

import "syscall"

// Yield gives the processor to another thread, of this program or another.
// A stress worker calls it when the value under test has nothing for it
// (a pool that is full): the thread that holds what it waits for may be
// waiting for the processor, and on a busy machine spinning would only
// burn the time in which the learner's code should run.
//
// It goes through the scheduler's syscall path (not RawSyscall): a
// goroutine that spent its time in a raw syscall could not be preempted,
// and the goroutine that ends the stress would never run.
func Yield() { _, _, _ = syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
