//go:build unix

package build

import (
	"fmt"
	"os"
	"syscall"
)

// checkDir checks that the folder dir cannot be changed by anyone but the
// user: it is the user's and no one else may write into it. A folder above
// the cache (above) may also be the system's (root's), and open to all
// when it is sticky, as /tmp is: no one can then remove or rename what
// another made in it.
func checkDir(dir string, above bool) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	uid := uint32(os.Getuid())
	mode := info.Mode()
	switch {
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	case st.Uid != uid && !(above && st.Uid == 0):
		return &UnsafeError{Dir: dir, Foreign: true}
	case mode.Perm()&0o022 != 0 && !(above && mode&os.ModeSticky != 0):
		return &UnsafeError{Dir: dir}
	}
	return nil
}

// fileID names a file's identity on disk: a file replaced or changed
// since has another.
func fileID(info os.FileInfo) string {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprint(st.Dev, st.Ino, st.Size, info.ModTime().UnixNano(), changed(st))
	}
	return fmt.Sprint(info.Size(), info.ModTime().UnixNano())
}

// noFollow makes an open fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW

// private reports whether a file is the user's and closed to everyone
// else.
func private(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Uid == uint32(os.Getuid()) && info.Mode().Perm()&0o077 == 0
}
