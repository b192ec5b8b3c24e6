package distrib_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/distrib"
	"github.com/stealkit/stealkit/pfor"
)

func fibSeq(n int) int {
	if n < 2 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

const fibCut = 8

func fibBoth(w *distrib.Worker, n int) int {
	if n < fibCut {
		return fibSeq(n)
	}
	x, y := distrib.Both(w, fibBoth, n-1, n-2)
	return x + y
}

func fibForks(n int) int {
	if n < fibCut {
		return 0
	}
	return 1 + fibForks(n-1) + fibForks(n-2)
}

// sweep runs f for each policy under GOMAXPROCS 1, 2, 3, 8 and 32, with a
// fresh pool of GOMAXPROCS workers, and closes the pool after f.
func sweep(t *testing.T, f func(t *testing.T, p *distrib.Pool)) {
	for _, pol := range distrib.Policies {
		for _, procs := range []int{1, 2, 3, 8, 32} {
			t.Run(fmt.Sprintf("%v/procs=%d", pol, procs), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				p := distrib.NewPool(procs, pol)
				defer p.Close()
				f(t, p)
			})
		}
	}
}

// checkCounts checks the invariants of a quiet pool's counters: every task
// forked ran once, a worker's migrations are among its tasks, nothing
// moves under stealing, and a single worker neither migrates nor moves.
func checkCounts(t *testing.T, p *distrib.Pool, forks int64) {
	t.Helper()
	s := p.Stats()
	tot := s.Total()
	if tot.Spawned != forks || tot.Ran != forks {
		t.Errorf("%v: %d spawned, %d ran; want %d each", s.Policy, tot.Spawned, tot.Ran, forks)
	}
	for i, w := range s.Workers {
		if w.Migrated > w.Ran || w.Migrated < 0 || w.Moved < 0 || w.Idle < 0 {
			t.Errorf("%v: worker %d: %+v; want 0 <= Migrated <= Ran, Moved and Idle >= 0", s.Policy, i, w)
		}
	}
	if s.Policy == distrib.Stealing && tot.Moved != 0 {
		t.Errorf("stealing moved %d tasks; want 0", tot.Moved)
	}
	if len(s.Workers) == 1 && (tot.Migrated != 0 || tot.Moved != 0) {
		t.Errorf("%v with one worker: %d migrated, %d moved; want 0", s.Policy, tot.Migrated, tot.Moved)
	}
}

// TestPolicyRunsTasks: under every policy, fib and a tree of nested Boths
// give the sequential results, each forked task runs exactly once, and the
// counters add up.
func TestPolicyRunsTasks(t *testing.T) {
	const n, depth = 20, 10
	sweep(t, func(t *testing.T, p *distrib.Pool) {
		var got int
		p.Run(func(w *distrib.Worker) { got = fibBoth(w, n) })
		if want := fibSeq(n); got != want {
			t.Fatalf("fib(%d) = %d; want %d", n, got, want)
		}
		leaves := make([]atomic.Int32, 1<<depth)
		var tree func(w *distrib.Worker, at [2]int) struct{}
		tree = func(w *distrib.Worker, at [2]int) struct{} {
			d, i := at[0], at[1]
			if d == 0 {
				leaves[i].Add(1)
				return struct{}{}
			}
			distrib.Both(w, tree, [2]int{d - 1, 2 * i}, [2]int{d - 1, 2*i + 1})
			return struct{}{}
		}
		p.Run(func(w *distrib.Worker) { tree(w, [2]int{depth, 0}) })
		for i := range leaves {
			if c := leaves[i].Load(); c != 1 {
				t.Fatalf("leaf %d ran %d times; want 1", i, c)
			}
		}
		checkCounts(t, p, int64(fibForks(n))+1<<depth-1)
	})
}

func blowUp(v any) { panic(v) }

// recoverPanic calls f and returns what it panicked with.
func recoverPanic(f func()) (pe *pfor.PanicError, other any) {
	defer func() {
		r := recover()
		pe, _ = r.(*pfor.PanicError)
		if pe == nil {
			other = r
		}
	}()
	f()
	return nil, nil
}

// TestPolicyPanics: a panic in a forked half, in the inline half, or deep
// in a recursion reaches the caller of Pool.Run as a *pfor.PanicError with
// the panic site on its stack, under every policy; the pool works on.
func TestPolicyPanics(t *testing.T) {
	sleep := func(w *distrib.Worker, x int) int {
		if x == 0 {
			blowUp("forked")
		}
		time.Sleep(time.Millisecond)
		return x
	}
	var deep func(w *distrib.Worker, n int) int
	deep = func(w *distrib.Worker, n int) int {
		if n == 3 {
			blowUp("fib")
		}
		if n < 2 {
			return n
		}
		x, y := distrib.Both(w, deep, n-1, n-2)
		return x + y
	}
	sweep(t, func(t *testing.T, p *distrib.Pool) {
		for _, tc := range []struct {
			name string
			run  func(w *distrib.Worker)
		}{
			{"forked half", func(w *distrib.Worker) { distrib.Both(w, sleep, 0, 1) }},
			{"inline half", func(w *distrib.Worker) { distrib.Both(w, sleep, 1, 0) }},
			{"deep in fib", func(w *distrib.Worker) { deep(w, 14) }},
		} {
			pe, other := recoverPanic(func() { p.Run(tc.run) })
			if pe == nil {
				t.Fatalf("%s: Pool.Run recovered %v (%T); want a *pfor.PanicError", tc.name, other, other)
			}
			if !strings.Contains(string(pe.Stack), "blowUp") {
				t.Errorf("%s: PanicError{Value: %v} without blowUp on its stack:\n%s", tc.name, pe.Value, pe.Stack)
			}
		}
		var got int
		p.Run(func(w *distrib.Worker) { got = fibBoth(w, 15) })
		if got != fibSeq(15) {
			t.Errorf("after the panics: fib(15) = %d; want %d", got, fibSeq(15))
		}
		if s := p.Stats().Total(); s.Spawned != s.Ran {
			t.Errorf("after the panics: %d spawned, %d ran; want equal", s.Spawned, s.Ran)
		}
	})
}

// TestStatsCount: with one worker every policy keeps every task where it
// was forked; with several, dealing hands every fork to another worker and
// stealing moves none; idle time grows while the pool waits for work.
func TestStatsCount(t *testing.T) {
	const n = 20
	forks := int64(fibForks(n))
	for _, pol := range distrib.Policies {
		for _, workers := range []int{1, 4} {
			p := distrib.NewPool(workers, pol)
			p.Run(func(w *distrib.Worker) { fibBoth(w, n) })
			checkCounts(t, p, forks)
			if s := p.Stats().Total(); pol == distrib.Dealing && workers > 1 && s.Moved < forks {
				t.Errorf("dealing, %d workers: %d moved; want every one of %d forks", workers, s.Moved, forks)
			}
			p.Close()
		}
	}
	p := distrib.NewPool(3, distrib.Stealing)
	defer p.Close()
	idle := func(i int) time.Duration { return p.Stats().Workers[i].Idle }
	// Worker 0's goroutine may not have run yet: wait for its first idle period, which
	// lasts as long as the pool has no work. Its idle time then grows by at least the time
	// between the two reads, however long the sleep takes.
	for idle(0) == 0 {
		runtime.Gosched()
	}
	a := idle(0)
	t0 := time.Now()
	time.Sleep(20 * time.Millisecond)
	between := time.Since(t0)
	if b := idle(0); b-a < between {
		t.Errorf("an idle worker's idle time grew by %v in %v; want at least that", b-a, between)
	}
}

// TestBalancingNoDeadlock: 31 pool workers and 8 goroutines in Run
// evening out their queues with one another all the time, under GOMAXPROCS
// 32, finish, and tasks moved and migrated.
func TestBalancingNoDeadlock(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(32))
	p := distrib.NewPool(32, distrib.Balancing)
	defer p.Close()
	const n, rounds = 16, 10
	// Moves are rare, since a Both takes back its fork before an idle
	// worker evens out with its queue. Rounds go on until some task has
	// moved and migrated, so that the locks were taken.
	moved := func() bool { s := p.Stats().Total(); return s.Moved > 0 && s.Migrated > 0 }
	deadline := time.Now().Add(time.Minute)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for first := true; first || !moved() && time.Now().Before(deadline); first = false {
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					for r := range rounds {
						var got int
						p.Run(func(w *distrib.Worker) { got = fibBoth(w, n-(g+r)%3) })
						if want := fibSeq(n - (g+r)%3); got != want {
							t.Errorf("fib(%d) = %d; want %d", n-(g+r)%3, got, want)
						}
					}
				})
			}
			wg.Wait()
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("balancing: no progress in 2 minutes (deadlock?)")
	}
	if !moved() {
		t.Errorf("balancing with 31 workers and 8 callers for a minute: %+v; want tasks moved and migrated", p.Stats().Total())
	}
	ws := p.Stats().Workers
	for i, w := range ws {
		if w.Guest != (i >= 31) {
			t.Fatalf("worker %d: Guest %v; want the 31 pool workers first", i, w.Guest)
		}
	}
}

// goroutinesDownTo waits up to 10 s for the number of goroutines to fall to
// want, and returns the last count: on a busy machine exiting goroutines may
// wait long for a core, while a leaked one stays. (Goroutines of earlier tests
// may still be ending when a test counts its base: counts are compared
// with <=.)
func goroutinesDownTo(want int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > want && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(time.Millisecond)
	}
	return n
}

// TestClose: Close ends every goroutine the pool started, under every
// policy and whatever the pool did; a second Close does nothing; Run after
// Close panics, as do bad arguments to NewPool.
func TestClose(t *testing.T) {
	base := runtime.NumGoroutine()
	for _, pol := range distrib.Policies {
		for _, workers := range []int{1, 2, 8, 33} {
			p := distrib.NewPool(workers, pol)
			var wg sync.WaitGroup
			for range 3 { // guests too, at once
				wg.Go(func() { p.Run(func(w *distrib.Worker) { fibBoth(w, 18) }) })
			}
			wg.Wait()
			p.Close()
			if got := goroutinesDownTo(base); got > base {
				t.Errorf("%v, %d workers: %d goroutines after Close; want at most %d", pol, workers, got, base)
			}
			p.Close()
			if pe, other := recoverPanic(func() { p.Run(func(*distrib.Worker) {}) }); pe != nil || other == nil {
				t.Errorf("%v: Run after Close recovered %v, %v; want a plain panic", pol, pe, other)
			}
		}
	}
	for _, bad := range []func(){
		func() { distrib.NewPool(0, distrib.Stealing) },
		func() { distrib.NewPool(2, distrib.Balancing+1) },
	} {
		if _, other := recoverPanic(bad); other == nil {
			t.Errorf("NewPool with a bad argument did not panic")
		}
	}
}

// TestCloseDuringRun: a Close that panics because a Run is under way
// leaves the pool open, and a Close after the Run has returned stops the
// workers. (Close once marked the pool closed before it panicked, and every
// later Close returned at once, leaving the workers running for good.)
func TestCloseDuringRun(t *testing.T) {
	base := runtime.NumGoroutine()
	p := distrib.NewPool(3, distrib.Stealing)
	in, out, ran := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ran)
		p.Run(func(*distrib.Worker) { close(in); <-out })
	}()
	<-in
	if pe, other := recoverPanic(p.Close); pe != nil || other == nil || !strings.Contains(other.(string), "Run is under way") {
		t.Errorf("Close during Run recovered %v, %v; want a plain panic saying Run is under way", pe, other)
	}
	close(out)
	<-ran
	var got int
	pe, other := recoverPanic(func() { p.Run(func(w *distrib.Worker) { got = fibBoth(w, 15) }) })
	if pe != nil || other != nil || got != fibSeq(15) {
		t.Errorf("after the refused Close: fib(15) = %d, panics %v, %v; want %d and no panic", got, pe, other, fibSeq(15))
	}
	p.Close()
	if got := goroutinesDownTo(base); got > base {
		t.Errorf("Close after a refused Close left %d goroutines; want at most %d", got, base)
	}
}

// TestPolicyString names the policies as the benchmarks do.
func TestPolicyString(t *testing.T) {
	var got []string
	for _, p := range append(distrib.Policies, distrib.Balancing+1) {
		got = append(got, p.String())
	}
	if want := "stealing dealing balancing Policy(3)"; strings.Join(got, " ") != want {
		t.Errorf("policy names %q; want %q", strings.Join(got, " "), want)
	}
}
