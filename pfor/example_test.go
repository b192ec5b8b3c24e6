package pfor_test

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

func ExampleRange() {
	squares := make([]int, 10)
	pfor.Range(0, len(squares), func(i int) { squares[i] = i * i })
	fmt.Println(squares)
	// Output: [0 1 4 9 16 25 36 49 64 81]
}

// Chunks hands the body whole ranges: its own loop pays nothing per index.
func ExampleChunks() {
	x := make([]float64, 1_000_000)
	pfor.Chunks(0, len(x), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x[i] = math.Sqrt(float64(i))
		}
	})
	fmt.Println(x[999_999] > 999)
	// Output: true
}

func ExampleRangeErr() {
	err := pfor.RangeErr(context.Background(), 0, 1000, func(i int) error {
		if i == 500 {
			return errors.New("item 500 is bad")
		}
		return nil
	})
	fmt.Println(err)
	// Output: item 500 is bad
}

func ExampleChunksErr() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := pfor.ChunksErr(ctx, 0, 10, func(lo, hi int) error { return nil })
	fmt.Println(err)
	// Output: context canceled
}

// Per-worker partial histograms, merged without locks at the end.
func ExampleChunksLocal() {
	var hist [4]int
	pfor.ChunksLocal(0, 1000,
		func() *[4]int { return new([4]int) },
		func(h *[4]int, lo, hi int) {
			for i := lo; i < hi; i++ {
				h[i%4]++
			}
		},
		func(h *[4]int) {
			for b := range hist {
				hist[b] += h[b]
			}
		})
	fmt.Println(hist)
	// Output: [250 250 250 250]
}

func ExampleChunksLocalErr() {
	total := 0
	err := pfor.ChunksLocalErr(context.Background(), 0, 100,
		func() *int { return new(int) },
		func(sum *int, lo, hi int) error {
			for i := lo; i < hi; i++ {
				*sum += i
			}
			return nil
		},
		func(sum *int) { total += *sum })
	fmt.Println(total, err)
	// Output: 4950 <nil>
}

func ExampleMap() {
	words := []string{"work", "stealing", "range"}
	lengths := pfor.Map(words, func(w string) int { return len(w) })
	fmt.Println(lengths)
	// Output: [4 8 5]
}

func ExampleMapErr() {
	_, err := pfor.MapErr(context.Background(), []int{1, 0, 2}, func(x int) (int, error) {
		if x == 0 {
			return 0, errors.New("division by zero")
		}
		return 10 / x, nil
	})
	fmt.Println(err)
	// Output: division by zero
}

// A deterministic parallel float sum: the same bits on every run, whatever
// the number of workers.
func ExampleReduce() {
	xs := make([]float64, 100_000)
	for i := range xs {
		xs[i] = 0.1
	}
	add := func(a, b float64) float64 { return a + b }
	a := pfor.Reduce(xs, 0, add, add, pfor.WithWorkers(2))
	b := pfor.Reduce(xs, 0, add, add, pfor.WithWorkers(7))
	fmt.Println(a == b, math.Abs(a-10_000) < 1e-6)
	// Output: true true
}

func ExampleDo() {
	var a, b int
	pfor.Do(func() { a = 1 }, func() { b = 2 })
	fmt.Println(a + b)
	// Output: 3
}

func ExamplePanicError() {
	defer func() {
		pe := recover().(*pfor.PanicError)
		fmt.Println("recovered:", pe.Value)
		fmt.Println(pe)
	}()
	pfor.Range(0, 100, func(i int) {
		if i == 42 {
			panic("bad input at 42")
		}
	})
	// Output:
	// recovered: bad input at 42
	// pfor: panic in Range: bad input at 42
}

func ExampleWithPartitioner() {
	var s pfor.Stats
	pfor.Range(0, 1000, func(int) {}, pfor.WithPartitioner(partition.Static()), pfor.WithWorkers(2), pfor.WithStats(&s))
	fmt.Println(s.Partitioner, s.Workers[0].Items+s.Workers[1].Items)
	// Output: static 1000
}

func ExampleWithStats() {
	var s pfor.Stats
	pfor.Range(0, 10_000, func(int) {}, pfor.WithWorkers(2), pfor.WithStats(&s))
	items := int64(0)
	for _, w := range s.Workers {
		items += w.Items
	}
	fmt.Println(len(s.Workers), "workers,", items, "items")
	// Output: 2 workers, 10000 items
}

func ExampleWithGrain() {
	calls := 0
	pfor.Chunks(0, 100, func(lo, hi int) { calls++ }, pfor.WithGrain(100)) // at most the grain: inline, one chunk
	fmt.Println(calls)
	// Output: 1
}

func ExampleWithWorkers() {
	var s pfor.Stats
	pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(3), pfor.WithStats(&s))
	fmt.Println(len(s.Workers))
	// Output: 3
}

func ExampleWithLabel() {
	// In a CPU profile, helpers running this loop carry the label loop=normalize.
	v := make([]float64, 1000)
	pfor.Range(0, len(v), func(i int) { v[i] = 1 }, pfor.WithLabel("normalize"))
	fmt.Println(v[999])
	// Output: 1
}

func ExampleStats_Imbalance() {
	s := pfor.Stats{Workers: []pfor.WorkerStats{{Busy: 3}, {Busy: 1}}}
	fmt.Println(s.Imbalance())
	// Output: 1.5
}
