package report

// The writers the formats reach, for the tests to call directly.
var (
	Class      = classReport
	Table      = classTable
	BatchJUnit = batchJUnit
)
