package launch

// Constants of the Linux ABI that package syscall lacks, the same on every
// architecture (sys_linux_test.go compares them with golang.org/x/sys/unix).
const (
	oPATH       = 0x200000
	atEmptyPath = 0x1000
	rlimitNPROC = 6

	prSetNoNewPrivs      = 38
	prGetNoNewPrivs      = 39
	prCapAmbient         = 47
	prCapAmbientClearAll = 4
	prSetVMA             = 0x53564d41

	linuxCapabilityVersion3 = 0x20080522

	seccompSetModeFilter  = 1
	seccompRetAllow       = 0x7fff0000
	seccompRetKillProcess = 0x80000000
	seccompRetErrno       = 0x50000

	landlockAccessFSExecute         = 0x1
	landlockAccessFSReadFile        = 0x4
	landlockAccessFSRefer           = 0x2000
	landlockAccessFSTruncate        = 0x4000
	landlockAccessFSIoctlDev        = 0x8000
	landlockAccessNetBindTCP        = 0x1
	landlockAccessNetConnectTCP     = 0x2
	landlockScopeAbstractUnixSocket = 0x1
	landlockScopeSignal             = 0x2
	landlockRulePathBeneath         = 1

	// Syscalls numbered alike on amd64 and arm64 (and every
	// architecture since Linux 5.3).
	sysClone3                = 435
	sysEpollPwait2           = 441
	sysLandlockCreateRuleset = 444
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446

	// noSyscall is a number no syscall has.
	noSyscall = 1<<32 - 1
)
