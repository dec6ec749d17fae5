package launch

import "golang.org/x/sys/unix"

var _ = [1]int{}[auditArchX86_64-unix.AUDIT_ARCH_X86_64]
