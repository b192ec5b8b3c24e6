package stealrange_test

import (
	"fmt"

	"github.com/stealkit/stealkit/stealrange"
)

// The owner drains its range in batches; a thief takes the top quarter.
func Example() {
	r := stealrange.New(0, 100)
	lo, hi, _ := r.TrySteal() // any goroutine
	fmt.Printf("thief got [%d, %d)\n", lo, hi)
	n := 0
	for {
		lo, hi, ok := r.TryTake(16) // owner only
		if !ok {
			break
		}
		n += hi - lo
	}
	fmt.Println("owner got", n, "items")
	// Output:
	// thief got [75, 100)
	// owner got 75 items
}

func ExampleRange_TryTakeOne() {
	r := stealrange.New(3, 6)
	for {
		i, ok := r.TryTakeOne()
		if !ok {
			break
		}
		fmt.Println(i)
	}
	// Output:
	// 3
	// 4
	// 5
}

// A worker whose range is exhausted steals a chunk and re-owns it, so that
// others can steal from it in turn.
func ExampleRange_Reset() {
	victim := stealrange.New(0, 40)
	mine := stealrange.New(0, 0) // empty: nothing to take
	if _, ok := mine.TryTakeOne(); !ok {
		if lo, hi, ok := victim.TrySteal(); ok {
			mine.Reset(lo, hi)
		}
	}
	lo, hi, _ := mine.TryTake(100)
	fmt.Printf("[%d, %d)\n", lo, hi)
	// Output: [30, 40)
}

func ExampleRange_TryTake() {
	r := stealrange.New(0, 10)
	for {
		lo, hi, ok := r.TryTake(4)
		if !ok {
			break
		}
		fmt.Printf("[%d, %d) ", lo, hi)
	}
	fmt.Println()
	// Output: [0, 4) [4, 8) [8, 10)
}

func ExampleNew() {
	r := stealrange.New(-2, 1)
	i, _ := r.TryTakeOne()
	fmt.Println(i)
	// Output: -2
}
