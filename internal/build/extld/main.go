// Command extld is the C linker kurs names to the Go linker when it builds
// a learner's program with the race detector (go build -ldflags=-extld=…),
// built once and kept like a judge.
//
// Before it links, the Go linker asks whether the C compiler takes each of
// a few flags, each time anew, by compiling and linking a trivial C program
// with the flag: five runs of the C compiler and the system linker, more
// than the link itself costs. extld answers a question it finds in
// KURS_EXTLD_KNOWN, the answers the same C compiler gave before, and asks
// the C compiler the others, appending each answer to the file
// KURS_EXTLD_LEARNED for kurs to keep. Every other call, the link itself,
// is the C compiler's: extld becomes KURS_EXTLD_CC, a path, followed by
// the arguments CC names.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

func main() {
	cc := strings.Split(os.Getenv("KURS_EXTLD_CC"), "\n")
	if cc[0] == "" {
		fmt.Fprintln(os.Stderr, "extld: KURS_EXTLD_CC is not set")
		os.Exit(2)
	}
	args := os.Args[1:]
	if q, ok := question(args); ok {
		os.Exit(answer(cc, args, q))
	}
	argv := append(append([]string{cc[0]}, cc[1:]...), args...)
	err := syscall.Exec(cc[0], argv, os.Environ())
	fmt.Fprintln(os.Stderr, "extld:", err)
	os.Exit(2)
}

// question returns what the Go linker asks when args are one of its
// questions: the arguments without the trivial program and its output,
// which are in a new folder each time.
func question(args []string) (string, bool) {
	n := len(args)
	if n < 4 || filepath.Base(args[n-1]) != "trivial.c" || args[n-4] != "-o" {
		return "", false
	}
	return strings.Join(append(args[:n-4:n-4], args[n-2]), " "), true
}

// answer answers the question q, asked with args, and returns the exit
// code that gives the Go linker the C compiler's answer.
func answer(cc, args []string, q string) int {
	for _, line := range strings.Split(os.Getenv("KURS_EXTLD_KNOWN"), "\n") {
		verdict, known, _ := strings.Cut(line, " ")
		if known != q {
			continue
		}
		if verdict == "yes" {
			return 0
		}
		fmt.Println("unrecognized") // the word the Go linker looks for
		return 1
	}
	cmd := exec.Command(cc[0], append(cc[1:len(cc):len(cc)], args...)...)
	cmd.Env = append([]string{"LC_ALL=C"}, os.Environ()...)
	out, err := cmd.CombinedOutput()
	os.Stdout.Write(out)
	// The Go linker's own test of the answer.
	yes := err == nil && !bytes.Contains(out, []byte("unrecognized")) && !bytes.Contains(out, []byte("unknown"))
	verdict := "no"
	if yes {
		verdict = "yes"
	}
	if name := os.Getenv("KURS_EXTLD_LEARNED"); name != "" {
		if f, ferr := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); ferr == nil {
			fmt.Fprintf(f, "%s %s\n", verdict, q)
			f.Close()
		}
	}
	if yes {
		return 0
	}
	return 1
}
