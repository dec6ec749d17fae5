//go:build !unix

package build

import (
	"fmt"
	"os"
)

// checkDir checks that dir is a folder; this system's owners and
// permissions are not Unix's, and the user's profile folder protects the
// cache.
func checkDir(dir string, above bool) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}

// checkLink accepts every link: this system's owners are not Unix's.
func checkLink(string, os.FileInfo) error { return nil }

// fileID names a file's identity on disk: a file changed since has
// another.
func fileID(info os.FileInfo) string {
	return fmt.Sprint(info.Size(), info.ModTime().UnixNano())
}

// noFollow is 0: this system's open has no such flag, and the user's
// profile folder protects the cache.
const noFollow = 0

// private reports true: the user's profile folder protects the cache.
func private(os.FileInfo) bool { return true }

// lockFile takes no lock here: kurs processes on this system may exceed
// the objects' cap by what they keep at once.
func lockFile(*os.Root, string) (func(), error) { return func() {}, nil }
