package pfor_test

import (
	"fmt"

	"github.com/stealkit/stealkit/pfor"
)

// A pool of its own, with the work balancing policy: fib on it, and the
// counters of what its workers did.
func ExampleNewPool() {
	p := pfor.NewPool(pfor.WithPolicy(pfor.Balancing), pfor.WithWorkers(4))
	defer p.Close()
	var r int
	p.Run(func(w *pfor.Worker) { r = fib(w, 25) })
	s := p.Stats()
	t := s.Total()
	fmt.Println(r, s.Policy, len(s.Workers), "workers")
	fmt.Println("every forked task ran once:", t.Spawned == t.Ran)
	// Output:
	// 75025 balancing 4 workers
	// every forked task ran once: true
}
