package build

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// regularIn states the file name in the folder d, dir's handle, without
// following a link, and reports false unless it is a regular file: one
// fstatat on d's descriptor, the cheapest way to ask.
func regularIn(_ *os.Root, d *os.File, name string) (fileInfo, bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileInfo{}, false
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileInfo{}, false
	}
	return fileInfo{size: st.Size, mtime: time.Unix(st.Mtim.Sec, st.Mtim.Nsec)}, true
}
