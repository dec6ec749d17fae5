package bulkheadquiz

var Answer = [2]string{
	"D Feste, getrennte Pools",
	"a",
}
