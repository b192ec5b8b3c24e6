package pfor_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

var policies = []pfor.Policy{pfor.Stealing, pfor.Dealing, pfor.Balancing}

// policySweep runs f for each policy under GOMAXPROCS 1, 2, 3, 8 and 32,
// with a fresh pool of GOMAXPROCS workers, and closes the pool after f.
func policySweep(t *testing.T, f func(t *testing.T, p *pfor.Pool)) {
	for _, pol := range policies {
		t.Run("policy="+pol.String(), func(t *testing.T) {
			procSweepOf(t, []int{1, 2, 3, 8, 32}, func(t *testing.T) {
				p := pfor.NewPool(pfor.WithPolicy(pol))
				defer p.Close()
				f(t, p)
			})
		})
	}
}

// checkCounts checks the invariants of a quiet pool's counters: every task
// forked ran once, a worker's migrations are among its tasks, nothing
// moves under stealing, and a single worker neither migrates nor moves.
func checkCounts(t *testing.T, p *pfor.Pool, forks int64) {
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
	if s.Policy == pfor.Stealing && tot.Moved != 0 {
		t.Errorf("stealing moved %d tasks; want 0", tot.Moved)
	}
	if len(s.Workers) == 1 && (tot.Migrated != 0 || tot.Moved != 0) {
		t.Errorf("%v with one worker: %d migrated, %d moved; want 0", s.Policy, tot.Migrated, tot.Moved)
	}
}

// TestPolicyRunsTasks: under every policy, fib with Both, a tree of nested
// Joins, a Group spawning recursively and Sort give the sequential results,
// each forked task runs exactly once, and the counters add up.
func TestPolicyRunsTasks(t *testing.T) {
	n, depth, sortN := 22, 12, 1<<17
	if groupRace {
		n, depth, sortN = 17, 9, 1<<15
	}
	policySweep(t, func(t *testing.T, p *pfor.Pool) {
		var forks int64
		var got int
		p.Run(func(w *pfor.Worker) { got = fibBoth(w, n) })
		if want := fibSeq(n); got != want {
			t.Fatalf("%v: fib(%d) = %d; want %d", p.Stats().Policy, n, got, want)
		}
		forks += int64(fibForks(n))

		leaves := make([]atomic.Int32, 1<<depth)
		var tree func(w *pfor.Worker, d, i int)
		tree = func(w *pfor.Worker, d, i int) {
			if d == 0 {
				leaves[i].Add(1)
				return
			}
			w.Join(func(w *pfor.Worker) { tree(w, d-1, 2*i) }, func(w *pfor.Worker) { tree(w, d-1, 2*i+1) })
		}
		p.Run(func(w *pfor.Worker) { tree(w, depth, 0) })
		for i := range leaves {
			if c := leaves[i].Load(); c != 1 {
				t.Fatalf("nested Join: leaf %d ran %d times; want 1", i, c)
			}
		}
		forks += 1<<depth - 1

		var spawned atomic.Int64
		var spawn func(w *pfor.Worker, g *pfor.Group, d int)
		spawn = func(w *pfor.Worker, g *pfor.Group, d int) {
			if d == 0 {
				return
			}
			for range 2 {
				spawned.Add(1)
				w.Go(g, func(w *pfor.Worker) error { spawn(w, g, d-1); return nil })
			}
		}
		var ran atomic.Int64
		p.Run(func(w *pfor.Worker) {
			var g pfor.Group
			spawn(w, &g, 7)
			if err := w.Wait(&g); err != nil {
				t.Errorf("Group: Wait = %v; want nil", err)
			}
			ran.Store(spawned.Load())
		})
		if want := int64(1<<8 - 2); ran.Load() != want { // 2 + 4 + ... + 2^7
			t.Fatalf("Group: %d tasks spawned and waited for; want %d", ran.Load(), want)
		}
		forks += ran.Load()

		x := make([]int64, sortN)
		rng := rand.New(rand.NewPCG(3, 4))
		for i := range x {
			x[i] = rng.Int64N(1000)
		}
		want := slices.Clone(x)
		slices.Sort(want)
		before := p.Stats().Total().Spawned
		pfor.SortIn(p, x)
		if !slices.Equal(x, want) {
			t.Fatalf("%v: Sort differs from slices.Sort", p.Stats().Policy)
		}
		forks += p.Stats().Total().Spawned - before // the merge tree's shape is Sort's business
		if sortN >= 1<<16 && p.Stats().Total().Spawned == before {
			t.Errorf("Sort of %d forked nothing; want a parallel sort", sortN)
		}
		checkCounts(t, p, forks)
	})
}

func fibForks(n int) int {
	if n < fibCut {
		return 0
	}
	return 1 + fibForks(n-1) + fibForks(n-2)
}

// TestPolicyPanics: a panic in a forked half, in the inline half, or in a
// Group task reaches the caller of Pool.Run as a *PanicError with the
// panic site on its stack, under every policy; the pool works on.
func TestPolicyPanics(t *testing.T) {
	policySweep(t, func(t *testing.T, p *pfor.Pool) {
		for _, tc := range []struct {
			name string
			run  func(w *pfor.Worker)
		}{
			{"forked half", func(w *pfor.Worker) {
				w.Join(func(*pfor.Worker) { blowUp("a") }, func(*pfor.Worker) { time.Sleep(time.Millisecond) })
			}},
			{"inline half", func(w *pfor.Worker) {
				w.Join(func(*pfor.Worker) {}, func(*pfor.Worker) { blowUp("b") })
			}},
			{"deep in fib", func(w *pfor.Worker) {
				var f func(w *pfor.Worker, n int) int
				f = func(w *pfor.Worker, n int) int {
					if n == 3 {
						blowUp("fib")
					}
					if n < 2 {
						return n
					}
					x, y := pfor.Both(w, f, n-1, n-2)
					return x + y
				}
				f(w, 14)
			}},
			{"group task", func(w *pfor.Worker) {
				var g pfor.Group
				for i := range 64 {
					w.Go(&g, func(*pfor.Worker) error {
						if i == 40 {
							blowUp("task")
						}
						return nil
					})
				}
				w.Wait(&g)
			}},
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
		p.Run(func(w *pfor.Worker) { got = fibBoth(w, 15) })
		if got != fibSeq(15) {
			t.Errorf("after the panics: fib(15) = %d; want %d", got, fibSeq(15))
		}
		s := p.Stats().Total()
		if s.Spawned != s.Ran {
			t.Errorf("after the panics: %d spawned, %d ran; want equal", s.Spawned, s.Ran)
		}
	})
}

// TestPoolStatsCount: with one worker every policy keeps every task where
// it was forked; with several, dealing hands every fork to another worker
// and stealing moves none; queues are empty once a Run returns; idle time
// grows while the pool waits for work.
func TestPoolStatsCount(t *testing.T) {
	const n = 20
	forks := int64(fibForks(n))
	for _, pol := range policies {
		for _, workers := range []int{1, 4} {
			p := pfor.NewPool(pfor.WithPolicy(pol), pfor.WithWorkers(workers))
			p.Run(func(w *pfor.Worker) { fibBoth(w, n) })
			checkCounts(t, p, forks)
			s := p.Stats().Total()
			if pol == pfor.Dealing && workers > 1 && s.Moved < forks {
				t.Errorf("dealing, %d workers: %d moved; want every one of %d forks", workers, s.Moved, forks)
			}
			if pol != pfor.Stealing {
				for i, l := range p.QueueLens() {
					if l != 0 {
						t.Errorf("%v: queue %d holds %d tasks after Run; want 0", pol, i, l)
					}
				}
			}
			p.Close()
		}
	}
	p := pfor.NewPool(pfor.WithWorkers(3))
	defer p.Close()
	idle := func(i int) time.Duration { return p.Stats().Workers[i].Idle }
	a := idle(0)
	time.Sleep(20 * time.Millisecond)
	if b := idle(0); b-a < 10*time.Millisecond {
		t.Errorf("an idle worker's idle time grew by %v in 20ms; want at least 10ms", b-a)
	}
	p.Run(func(w *pfor.Worker) {
		w.Join(func(*pfor.Worker) { time.Sleep(30 * time.Millisecond) }, func(*pfor.Worker) {})
	})
	if s := p.Stats(); s.Total().Ran != 1 {
		t.Errorf("one fork: %d ran; want 1", s.Total().Ran)
	}
}

// TestBalancingNoDeadlock: 31 pool workers and 8 goroutines in Run
// evening out their queues with one another all the time, under GOMAXPROCS
// 32, finish; the queues' lock ranks are in the documented order.
func TestBalancingNoDeadlock(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(32))
	p := pfor.NewPool(pfor.WithPolicy(pfor.Balancing), pfor.WithWorkers(32))
	defer p.Close()
	n, rounds := 20, 20
	if groupRace {
		n, rounds = 16, 5
	}
	// Moves are rare, since a Join takes back its fork before an idle worker
	// evens out with its queue: 3 to 135 in 20 runs on 2 cores. Rounds go on
	// until some task has moved and migrated, so that the locks were taken.
	moved := func() bool { s := p.Stats().Total(); return s.Moved > 0 && s.Migrated > 0 }
	deadline := time.Now().Add(time.Minute)
	within(t, 2*time.Minute, "balancing", func() {
		for first := true; first || !moved() && time.Now().Before(deadline); first = false {
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for r := range rounds {
						var got int
						p.Run(func(w *pfor.Worker) { got = fibBoth(w, n-(g+r)%3) })
						if want := fibSeq(n - (g+r)%3); got != want {
							t.Errorf("fib(%d) = %d; want %d", n-(g+r)%3, got, want)
						}
					}
				}()
			}
			wg.Wait()
		}
	})
	if !moved() {
		t.Errorf("balancing with 31 workers and 8 callers for a minute: %+v; want tasks moved and migrated", p.Stats().Total())
	}
	// The lock order of Policy's doc: pool workers by index, then guests.
	ws, ranks := p.Stats().Workers, p.QueueRanks()
	for i, w := range ws {
		if ranks[i] != i || w.Guest != (i >= 31) {
			t.Fatalf("worker %d (guest %v) has lock rank %d; want %d, with the 31 pool workers first", i, w.Guest, ranks[i], i)
		}
	}
}
