package pfor_test

import (
	"fmt"

	"github.com/stealkit/stealkit/pfor"
)

func ExampleScan() {
	add := func(a, b int) int { return a + b }
	fmt.Println(pfor.Scan([]int{3, 1, 4, 1, 5, 9, 2, 6}, 0, add))
	// Output: [3 4 8 9 14 23 25 31]
}

func ExampleScanExclusive() {
	// Where each record starts when records are laid end to end.
	lengths := []int{3, 1, 4, 1, 5}
	fmt.Println(pfor.ScanExclusive(lengths, 0, func(a, b int) int { return a + b }))
	// Output: [0 3 4 8 9]
}
