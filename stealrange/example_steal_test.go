package stealrange_test

import (
	"fmt"

	"github.com/stealkit/stealkit/stealrange"
)

// A thief takes the top of the range; the owner keeps the rest.
func ExampleRange_TrySteal() {
	r := stealrange.New(0, 100)
	lo, hi, ok := r.TrySteal()
	fmt.Printf("stole [%d, %d) %v; owner has %d left\n", lo, hi, ok, r.Remaining())
	// Output: stole [75, 100) true; owner has 75 left
}

// A thief looks at Stealable to choose a victim without taking anything:
// the steal range is the top quarter of what is left, rounded up.
func ExampleRange_Stealable() {
	r := stealrange.New(0, 100)
	fmt.Println(r.Stealable())
	r.TrySteal()
	fmt.Println(r.Stealable())
	// Output:
	// 25
	// 19
}

func ExampleRange_Remaining() {
	r := stealrange.New(0, 10)
	r.TryTake(4)
	fmt.Println(r.Remaining())
	// Output: 6
}

// A worker whose own range is exhausted steals from a victim into its own
// Range, where others may steal from it in turn.
func ExampleRange_StealFrom() {
	victim := stealrange.New(0, 40)
	mine := stealrange.New(0, 0)
	lo, hi, ok := mine.StealFrom(victim)
	fmt.Printf("[%d, %d) %v\n", lo, hi, ok)
	lo, hi, _ = mine.TryTake(100)
	fmt.Printf("owner takes [%d, %d)\n", lo, hi)
	// Output:
	// [30, 40) true
	// owner takes [30, 40)
}

// An owner that took a batch it will not finish soon hands the rest back,
// so that idle thieves can take it.
func ExampleRange_GiveBack() {
	r := stealrange.New(0, 100)
	lo, hi, _ := r.TryTake(40)
	fmt.Printf("took [%d, %d)\n", lo, hi)
	r.GiveBack(10) // only [0, 10) processed
	fmt.Println(r.Remaining())
	lo, hi, _ = r.TryTake(5)
	fmt.Printf("next [%d, %d)\n", lo, hi)
	// Output:
	// took [0, 40)
	// 90
	// next [10, 15)
}

// The Ranges of one loop are reused for the next once every worker has
// returned, so that a loop run over and over stops allocating.
func ExampleRange_Reuse() {
	var r stealrange.Range // a zero Range is ready once reused
	for run := range 2 {
		r.Reuse(0, 3*(run+1))
		n := 0
		for {
			_, ok := r.TryTakeOne()
			if !ok {
				break
			}
			n++
		}
		fmt.Println("run", run, "took", n)
	}
	// Output:
	// run 0 took 3
	// run 1 took 6
}
