package partition_test

import (
	"fmt"

	"github.com/stealkit/stealkit/partition"
)

// One goroutine drives both workers of a static run.
func ExampleStatic() {
	run := partition.Static().Start(0, 10, 2)
	for w := range 2 {
		lo, hi, _ := run.Next(w)
		fmt.Printf("worker %d: [%d, %d)\n", w, lo, hi)
	}
	// Output:
	// worker 0: [0, 5)
	// worker 1: [5, 10)
}

func ExampleDynamic() {
	run := partition.Dynamic(4).Start(0, 10, 2)
	for {
		lo, hi, ok := run.Next(0)
		if !ok {
			break
		}
		fmt.Printf("[%d, %d) ", lo, hi)
	}
	fmt.Println()
	// Output: [0, 4) [4, 8) [8, 10)
}

func ExampleGuided() {
	run := partition.Guided(2).Start(0, 40, 2)
	for {
		lo, hi, ok := run.Next(0)
		if !ok {
			break
		}
		fmt.Print(hi-lo, " ")
	}
	fmt.Println()
	// Output: 10 7 5 4 3 2 2 2 2 2 1
}

// Worker 0 takes a batch; worker 1 finishes its own block and then steals
// from worker 0's range: the top quarter of what is left each time.
func ExampleStealingWith() {
	run := partition.StealingWith(partition.StealingOptions{Grain: 20}).Start(0, 100, 2)
	lo, hi, _ := run.Next(0)
	fmt.Printf("worker 0: [%d, %d)\n", lo, hi)
	for range 5 {
		lo, hi, _ := run.Next(1)
		fmt.Printf("worker 1: [%d, %d)\n", lo, hi)
	}
	// Output:
	// worker 0: [0, 20)
	// worker 1: [50, 70)
	// worker 1: [70, 90)
	// worker 1: [90, 100)
	// worker 1: [42, 50)
	// worker 1: [36, 42)
}

// Each of 4 workers takes its block, then steals from the others' until
// every index is handed out once.
func ExampleStealing() {
	p := partition.Stealing()
	run := p.Start(0, 1000, 4)
	n := 0
	for w := range 4 {
		for {
			lo, hi, ok := run.Next(w)
			if !ok {
				break
			}
			n += hi - lo
		}
	}
	fmt.Println(p.Name(), n)
	// Output: stealing 1000
}

func ExampleAuto() {
	p := partition.Auto()
	run := p.Start(0, 1000, 4)
	n := 0
	for w := range 4 {
		for {
			lo, hi, ok := run.Next(w)
			if !ok {
				break
			}
			n += hi - lo
		}
	}
	fmt.Println(p.Name(), n)
	// Output: auto 1000
}
