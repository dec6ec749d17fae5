//go:build linux

package main

import "syscall"

// ttyAttr makes kurs the leader of a session whose controlling terminal
// is its standard input, as a shell in a terminal window starts it.
func ttyAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}
