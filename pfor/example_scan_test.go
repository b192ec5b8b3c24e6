package pfor_test

import (
	"context"
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

func ExampleScanErr() {
	ctx, cancel := context.WithCancel(context.Background())
	add := func(a, b int) int { return a + b }
	out, err := pfor.ScanErr(ctx, []int{3, 1, 4, 1, 5}, 0, add)
	fmt.Println(out, err)
	cancel()
	out, err = pfor.ScanErr(ctx, []int{3, 1, 4, 1, 5}, 0, add)
	fmt.Println(out, err)
	// Output:
	// [3 4 8 9 14] <nil>
	// [] context canceled
}

func ExampleScanExclusiveErr() {
	lengths := []int{3, 1, 4, 1, 5}
	starts, err := pfor.ScanExclusiveErr(context.Background(), lengths, 0, func(a, b int) int { return a + b })
	fmt.Println(starts, err)
	// Output: [0 3 4 8 9] <nil>
}
