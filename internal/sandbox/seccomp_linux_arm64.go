package sandbox

import "golang.org/x/sys/unix"

var arm64Filter = &archFilter{audit: unix.AUDIT_ARCH_AARCH64}

func arch() *archFilter { return arm64Filter }
