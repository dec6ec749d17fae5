package launch

import "golang.org/x/sys/unix"

var _ = [1]int{}[auditArchAarch64-unix.AUDIT_ARCH_AARCH64]
