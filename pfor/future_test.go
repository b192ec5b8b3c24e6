package pfor_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// quad is a rows x cols block of a row-major int64 matrix whose rows are
// stride apart, starting at d[0].
type quad struct {
	d                  []int64
	stride, rows, cols int
}

func newQuad(n int, rng *rand.Rand) quad {
	q := quad{make([]int64, n*n), n, n, n}
	if rng != nil {
		for i := range q.d {
			q.d[i] = rng.Int64N(1 << 40)
		}
	}
	return q
}

// part returns the block of q starting at row r, column c, of the given
// size.
func (q quad) part(r, c, rows, cols int) quad {
	if rows == 0 || cols == 0 {
		return quad{nil, q.stride, rows, cols}
	}
	return quad{q.d[r*q.stride+c:], q.stride, rows, cols}
}

func addSeq(c, a, b quad) {
	for i := range c.rows {
		cr, ar, br := c.d[i*c.stride:][:c.cols], a.d[i*a.stride:][:c.cols], b.d[i*b.stride:][:c.cols]
		for j := range cr {
			cr[j] = ar[j] + br[j]
		}
	}
}

// addFutures computes c = a + b by splitting into four quadrants, each a
// future, down to blocks of at most base rows and columns.
func addFutures(w *pfor.Worker, c, a, b quad, base int) {
	if c.rows <= base && c.cols <= base {
		addSeq(c, a, b)
		return
	}
	hr, hc := c.rows/2, c.cols/2
	var fs [4]*pfor.Future[struct{}]
	for k, rc := range [4][4]int{{0, 0, hr, hc}, {0, hc, hr, c.cols - hc}, {hr, 0, c.rows - hr, hc}, {hr, hc, c.rows - hr, c.cols - hc}} {
		fs[k] = pfor.Spawn(w, func(w *pfor.Worker) struct{} {
			addFutures(w, c.part(rc[0], rc[1], rc[2], rc[3]), a.part(rc[0], rc[1], rc[2], rc[3]), b.part(rc[0], rc[1], rc[2], rc[3]), base)
			return struct{}{}
		})
	}
	for _, f := range fs {
		f.Get(w)
	}
}

// TestFutureMatrixAdd: recursive matrix addition by quadrants, each a
// future, gives the sums of the sequential loop, for sizes that split
// unevenly and base cases from single elements up, with the pool
// oversubscribed too (GOMAXPROCS 32 on this machine's 2 cores).
func TestFutureMatrixAdd(t *testing.T) {
	procSweepOf(t, []int{1, 2, 3, 8, 32}, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for _, n := range []int{0, 1, 7, 64, 100, 255} {
			a, b := newQuad(n, rng), newQuad(n, rng)
			want := newQuad(n, nil)
			addSeq(want, a, b)
			for _, base := range []int{1, 4, 16, 64} {
				got := newQuad(n, nil)
				pfor.Run(func(w *pfor.Worker) { addFutures(w, got, a, b, base) })
				for i := range want.d {
					if got.d[i] != want.d[i] {
						t.Fatalf("n=%d base=%d: c[%d][%d] = %d; want %d", n, base, i/n, i%n, got.d[i], want.d[i])
					}
				}
			}
		}
	})
}

// settledGoroutines returns the goroutines besides the pool's workers once
// their number has stopped changing: it falls while workers of an earlier
// test retire, and rises while workers counted live have not started yet.
func settledGoroutines(t *testing.T) int {
	t.Helper()
	n := goroutines(t)
	for range 100 {
		time.Sleep(time.Millisecond)
		m := goroutines(t)
		if m == n {
			return m
		}
		n = m
	}
	return n
}

// goroutinesDownTo waits up to about 2 s, polling every millisecond, for
// the goroutines besides the pool's workers to fall to want, and returns
// their number: a goroutine that is exiting gets time to, on a loaded
// machine too, while a leaked one stays.
func goroutinesDownTo(t *testing.T, want int) int {
	t.Helper()
	n := goroutines(t)
	for i := 0; i < 2000 && n > want; i++ {
		time.Sleep(time.Millisecond)
		n = goroutines(t)
	}
	return n
}

// TestFutureNested10000: 10,000 nested futures, each task spawning the
// next and getting it, finish on one processor and on many without
// deadlock, and without a goroutine beyond the pools' workers at any time:
// every Get helps on its own goroutine instead of blocking it.
func TestFutureNested10000(t *testing.T) {
	const depth = 10_000
	procSweepOf(t, []int{1, 2, 8, 32}, func(t *testing.T) {
		pfor.Run(func(*pfor.Worker) {}) // start the pool
		base := settledGoroutines(t)
		var deepest int
		var chain func(w *pfor.Worker, d int) int
		chain = func(w *pfor.Worker, d int) int {
			if d == 0 {
				deepest = goroutines(t)
				return 0
			}
			f := pfor.Spawn(w, func(w *pfor.Worker) int { return chain(w, d-1) })
			return f.Get(w) + 1
		}
		var got int
		within(t, 60*time.Second, "10,000 nested futures", func() {
			pfor.Run(func(w *pfor.Worker) { got = chain(w, depth) })
		})
		if got != depth {
			t.Errorf("chain of %d futures = %d; want %d", depth, got, depth)
		}
		if deepest > base+1 { // +1: within's goroutine
			t.Errorf("%d goroutines besides the pools' workers at the bottom of the chain; want at most %d (%d before, plus the test's)", deepest, base+1, base)
		}
		if now := goroutinesDownTo(t, base); now > base {
			t.Errorf("%d goroutines besides the pools' workers after the chain; want at most %d as before", now, base)
		}
	})
}

// TestFutureFanOut: a task spawns 10,000 futures, each of which spawns and
// gets one more, then gets them oldest first (the last its own deque would
// run), and sees every result.
func TestFutureFanOut(t *testing.T) {
	const n = 10_000
	procSweep(t, func(t *testing.T) {
		var sum int
		within(t, 60*time.Second, "10,000 futures got oldest first", func() {
			pfor.Run(func(w *pfor.Worker) {
				fs := make([]*pfor.Future[int], n)
				for i := range fs {
					fs[i] = pfor.Spawn(w, func(w *pfor.Worker) int {
						return pfor.Spawn(w, func(*pfor.Worker) int { return i }).Get(w) + 1
					})
				}
				for _, f := range fs {
					sum += f.Get(w)
				}
			})
		})
		if want := n * (n + 1) / 2; sum != want {
			t.Errorf("sum over %d futures = %d; want %d", n, sum, want)
		}
	})
}

//go:noinline
func futurePanicker(*pfor.Worker) int { panic("future boom") }

// TestFuturePanic: a panic in a future's task, or in one nested below it,
// reaches every Get as the same *PanicError, with the value and the stack
// of the panic site, from inside the pool and from outside.
func TestFuturePanic(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		check := func(what string, pe *pfor.PanicError, other any) {
			t.Helper()
			if pe == nil {
				t.Fatalf("%s: recovered %v; want a *pfor.PanicError", what, other)
			}
			if pe.Value != "future boom" || !strings.Contains(string(pe.Stack), "futurePanicker") {
				t.Fatalf("%s: PanicError{%v, stack:\n%s}; want value \"future boom\" and futurePanicker on the stack", what, pe.Value, pe.Stack)
			}
		}
		var outer *pfor.Future[int]
		pe, other := recoverPanic(func() {
			pfor.Run(func(w *pfor.Worker) {
				outer = pfor.Spawn(w, func(w *pfor.Worker) int {
					return pfor.Spawn(w, futurePanicker).Get(w) + 1
				})
				outer.Get(w)
			})
		})
		check("Get in the pool of a future whose child panicked", pe, other)
		first := pe
		pe, other = recoverPanic(func() { outer.Get(nil) })
		check("second Get, outside the pool", pe, other)
		if pe != first {
			t.Errorf("second Get re-raised %p; want the first Get's %p", pe, first)
		}
		pe, other = recoverPanic(func() { pfor.Spawn(nil, futurePanicker).Get(nil) })
		check("Get outside the pool of a future spawned outside", pe, other)
		pe, other = recoverPanic(func() {
			pfor.SpawnErr(nil, func(w *pfor.Worker) (int, error) { return futurePanicker(w), nil }).Get(nil)
		})
		check("FutureErr.Get", pe, other)
	})
}

// TestFutureGetTwice: Get returns the same value however often and from
// wherever it is called, several goroutines and tasks at once included.
func TestFutureGetTwice(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		f := pfor.Spawn(nil, func(w *pfor.Worker) []int {
			time.Sleep(time.Millisecond) // let the getters below start first
			return []int{fibBoth(w, 20)}
		})
		const getters = 8
		got := make([][]int, 2*getters)
		var wg sync.WaitGroup
		var g pfor.Group
		for i := range getters {
			wg.Go(func() { got[i] = f.Get(nil) })
			g.Go(func(w *pfor.Worker) error { got[getters+i] = f.Get(w); return nil })
		}
		wg.Wait()
		g.Wait()
		first := f.Get(nil)
		if first[0] != 6765 {
			t.Fatalf("Get = %v; want [6765]", first)
		}
		for i, v := range got {
			if &v[0] != &first[0] {
				t.Errorf("getter %d got slice %p; want the one result %p", i, &v[0], &first[0])
			}
		}
	})
}

// TestFutureOutsidePool: futures spawned outside the pool, or inside it and
// got after the spawning Run returned, are got from outside; with
// GOMAXPROCS 1 there is no pool worker, so only a Get that takes part in
// the work finishes.
func TestFutureOutsidePool(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		within(t, 30*time.Second, "Get outside the pool", func() {
			if got := pfor.Spawn(nil, func(w *pfor.Worker) int { return fibBoth(w, 20) }).Get(nil); got != 6765 {
				t.Errorf("Spawn(nil, fib 20).Get(nil) = %d; want 6765", got)
			}
			var fs []*pfor.Future[int]
			pfor.Run(func(w *pfor.Worker) {
				for i := range 100 {
					fs = append(fs, pfor.Spawn(w, func(*pfor.Worker) int { return i * i }))
				}
			})
			for i, f := range fs {
				if got := f.Get(nil); got != i*i {
					t.Errorf("future %d spawned in Run, Get(nil) after = %d; want %d", i, got, i*i)
				}
			}
		})
	})
}

// TestFutureErr: SpawnErr's error, and the result returned with it, reach
// Get.
func TestFutureErr(t *testing.T) {
	errOdd := errors.New("odd")
	half := func(n int) func(*pfor.Worker) (int, error) {
		return func(*pfor.Worker) (int, error) {
			if n%2 != 0 {
				return -1, fmt.Errorf("half(%d): %w", n, errOdd)
			}
			return n / 2, nil
		}
	}
	var got [2]int
	var errs [2]error
	pfor.Run(func(w *pfor.Worker) {
		ok, bad := pfor.SpawnErr(w, half(10)), pfor.SpawnErr(w, half(7))
		got[0], errs[0] = ok.Get(w)
		got[1], errs[1] = bad.Get(w)
	})
	if got[0] != 5 || errs[0] != nil {
		t.Errorf("Get of half(10) = %d, %v; want 5, nil", got[0], errs[0])
	}
	if got[1] != -1 || !errors.Is(errs[1], errOdd) {
		t.Errorf("Get of half(7) = %d, %v; want -1 and an error wrapping %v", got[1], errs[1], errOdd)
	}
}

func TestFutureBadInput(t *testing.T) {
	var self *pfor.Future[int]
	ready := make(chan struct{})
	for _, tc := range []struct {
		call, want string
		f          func()
	}{
		{"Spawn nil f", "pfor: Spawn: f is nil", func() { pfor.Spawn[int](nil, nil) }},
		{"SpawnErr nil f", "pfor: SpawnErr: f is nil", func() { pfor.SpawnErr[int](nil, nil) }},
		{"Get from the future's own task", "pfor: Future.Get: called from the future's own task", func() {
			self = pfor.Spawn(nil, func(w *pfor.Worker) int { <-ready; return self.Get(w) })
			close(ready)
			self.Get(nil)
		}},
	} {
		var msg string
		within(t, 10*time.Second, tc.call, func() {
			pe, other := recoverPanic(tc.f)
			if pe != nil {
				other = pe.Value
			}
			msg, _ = other.(string)
		})
		if !strings.HasPrefix(msg, tc.want) {
			t.Errorf("%s: panic %q; want one starting %q", tc.call, msg, tc.want)
		}
	}
}

// BenchmarkFuture: spawning a future that returns at once and getting it,
// from a task (the future runs inline unless stolen) and from outside the
// pool (through the injection queue, and a guest worker in Get); and fib
// forking with futures, against forking with Both (BenchmarkFib/impl=both).
func BenchmarkFuture(b *testing.B) {
	b.Run("spawn=worker", func(b *testing.B) {
		b.ReportAllocs()
		pfor.Run(func(w *pfor.Worker) {
			for b.Loop() {
				pfor.Spawn(w, func(*pfor.Worker) int { return 1 }).Get(w)
			}
		})
	})
	b.Run("spawn=outside", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			pfor.Spawn(nil, func(*pfor.Worker) int { return 1 }).Get(nil)
		}
	})
	b.Run("fib=27", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			pfor.Run(func(w *pfor.Worker) { fibFuture(w, 27) })
		}
	})
}

func fibFuture(w *pfor.Worker, n int) int {
	if n < fibCut {
		return fibSeq(n)
	}
	f := pfor.Spawn(w, func(w *pfor.Worker) int { return fibFuture(w, n-1) })
	y := fibFuture(w, n-2)
	return f.Get(w) + y
}
