package pfor_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

func fibDo(n int) int {
	if n < fibCut {
		return fibSeq(n)
	}
	var x, y int
	pfor.Do(func() { x = fibDo(n - 1) }, func() { y = fibDo(n - 2) })
	return x + y
}

func fibTopJoin(n int) int {
	if n < fibCut {
		return fibSeq(n)
	}
	var x, y int
	pfor.Join(func() { x = fibTopJoin(n - 1) }, func() { y = fibTopJoin(n - 2) })
	return x + y
}

// BenchmarkForkTop: the forks that take no Worker, on the fork-join shape
// of BenchmarkFib (fib(27), calls below fibCut sequential): impl=do forks
// with pfor.Do, impl=join with the top-level pfor.Join, impl=goroutine with
// a goroutine per fork (what a Do that starts a goroutine for a function no
// worker is free to take would do in a busy pool, where no worker ever is),
// and impl=both with pfor.Both, the Worker form, as the floor.
// impl=.../fns=2 is one call with two empty functions from outside the
// pool, back to back, where workers are idle.
func BenchmarkForkTop(b *testing.B) {
	const n = 27
	want := fibSeq(n)
	for _, impl := range []struct {
		name string
		fib  func() int
	}{
		{"do", func() int { return fibDo(n) }},
		{"join", func() int { return fibTopJoin(n) }},
		{"goroutine", func() int { return fibGo(n) }},
		{"both", func() (r int) { pfor.Run(func(w *pfor.Worker) { r = fibBoth(w, n) }); return r }},
	} {
		b.Run(fmt.Sprintf("impl=%s/n=%d", impl.name, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := impl.fib(); got != want {
					b.Fatalf("fib(%d) = %d; want %d", n, got, want)
				}
			}
		})
	}
	nop := func() {}
	for _, impl := range []struct {
		name string
		call func()
	}{
		{"do", func() { pfor.Do(nop, nop) }},
		{"join", func() { pfor.Join(nop, nop) }},
		{"goroutine", func() {
			var wg sync.WaitGroup
			wg.Go(nop)
			nop()
			wg.Wait()
		}},
	} {
		b.Run("impl="+impl.name+"/fns=2", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				impl.call()
			}
		})
	}
}

// BenchmarkGroupWait: one empty task from outside the pool, then
// Group.Wait, back to back: BenchmarkFuture/spawn=outside is the same path
// without Wait's check for a task waiting for its own Group, which reads
// the goroutine's id.
func BenchmarkGroupWait(b *testing.B) {
	b.ReportAllocs()
	nop := func(*pfor.Worker) error { return nil }
	var g pfor.Group
	for b.Loop() {
		g.Go(nop)
		g.Wait()
	}
}

// BenchmarkForkBusy: Do and Join with two empty functions while every
// worker of the pool is busy in a loop's body (blocked, using no CPU), so
// that every call takes the inline path, against calling the two
// functions directly (call=direct). An operation is one call. Steady under
// the race detector and callgrind alike, where BenchmarkRangeDo mixes in
// the calls that find a worker searching between loops:
//
//	go test -race -run '^$' -bench ForkBusy ./pfor/
func BenchmarkForkBusy(b *testing.B) {
	nop := func() {}
	for _, call := range []struct {
		name string
		f    func()
	}{
		{"direct", func() { nop(); nop() }},
		{"do", func() { pfor.Do(nop, nop) }},
		{"join", func() { pfor.Join(nop, nop) }},
	} {
		b.Run("call="+call.name, func(b *testing.B) {
			if runtime.GOMAXPROCS(0) < 2 {
				b.Skip("no pool worker to keep busy at GOMAXPROCS 1")
			}
			release := busyPool(b)
			b.ReportAllocs()
			for b.Loop() {
				call.f()
			}
			release()
		})
	}
}
