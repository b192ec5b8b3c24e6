package workload_test

import (
	"fmt"
	"sync"

	"github.com/stealkit/stealkit/internal/workload"
)

// A runner checks a parallel run against the sequential one by their checksums.
func ExampleByName() {
	w, ok := workload.ByName("tailheavy")
	if !ok {
		panic("no workload tailheavy")
	}
	inst := w.New(1000) // 1000 items instead of the default w.N

	inst.Chunk(0, inst.Len()) // sequential run
	want := inst.Checksum()

	inst.Reset()
	var wg sync.WaitGroup
	for _, r := range [][2]int{{0, 600}, {600, 950}, {950, 1000}} {
		wg.Go(func() { inst.Chunk(r[0], r[1]) }) // disjoint chunks, concurrently
	}
	wg.Wait()

	fmt.Println(w.Name, inst.Len(), inst.Checksum() == want)
	fmt.Println("cost of items 979 and 980:", inst.Cost(979), inst.Cost(980))
	// Output:
	// tailheavy 1000 true
	// cost of items 979 and 980: 58 32000
}

func ExampleAll() {
	for _, w := range workload.All() {
		fmt.Printf("%-10s n=%-8d calls=%d\n", w.Name, w.N, w.Calls)
	}
	// Output:
	// saxpy      n=16777216 calls=1
	// uniform    n=1000000  calls=1
	// triangular n=20000    calls=1
	// tailheavy  n=100000   calls=1
	// randomskew n=100000   calls=1
	// mandelbrot n=2000     calls=1
	// tiny       n=1000     calls=2000
}

func ExampleSpin() {
	fmt.Println(workload.Spin(0, 1), workload.Spin(2, 0))
	// Output: 1e-06 2
}

// New builds the same data every time, so two instances processed alike agree, here one by
// whole chunks and one item by item, over the Calls back-to-back calls of a tiny repetition.
func ExampleWorkload_New() {
	w, _ := workload.ByName("tiny")
	a, b := w.New(0), w.New(0) // w.N items each
	for range w.Calls {
		a.Chunk(0, a.Len())
		for i := range b.Len() {
			b.Item(i)
		}
	}
	fmt.Println(a.Len(), a.Checksum() == b.Checksum())
	// Output: 1000 true
}
