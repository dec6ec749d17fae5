// Command compromised acts as a learner's program that has broken out of
// Go's memory safety and makes any syscall it likes. It is a test fixture
// of package sandbox, never a learner's code.
//
//	compromised attack PARENT DIR PORT ABSTRACT
//
// prints "ready", waits for a line on stdin, tries each escape and prints
// "NAME ok" or "NAME denied ERRNO" for each, then "done", and waits for
// stdin to close. Before "ready" it prints the ids it runs as, "ids
// uid=R,E,S gid=R,E,S groups=[...]". Other modes: "exit" (nothing), "alloc
// BYTES", "write FILE BYTES", "spin", "sleep", "threads N" (N goroutines
// blocked in a raw syscall, each holding a thread; prints "threads started"
// and waits for a line on stdin), "memory WAY BYTES" (holds BYTES of
// read-write memory one way, prints "WAY ok" or "WAY denied ERRNO" and
// waits for a line on stdin).
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	switch os.Args[1] {
	case "exit":
	case "done":
		fmt.Println("exec-self ok")
		done()
	case "alloc":
		n, _ := strconv.Atoi(os.Args[2])
		b := make([]byte, n)
		for i := range b {
			b[i] = 1
		}
		fmt.Println("allocated", len(b))
	case "write":
		n, _ := strconv.Atoi(os.Args[3])
		err := os.WriteFile(os.Args[2], make([]byte, n), 0o644)
		fmt.Println("write:", err)
		if err != nil {
			os.Exit(1)
		}
	case "spin":
		for {
		}
	case "sleep":
		fmt.Println("sleeping")
		time.Sleep(time.Hour)
	case "attack":
		attack(os.Args[2:])
	case "threads":
		threads(os.Args[2])
	case "memory":
		n, _ := strconv.Atoi(os.Args[3])
		memory(os.Args[2], n)
	}
}

// memory tries to hold n bytes of read-write memory, more than its data
// limit, one way: "mprotect" fills the address space with mappings
// without access, which RLIMIT_DATA does not count, then makes n bytes of
// them writable (the kernel skips the data check of mprotect when the
// address space in use plus the change exceeds RLIMIT_AS); "plain" maps n
// bytes read-write; "shared" maps them shared. Whatever it got, it
// touches. It then waits, so that its resident memory can be read.
func memory(way string, n int) {
	var mem []byte
	var err error
	switch way {
	case "mprotect":
		var reserved [][]byte
		for {
			r, rerr := unix.Mmap(-1, 0, 64<<20, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
			if rerr != nil {
				break
			}
			reserved = append(reserved, r)
		}
		// Room for a run of n bytes: free a few reservations, map one
		// that size without access, and refill what is left.
		for i := 0; i < n/(64<<20)+1 && len(reserved) > 0; i++ {
			unix.Munmap(reserved[len(reserved)-1])
			reserved = reserved[:len(reserved)-1]
		}
		mem, err = unix.Mmap(-1, 0, n, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
		for err == nil {
			if _, rerr := unix.Mmap(-1, 0, 4<<20, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE); rerr != nil {
				break
			}
		}
		if err == nil {
			err = unix.Mprotect(mem, unix.PROT_READ|unix.PROT_WRITE)
		}
	case "plain":
		mem, err = unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	case "shared":
		mem, err = unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_ANON)
	}
	if err == nil {
		if unix.Madvise(mem, unix.MADV_POPULATE_WRITE) != nil {
			for i := 0; i < len(mem); i += 4096 {
				mem[i] = 1
			}
		}
	}
	report(way, err)
	bufio.NewReader(os.Stdin).ReadString('\n')
}

// threads makes the runtime start a thread for each of n goroutines: a
// goroutine in a blocking syscall keeps its thread, and the runtime starts
// another for the rest. Nothing but a thread limit stops it short of the
// runtime's own cap of 10,000, which lives in writable memory.
func threads(arg string) {
	n, _ := strconv.Atoi(arg)
	var started atomic.Int32
	for range n {
		go func() {
			started.Add(1)
			ts := syscall.Timespec{Sec: 30}
			syscall.Syscall(syscall.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
		}()
	}
	for started.Load() < int32(n) {
		time.Sleep(time.Millisecond)
	}
	// The runtime hands a blocked goroutine's processor to a new thread
	// within a few of its monitor's rounds.
	time.Sleep(time.Second)
	fmt.Println("threads started")
	bufio.NewReader(os.Stdin).ReadString('\n')
}

func report(name string, err error) {
	if err == nil {
		fmt.Println(name, "ok")
		return
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		fmt.Println(name, "denied", unix.ErrnoName(errno))
		return
	}
	fmt.Println(name, "denied", err)
}

func errnoErr(e syscall.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

func attack(args []string) {
	parent, _ := strconv.Atoi(args[0])
	dir, port, abstract := args[1], args[2], args[3]

	// The Go runtime must work: goroutines, timers, the collector, and the
	// descriptors it was given.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Millisecond)
			_ = make([]byte, 1<<20)
		}()
	}
	wg.Wait()
	runtime.GC()
	fd3 := os.NewFile(3, "fd3")
	_, err := fmt.Fprintln(fd3, "fd3 works")
	report("runtime", err)
	fd3.Close()

	ru, eu, su := unix.Getresuid()
	rg, eg, sg := unix.Getresgid()
	groups, _ := syscall.Getgroups()
	fmt.Printf("ids uid=%d,%d,%d gid=%d,%d,%d groups=%v\n", ru, eu, su, rg, eg, sg, groups)

	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')

	// What it may do, it could read from its own status.
	_, err = os.ReadFile("/proc/self/status")
	report("read-status", err)
	report("setuid-root", syscall.Setresuid(0, 0, 0))

	_, err = os.ReadFile("/etc/hostname")
	report("read-etc", err)
	_, err = os.ReadFile(dir + "/secret")
	report("read-secret", err)
	report("create", os.WriteFile(dir+"/created", []byte("x"), 0o644))
	report("remove", os.Remove(dir+"/secret"))
	report("mkdir", os.Mkdir(dir+"/newdir", 0o755))
	report("symlink", os.Symlink("/etc/passwd", dir+"/link"))
	report("chmod", os.Chmod(dir+"/secret", 0o777))
	report("truncate", os.Truncate(dir+"/secret", 0))
	report("rename", os.Rename(dir+"/secret", dir+"/moved"))
	how := unix.OpenHow{Flags: unix.O_RDONLY}
	fd, err := unix.Openat2(unix.AT_FDCWD, dir+"/secret", &how)
	if err == nil {
		unix.Close(fd)
	}
	report("openat2", err)
	_, err = os.ReadDir("/")
	report("readdir", err)

	report("tcp-connect", tcp(port))
	report("unix-socket", abstractUnix(abstract))
	_, err = syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	report("socketpair", err)

	report("fork", fork())
	report("clone3", clone3())
	report("exec-sh", syscall.Exec("/bin/sh", []string{"sh", "-c", "exit 0"}, nil))
	report("start-sh", exec.Command("/bin/sh", "-c", "sleep 60").Start())
	_, err = syscall.Setsid()
	report("setsid", err)
	report("setpgid", syscall.Setpgid(0, 0))

	report("ptrace-parent", syscall.PtraceAttach(parent))
	// Signal 0 asks only whether a signal could be sent: if the sandbox
	// were broken, kill(-1, SIGKILL) would end every process of the user.
	report("kill-all", syscall.Kill(-1, 0))
	report("kill-parent", syscall.Kill(parent, syscall.SIGKILL))
	_, _, e := syscall.RawSyscall(unix.SYS_TGKILL, uintptr(parent), uintptr(parent), uintptr(syscall.SIGKILL))
	report("tgkill-parent", errnoErr(e))
	buf := make([]byte, 8)
	local := []unix.Iovec{{Base: &buf[0], Len: 8}}
	remote := []unix.RemoteIovec{{Base: 0x400000, Len: 8}}
	_, err = unix.ProcessVMReadv(parent, local, remote, 0)
	report("process-vm-readv", err)

	err = syscall.Mount("none", dir+"/mnt", "tmpfs", 0, "")
	if err == nil {
		syscall.Unmount(dir+"/mnt", 0)
	}
	report("mount", err)
	report("unshare-user", syscall.Unshare(syscall.CLONE_NEWUSER))
	report("unshare-net", syscall.Unshare(syscall.CLONE_NEWNET))
	report("setrlimit", syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: 1 << 30, Max: 1 << 30}))
	report("prctl-dumpable", unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0))
	_, err = unix.Mmap(-1, 0, 4096, unix.PROT_READ|unix.PROT_WRITE|unix.PROT_EXEC, unix.MAP_ANON|unix.MAP_PRIVATE)
	report("mmap-exec", err)
	// Memory that RLIMIT_DATA does not count: shared anonymous memory
	// and stacks, over any limit; and a private mapping grown by mremap.
	// Nothing is touched: where a mapping is made, the test fails.
	mmap := func(size int, flags int) error {
		b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, flags|unix.MAP_ANON)
		if err == nil {
			unix.Munmap(b)
		}
		return err
	}
	report("mmap-shared", mmap(4<<30, unix.MAP_SHARED))
	report("mmap-shared-small", mmap(1<<20, unix.MAP_SHARED))
	report("mmap-shared-validate", mmap(4<<30, unix.MAP_SHARED_VALIDATE))
	report("mmap-growsdown", mmap(4<<30, unix.MAP_PRIVATE|unix.MAP_GROWSDOWN))
	small, err := unix.Mmap(-1, 0, 1<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err == nil {
		var big []byte
		big, err = unix.Mremap(small, 4<<30, unix.MREMAP_MAYMOVE)
		if err == nil {
			small = big
		}
		unix.Munmap(small)
	}
	report("mremap-grow", err)
	_, err = unix.MemfdCreate("x", 0)
	report("memfd", err)
	_, _, e = syscall.RawSyscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&[120]byte{})), 0)
	report("io-uring", errnoErr(e))
	_, _, e = syscall.RawSyscall(unix.SYS_USERFAULTFD, 0, 0, 0)
	report("userfaultfd", errnoErr(e))
	_, _, e = syscall.RawSyscall(unix.SYS_BPF, 0, 0, 0)
	report("bpf", errnoErr(e))
	_, _, e = syscall.RawSyscall6(unix.SYS_PERF_EVENT_OPEN, uintptr(unsafe.Pointer(&unix.PerfEventAttr{})), 0, ^uintptr(0), ^uintptr(0), 0, 0)
	report("perf-event-open", errnoErr(e))
	// Last: where only Landlock holds, the program may execute itself.
	report("exec-self", syscall.Exec("/proc/self/exe", []string{"x", "done"}, nil))
	done()
}

func done() {
	fmt.Println("done")
	bufio.NewReader(os.Stdin).ReadString('\n')
}

func tcp(port string) error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	p, _ := strconv.Atoi(port)
	return syscall.Connect(fd, &syscall.SockaddrInet4{Port: p, Addr: [4]byte{127, 0, 0, 1}})
}

func abstractUnix(name string) error {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: "@" + name})
}

// fork makes a new process the raw way; a child that appears ends at once.
func fork() error {
	r, _, e := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
	if e == 0 && r == 0 {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
	}
	return errnoErr(e)
}

func clone3() error {
	// struct clone_args up to tls: flags, pidfd, child_tid, parent_tid,
	// exit_signal, stack, stack_size, tls.
	var args [8]uint64
	args[4] = uint64(syscall.SIGCHLD)
	r, _, e := syscall.RawSyscall(unix.SYS_CLONE3, uintptr(unsafe.Pointer(&args)), unsafe.Sizeof(args), 0)
	if e == 0 && r == 0 {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
	}
	return errnoErr(e)
}
