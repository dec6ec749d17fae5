//go:build !windows

package checker

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// passFiles passes files to cmd as descriptors 3, 4, … and returns their
// numbers for KURS_PIPES.
func passFiles(cmd *exec.Cmd, files ...*os.File) string {
	cmd.ExtraFiles = files
	nums := make([]string, len(files))
	for i := range files {
		nums[i] = strconv.Itoa(3 + i)
	}
	return strings.Join(nums, ",")
}
