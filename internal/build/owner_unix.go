//go:build unix

package build

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// checkDir checks that the folder dir cannot be changed by anyone but the
// user: it is the user's and no one else may write into it. A folder above
// the cache (above) may also be the system's (root's), and open to all
// when it is sticky, as /tmp is: no one can then remove or rename what
// another made in it.
func checkDir(dir string, above bool) error {
	info, err := os.Lstat(dir)
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
	case mode&os.ModeSymlink != 0:
		return &UnsafeError{Dir: dir, Link: true, Foreign: st.Uid != uid}
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	case st.Uid != uid && !(above && st.Uid == 0):
		return &UnsafeError{Dir: dir, Foreign: true}
	case mode.Perm()&0o022 != 0 && !(above && mode&os.ModeSticky != 0):
		return &UnsafeError{Dir: dir}
	}
	return nil
}

// checkLink checks that the symbolic link name, on the way to the cache,
// cannot be pointed elsewhere by anyone but the user or root: it is
// theirs, and the folder that holds it may be written by no one else
// (not even when it is sticky: the link may be another's there, and one
// that is the user's is no folder kurs made).
func checkLink(name string, info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if st.Uid != uint32(os.Getuid()) && st.Uid != 0 {
		return &UnsafeError{Dir: name, Link: true, Foreign: true}
	}
	up, err := os.Stat(filepath.Dir(name))
	if err != nil {
		return err
	}
	if up.Mode().Perm()&0o022 != 0 {
		return &UnsafeError{Dir: name, Link: true}
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

// lockFile takes an exclusive lock on the file name in dir, made if
// missing, which every kurs process that takes it respects, and returns
// the function that releases it.
func lockFile(dir *os.Root, name string) (func(), error) {
	f, err := dir.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
