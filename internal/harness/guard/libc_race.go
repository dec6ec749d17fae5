//go:build race && linux && cgo

package guard

// The race detector's build is the only learner's program linked with the
// C library, and the launcher's seccomp filter refuses it, like every
// learner's program, mprotect that makes memory writable: the kernel skips
// mprotect's data check once the address space is full, so that call would
// let a compromised program turn reserved memory into read-write memory
// past its data limit. Two habits of glibc need that call, and this file
// changes both before the first thread starts:
//
//   - pthread_create maps a thread's stack without access and then makes
//     all but its guard page writable. Without a guard page it maps the
//     stack read-write at once, which the data limit counts; Go's runtime
//     checks its threads' stack bounds itself. The wrapper gives every
//     attribute set that Go's runtime/cgo initialises a guard size of 0
//     (the linker sends its calls of pthread_attr_init here).
//   - malloc gives each new thread an arena of its own, reserved without
//     access and made writable piece by piece. With one arena every thread
//     uses the main one, which grows with brk, counted too.

/*
#cgo LDFLAGS: -Wl,--wrap=pthread_attr_init
#include <malloc.h>
#include <pthread.h>

int __real_pthread_attr_init(pthread_attr_t *attr);

int __wrap_pthread_attr_init(pthread_attr_t *attr) {
	int err = __real_pthread_attr_init(attr);
	if (err == 0) {
		err = pthread_attr_setguardsize(attr, 0);
	}
	return err;
}

__attribute__((constructor)) static void kurs_one_arena(void) {
	mallopt(M_ARENA_MAX, 1);
}
*/
import "C"
