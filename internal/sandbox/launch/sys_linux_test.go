package launch

import (
	"testing"

	"golang.org/x/sys/unix"
)

// The constants that package syscall lacks are the kernel's, as
// golang.org/x/sys/unix has them for this architecture.
func TestConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"O_PATH", oPATH, unix.O_PATH},
		{"AT_EMPTY_PATH", atEmptyPath, unix.AT_EMPTY_PATH},
		{"RLIMIT_NPROC", rlimitNPROC, unix.RLIMIT_NPROC},
		{"PR_SET_NO_NEW_PRIVS", prSetNoNewPrivs, unix.PR_SET_NO_NEW_PRIVS},
		{"PR_GET_NO_NEW_PRIVS", prGetNoNewPrivs, unix.PR_GET_NO_NEW_PRIVS},
		{"PR_CAP_AMBIENT", prCapAmbient, unix.PR_CAP_AMBIENT},
		{"PR_CAP_AMBIENT_CLEAR_ALL", prCapAmbientClearAll, unix.PR_CAP_AMBIENT_CLEAR_ALL},
		{"PR_SET_VMA", prSetVMA, unix.PR_SET_VMA},
		{"LINUX_CAPABILITY_VERSION_3", linuxCapabilityVersion3, unix.LINUX_CAPABILITY_VERSION_3},
		{"SECCOMP_SET_MODE_FILTER", seccompSetModeFilter, unix.SECCOMP_SET_MODE_FILTER},
		{"SECCOMP_RET_ALLOW", seccompRetAllow, unix.SECCOMP_RET_ALLOW},
		{"SECCOMP_RET_KILL_PROCESS", seccompRetKillProcess, unix.SECCOMP_RET_KILL_PROCESS},
		{"SECCOMP_RET_ERRNO", seccompRetErrno, unix.SECCOMP_RET_ERRNO},
		{"LANDLOCK_ACCESS_FS_EXECUTE", landlockAccessFSExecute, unix.LANDLOCK_ACCESS_FS_EXECUTE},
		{"LANDLOCK_ACCESS_FS_READ_FILE", landlockAccessFSReadFile, unix.LANDLOCK_ACCESS_FS_READ_FILE},
		{"LANDLOCK_ACCESS_FS_REFER", landlockAccessFSRefer, unix.LANDLOCK_ACCESS_FS_REFER},
		{"LANDLOCK_ACCESS_FS_TRUNCATE", landlockAccessFSTruncate, unix.LANDLOCK_ACCESS_FS_TRUNCATE},
		{"LANDLOCK_ACCESS_FS_IOCTL_DEV", landlockAccessFSIoctlDev, unix.LANDLOCK_ACCESS_FS_IOCTL_DEV},
		{"LANDLOCK_ACCESS_NET_BIND_TCP", landlockAccessNetBindTCP, unix.LANDLOCK_ACCESS_NET_BIND_TCP},
		{"LANDLOCK_ACCESS_NET_CONNECT_TCP", landlockAccessNetConnectTCP, unix.LANDLOCK_ACCESS_NET_CONNECT_TCP},
		{"LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET", landlockScopeAbstractUnixSocket, unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET},
		{"LANDLOCK_SCOPE_SIGNAL", landlockScopeSignal, unix.LANDLOCK_SCOPE_SIGNAL},
		{"LANDLOCK_RULE_PATH_BENEATH", landlockRulePathBeneath, unix.LANDLOCK_RULE_PATH_BENEATH},
		{"SYS_CLONE3", sysClone3, unix.SYS_CLONE3},
		{"SYS_EPOLL_PWAIT2", sysEpollPwait2, unix.SYS_EPOLL_PWAIT2},
		{"SYS_LANDLOCK_CREATE_RULESET", sysLandlockCreateRuleset, unix.SYS_LANDLOCK_CREATE_RULESET},
		{"SYS_LANDLOCK_ADD_RULE", sysLandlockAddRule, unix.SYS_LANDLOCK_ADD_RULE},
		{"SYS_LANDLOCK_RESTRICT_SELF", sysLandlockRestrictSelf, unix.SYS_LANDLOCK_RESTRICT_SELF},
		{"SYS_GETCPU", sysGetcpu, unix.SYS_GETCPU},
		{"SYS_SECCOMP", sysSeccomp, unix.SYS_SECCOMP},
		{"SYS_GETRANDOM", sysGetrandom, unix.SYS_GETRANDOM},
		{"SYS_EXECVEAT", sysExecveat, unix.SYS_EXECVEAT},
		{"SYS_COPY_FILE_RANGE", sysCopyFileRange, unix.SYS_COPY_FILE_RANGE},
	} {
		if c.got != c.want {
			t.Errorf("%s = %#x, the kernel's is %#x", c.name, c.got, c.want)
		}
	}
}

// The numbers that differ between architectures are checked as the tests
// compile, for whichever architecture they compile for (an index other
// than 0 does not compile): GOARCH=arm64 go vet checks arm64's on amd64.
var (
	_ = [1]int{}[sysGetcpu-unix.SYS_GETCPU]
	_ = [1]int{}[sysSeccomp-unix.SYS_SECCOMP]
	_ = [1]int{}[sysGetrandom-unix.SYS_GETRANDOM]
	_ = [1]int{}[sysExecveat-unix.SYS_EXECVEAT]
	_ = [1]int{}[sysCopyFileRange-unix.SYS_COPY_FILE_RANGE]
)
