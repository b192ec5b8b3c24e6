package casestudy

import (
	"sync"

	"github.com/stealkit/stealkit/pfor"
)

// Fib computes fib(n) with the named scheme, forking every call with
// n >= cutoff and computing the others with the sequential recursion, in
// both parallel schemes alike: Sequential is the plain recursion (cutoff
// unused); Steal forks with pfor.Both (fib(n-2) runs at once, fib(n-1)
// waits on the worker's deque to be stolen and runs inline if it was not);
// Goroutine starts a goroutine for fib(n-1) and joins it with a
// sync.WaitGroup. Fib panics on an unknown scheme.
func Fib(scheme string, n, cutoff int) int {
	switch scheme {
	case Sequential:
		return fibSeq(n)
	case Steal:
		var r int
		pfor.Run(func(w *pfor.Worker) { r = fibSteal(w, fibArg{n, cutoff}) })
		return r
	case Goroutine:
		return fibGoroutine(n, cutoff)
	}
	panic("casestudy: Fib: unknown scheme " + scheme)
}

// FibForks returns how many forks a parallel fib(n) makes with cutoff.
func FibForks(n, cutoff int) int {
	if n < cutoff {
		return 0
	}
	return 1 + FibForks(n-1, cutoff) + FibForks(n-2, cutoff)
}

func fibSeq(n int) int {
	if n < 2 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

type fibArg struct{ n, cutoff int }

func fibSteal(w *pfor.Worker, a fibArg) int {
	if a.n < a.cutoff {
		return fibSeq(a.n)
	}
	x, y := pfor.Both(w, fibSteal, fibArg{a.n - 1, a.cutoff}, fibArg{a.n - 2, a.cutoff})
	return x + y
}

func fibGoroutine(n, cutoff int) int {
	if n < cutoff {
		return fibSeq(n)
	}
	var x int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = fibGoroutine(n-1, cutoff)
	}()
	y := fibGoroutine(n-2, cutoff)
	wg.Wait()
	return x + y
}
