package watch

import "syscall"

// eventsUnreliable reports whether dir lies on a file system whose changes
// fsnotify may not see: inotify reports only the changes made through this
// kernel, so an editor on the Windows side of WSL 2, on a VirtualBox host or
// on another machine saves without a single event here.
func eventsUnreliable(dir string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return false
	}
	// statfs(2) magic numbers; the mask undoes sign extension where the
	// field is 32 bits wide.
	switch int64(st.Type) & 0xffffffff {
	case 0x01021997, // v9fs: WSL 2's /mnt/c and other 9p mounts
		0x786f4256, // vboxsf: VirtualBox shared folders
		0x6969,     // NFS
		0x517b,     // SMB
		0xff534d42, // CIFS
		0xfe534d42: // SMB2
		return true
	}
	return false
}
