package circuitbreaker

// Die drei Zustände als Konstanten, damit ich mich nicht vertippe.
const (
	Geschlossen = "closed"
	Offen       = "open"
	HalbOffen   = "half_open"
)
