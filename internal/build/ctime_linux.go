package build

import "syscall"

// changed returns the file's change time, which only the kernel sets.
func changed(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
