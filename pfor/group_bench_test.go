package pfor_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

func fibSeq(n int) int {
	if n < 2 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

// fibCut is the sequential cutoff of the parallel fibs in these benchmarks:
// calls below it run fibSeq, in every implementation alike.
const fibCut = 8

func fibBoth(w *pfor.Worker, n int) int {
	if n < fibCut {
		return fibSeq(n)
	}
	x, y := pfor.Both(w, fibBoth, n-1, n-2)
	return x + y
}

func fibJoin(w *pfor.Worker, n int) int {
	if n < fibCut {
		return fibSeq(n)
	}
	var x, y int
	w.Join(func(w *pfor.Worker) { x = fibJoin(w, n-1) }, func(w *pfor.Worker) { y = fibJoin(w, n-2) })
	return x + y
}

func fibGo(n int) int {
	if n < fibCut {
		return fibSeq(n)
	}
	var x int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = fibGo(n - 1)
	}()
	y := fibGo(n - 2)
	wg.Wait()
	return x + y
}

// BenchmarkFib: fine-grained fork-join, fib(n) with calls below fibCut
// sequential in every parallel implementation: impl=sequential is fibSeq,
// impl=both forks with pfor.Both, impl=join with Worker.Join and closures,
// impl=goroutine starts a goroutine per fork and joins with a WaitGroup.
// joins/op counts the forks.
func BenchmarkFib(b *testing.B) {
	const n = 27
	want := fibSeq(n)
	forks := 0
	var count func(int)
	count = func(n int) {
		if n >= fibCut {
			forks++
			count(n - 1)
			count(n - 2)
		}
	}
	count(n)
	for _, impl := range []struct {
		name string
		fib  func() int
	}{
		{"sequential", func() int { return fibSeq(n) }},
		{"both", func() (r int) { pfor.Run(func(w *pfor.Worker) { r = fibBoth(w, n) }); return r }},
		{"join", func() (r int) { pfor.Run(func(w *pfor.Worker) { r = fibJoin(w, n) }); return r }},
		{"goroutine", func() int { return fibGo(n) }},
	} {
		b.Run(fmt.Sprintf("impl=%s/n=%d", impl.name, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := impl.fib(); got != want {
					b.Fatalf("fib(%d) = %d; want %d", n, got, want)
				}
			}
			if impl.name != "sequential" {
				b.ReportMetric(float64(forks), "forks/op")
			}
		})
	}
}

// BenchmarkJoin: the cost of one fork and its join when nothing is stolen
// (GOMAXPROCS=1 has no other worker: -cpu 1), and with thieves: a binary
// tree of 2^16 leaves that do nothing, ns/op per leaf.
func BenchmarkJoin(b *testing.B) {
	var tree func(w *pfor.Worker, d int) int
	tree = func(w *pfor.Worker, d int) int {
		if d == 0 {
			return 1
		}
		x, y := pfor.Both(w, tree, d-1, d-1)
		return x + y
	}
	b.Run("impl=both", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			pfor.Run(func(w *pfor.Worker) { tree(w, 16) })
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(1<<16), "ns/leaf")
	})
}

// BenchmarkGroup: a task of a Group spawns 1024 empty tasks into it with
// Worker.Go, and the caller waits for the Group: ns/task is the cost per
// task, spawning, running and counting it.
func BenchmarkGroup(b *testing.B) {
	b.ReportAllocs()
	nop := func(*pfor.Worker) error { return nil }
	for b.Loop() {
		var g pfor.Group
		g.Go(func(w *pfor.Worker) error {
			for range 1024 {
				w.Go(&g, nop)
			}
			return nil
		})
		g.Wait()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1024, "ns/task")
}

// BenchmarkDo: Do with two empty functions from outside the pool, back to
// back.
func BenchmarkDo(b *testing.B) {
	b.ReportAllocs()
	nop := func() {}
	for b.Loop() {
		pfor.Do(nop, nop)
	}
}

// BenchmarkSort: 1M random int64s with slices.Sort (the sequential
// baseline), pfor.Sort, and pfor.SortStableFunc with cmp.Compare.
func BenchmarkSort(b *testing.B) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]int64, n)
	for i := range src {
		src[i] = rng.Int64()
	}
	x := make([]int64, n)
	for _, impl := range []struct {
		name string
		sort func([]int64)
	}{
		{"slices.Sort", slices.Sort[[]int64]},
		{"pfor.Sort", pfor.Sort[[]int64]},
		{"pfor.SortStableFunc", func(x []int64) { pfor.SortStableFunc(x, cmp.Compare[int64]) }},
	} {
		b.Run(fmt.Sprintf("impl=%s/n=%d", impl.name, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				copy(x, src)
				b.StartTimer()
				impl.sort(x)
			}
		})
	}
}

// BenchmarkRangeDo: fork-join nested in loops, as a test suite run under
// the race detector does it: 8 goroutines per GOMAXPROCS making Range
// calls over 64 indices whose body calls Do (body=do) or Join (body=join)
// with two empty functions, against the same loops with an empty body
// (body=plain). An operation is one Range call.
//
//	go test -race -run '^$' -bench RangeDo -benchtime 2000x ./pfor/
func BenchmarkRangeDo(b *testing.B) {
	nop := func() {}
	for _, body := range []struct {
		name string
		f    func(i int)
	}{
		{"plain", func(int) {}},
		{"do", func(int) { pfor.Do(nop, nop) }},
		{"join", func(int) { pfor.Join(nop, nop) }},
	} {
		b.Run("body="+body.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					pfor.Range(0, 64, body.f)
				}
			})
		})
	}
}
