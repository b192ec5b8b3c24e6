package pfor_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

// TestPoolClose: Close ends every goroutine the pool started, under every
// policy and whatever the pool did; a second Close does nothing; Run after
// Close panics, as do options that do not apply to a pool.
func TestPoolClose(t *testing.T) {
	base := goroutines(t)
	for _, pol := range policies {
		for _, workers := range []int{1, 2, 8, 33} {
			p := pfor.NewPool(pfor.WithPolicy(pol), pfor.WithWorkers(workers))
			var wg sync.WaitGroup
			for range 3 { // guests too, at once
				wg.Add(1)
				go func() {
					defer wg.Done()
					p.Run(func(w *pfor.Worker) { fibBoth(w, 18) })
				}()
			}
			wg.Wait()
			if got := p.Live(); got != workers-1 {
				t.Errorf("%v, %d workers: %d worker goroutines before Close; want %d", pol, workers, got, workers-1)
			}
			p.Close()
			if got := p.Live(); got != 0 {
				t.Errorf("%v, %d workers: %d worker goroutines after Close; want 0", pol, workers, got)
			}
			checkNoGrowth(t, base)
			p.Close()
			if pe, other := recoverPanic(func() { p.Run(func(*pfor.Worker) {}) }); pe != nil || other == nil {
				t.Errorf("%v: Run after Close recovered %v, %v; want a plain panic", pol, pe, other)
			}
		}
	}
	if _, other := recoverPanic(func() { pfor.NewPool(pfor.WithGrain(4)) }); other == nil {
		t.Errorf("NewPool(WithGrain(4)) did not panic")
	}
	if _, other := recoverPanic(func() { pfor.WithPolicy(pfor.Balancing + 1) }); other == nil {
		t.Errorf("WithPolicy(Balancing+1) did not panic")
	}
}

// TestPolicyString names the policies as the benchmarks do.
func TestPolicyString(t *testing.T) {
	var got []string
	for _, p := range append(policies, pfor.Balancing+1) {
		got = append(got, p.String())
	}
	if want := "stealing dealing balancing Policy(3)"; strings.Join(got, " ") != want {
		t.Errorf("policy names %q; want %q", strings.Join(got, " "), want)
	}
}
