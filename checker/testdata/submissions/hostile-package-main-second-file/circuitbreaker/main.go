package main

import "fmt"

// main prints what a passing test run looks like; go test would refuse the
// folder, and so must the checker.
func main() {
	fmt.Println("--- PASS: TestCircuitBreaker (0.00s)")
	fmt.Println("PASS")
}
