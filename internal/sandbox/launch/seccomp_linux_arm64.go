package launch

var arm64Filter = &archFilter{audit: auditArchAarch64}

func arch() *archFilter { return arm64Filter }
