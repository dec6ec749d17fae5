//go:build !linux

package build

import "os"

// regularIn states the file name in dir without following a link, and
// reports false unless it is a regular file.
func regularIn(dir *os.Root, _ *os.File, name string) (fileInfo, bool) {
	info, err := dir.Lstat(name)
	if err != nil || !info.Mode().IsRegular() {
		return fileInfo{}, false
	}
	return fileInfo{size: info.Size(), mtime: info.ModTime()}, true
}
