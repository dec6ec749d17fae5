package launch

// Syscall numbers and constants of amd64 that package syscall lacks.
const (
	auditArchX86_64  = 0xc000003e
	sysGetcpu        = 309
	sysSeccomp       = 317
	sysGetrandom     = 318
	sysExecveat      = 322
	sysCopyFileRange = 326
)
