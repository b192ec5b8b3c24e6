package distrib_test

import (
	"fmt"

	"github.com/stealkit/stealkit/benchmarks/internal/distrib"
)

// fib forks every call above n = 10 with Both.
func fib(w *distrib.Worker, n int) int {
	if n < 10 {
		return fibSeq(n)
	}
	x, y := distrib.Both(w, fib, n-1, n-2)
	return x + y
}

// A pool of 4 workers under work balancing: fib on it, and the counters of
// what its workers did.
func ExampleNewPool() {
	p := distrib.NewPool(4, distrib.Balancing)
	defer p.Close()
	var r int
	p.Run(func(w *distrib.Worker) { r = fib(w, 25) })
	s := p.Stats()
	t := s.Total()
	fmt.Println(r, s.Policy, len(s.Workers), "workers")
	fmt.Println("every forked task ran once:", t.Spawned == t.Ran)
	// Output:
	// 75025 balancing 4 workers
	// every forked task ran once: true
}
