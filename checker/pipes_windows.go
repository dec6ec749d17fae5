package checker

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// passFiles lets cmd inherit files' handles, since Windows has no extra
// descriptors, and returns the handles' numbers for KURS_PIPES.
func passFiles(cmd *exec.Cmd, files ...*os.File) string {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	nums := make([]string, len(files))
	for i, f := range files {
		h := syscall.Handle(f.Fd())
		cmd.SysProcAttr.AdditionalInheritedHandles = append(cmd.SysProcAttr.AdditionalInheritedHandles, h)
		nums[i] = strconv.FormatUint(uint64(h), 10)
	}
	return strings.Join(nums, ",")
}
