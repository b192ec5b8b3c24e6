package pfor_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/stealkit/stealkit/pfor"
)

// fib forks with Both above a sequential cutoff.
func fib(w *pfor.Worker, n int) int {
	if n < 15 {
		return fibSeq(n)
	}
	x, y := pfor.Both(w, fib, n-1, n-2)
	return x + y
}

func ExampleRun() {
	var f int
	pfor.Run(func(w *pfor.Worker) { f = fib(w, 30) })
	fmt.Println(f)
	// Output: 832040
}

func ExampleBoth() {
	// The two halves of a divide and conquer: sum(lo, hi) forks its left
	// half for idle workers to steal and computes the right half itself.
	type span struct{ lo, hi int }
	var sum func(w *pfor.Worker, s span) int
	sum = func(w *pfor.Worker, s span) int {
		if s.hi-s.lo <= 1000 {
			t := 0
			for i := s.lo; i < s.hi; i++ {
				t += i
			}
			return t
		}
		m := (s.lo + s.hi) / 2
		a, b := pfor.Both(w, sum, span{s.lo, m}, span{m, s.hi})
		return a + b
	}
	var total int
	pfor.Run(func(w *pfor.Worker) { total = sum(w, span{0, 10_000}) })
	fmt.Println(total)
	// Output: 49995000
}

func ExampleWorker_Join() {
	type node struct {
		val         int
		left, right *node
	}
	var build func(depth int) *node
	build = func(depth int) *node {
		if depth == 0 {
			return nil
		}
		return &node{1, build(depth - 1), build(depth - 1)}
	}
	var count func(w *pfor.Worker, n *node) int
	count = func(w *pfor.Worker, n *node) int {
		if n == nil {
			return 0
		}
		var l, r int
		w.Join(func(w *pfor.Worker) { l = count(w, n.left) }, func(w *pfor.Worker) { r = count(w, n.right) })
		return n.val + l + r
	}
	root := build(12)
	var n int
	pfor.Run(func(w *pfor.Worker) { n = count(w, root) })
	fmt.Println(n)
	// Output: 4095
}

func ExampleGroup() {
	// A task per directory; each spawns a task per subdirectory, from
	// whatever depth, and Wait returns when the whole tree is done.
	tree := map[string][]string{"/": {"/a", "/b"}, "/a": {"/a/x", "/a/y"}, "/b": {"/b/z"}}
	var dirs atomic.Int32
	g, _ := pfor.NewGroup(context.Background())
	var walk func(w *pfor.Worker, dir string) error
	walk = func(w *pfor.Worker, dir string) error {
		dirs.Add(1)
		for _, sub := range tree[dir] {
			w.Go(g, func(w *pfor.Worker) error { return walk(w, sub) })
		}
		return nil
	}
	g.Go(func(w *pfor.Worker) error { return walk(w, "/") })
	err := g.Wait()
	fmt.Println(dirs.Load(), err)
	// Output: 6 <nil>
}

func ExampleNewGroup() {
	// The context NewGroup returns is canceled when a task fails, so that
	// tasks already running can stop early; its cause is the error.
	errNotFound := errors.New("not found")
	g, ctx := pfor.NewGroup(context.Background())
	for _, name := range []string{"a", "b", "missing"} {
		g.Go(func(*pfor.Worker) error {
			if ctx.Err() != nil {
				return nil // a sibling failed: no point going on
			}
			if name == "missing" {
				return fmt.Errorf("open %s: %w", name, errNotFound)
			}
			return nil
		})
	}
	err := g.Wait()
	fmt.Println(err, errors.Is(err, errNotFound), context.Cause(ctx) == err)
	// Output: open missing: not found true true
}

func ExampleGroup_Go() {
	var g pfor.Group // a zero Group is valid
	results := make([]int, 5)
	for i := range results {
		g.Go(func(*pfor.Worker) error { results[i] = i * i; return nil })
	}
	g.Wait()
	fmt.Println(results)
	// Output: [0 1 4 9 16]
}

func ExampleGroup_Wait() {
	g, _ := pfor.NewGroup(context.Background())
	g.Go(func(*pfor.Worker) error { panic("bad input") })
	defer func() {
		pe := recover().(*pfor.PanicError)
		fmt.Println("recovered:", pe.Value)
	}()
	g.Wait()
	// Output: recovered: bad input
}

func ExampleWorker_Go() {
	// A task spawns its children onto its own worker's deque and waits
	// for them, running tasks meanwhile instead of blocking.
	var size func(w *pfor.Worker, n int) int
	size = func(w *pfor.Worker, n int) int {
		if n == 0 {
			return 1
		}
		var sizes [3]int
		var kids pfor.Group
		for i := range sizes {
			w.Go(&kids, func(w *pfor.Worker) error { sizes[i] = size(w, n-1); return nil })
		}
		w.Wait(&kids)
		return 1 + sizes[0] + sizes[1] + sizes[2]
	}
	var n int
	pfor.Run(func(w *pfor.Worker) { n = size(w, 6) })
	fmt.Println(n)
	// Output: 1093
}

func ExampleWorker_Wait() {
	var g pfor.Group
	var got int
	pfor.Run(func(w *pfor.Worker) {
		var sum atomic.Int64
		for i := 1; i <= 100; i++ {
			w.Go(&g, func(*pfor.Worker) error { sum.Add(int64(i)); return nil })
		}
		w.Wait(&g)
		got = int(sum.Load())
	})
	fmt.Println(got)
	// Output: 5050
}

func ExampleSort() {
	x := []int64{5, 2, 8, 1, 9, 3}
	pfor.Sort(x)
	fmt.Println(x)
	// Output: [1 2 3 5 8 9]
}

func ExampleSortStableFunc() {
	type person struct {
		name string
		age  int
	}
	people := []person{{"Ann", 30}, {"Bob", 25}, {"Cid", 30}, {"Dee", 25}}
	pfor.SortStableFunc(people, func(a, b person) int { return cmp.Compare(a.age, b.age) })
	fmt.Println(people)
	// Output: [{Bob 25} {Dee 25} {Ann 30} {Cid 30}]
}
