package launch

// Syscall numbers and constants of arm64 that package syscall lacks.
const (
	auditArchAarch64 = 0xc00000b7
	sysGetcpu        = 168
	sysSeccomp       = 277
	sysGetrandom     = 278
	sysExecveat      = 281
	sysCopyFileRange = 285
)
