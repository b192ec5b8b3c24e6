package pfor_test

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/stealkit/stealkit/pfor"
)

func ExampleSpawn() {
	// fib with a future for fib(n-1), computing fib(n-2) meanwhile: Get
	// runs the future's task itself unless an idle worker stole it.
	var fib func(w *pfor.Worker, n int) int
	fib = func(w *pfor.Worker, n int) int {
		if n < 10 {
			return fibSeq(n)
		}
		f := pfor.Spawn(w, func(w *pfor.Worker) int { return fib(w, n-1) })
		y := fib(w, n-2)
		return f.Get(w) + y
	}
	var v int
	pfor.Run(func(w *pfor.Worker) { v = fib(w, 25) })
	fmt.Println(v)
	// Output: 75025
}

func ExampleSpawnErr() {
	parse := func(s string) *pfor.FutureErr[int] {
		return pfor.SpawnErr(nil, func(*pfor.Worker) (int, error) { return strconv.Atoi(s) })
	}
	ok, bad := parse("42"), parse("forty-two")
	v, err := ok.Get(nil)
	fmt.Println(v, err)
	_, err = bad.Get(nil)
	fmt.Println(errors.Is(err, strconv.ErrSyntax))
	// Output:
	// 42 <nil>
	// true
}

func ExampleFuture_Get() {
	// Futures kept in a slice and got in any order, from outside the pool,
	// as often as needed.
	squares := make([]*pfor.Future[int], 4)
	for i := range squares {
		squares[i] = pfor.Spawn(nil, func(*pfor.Worker) int { return i * i })
	}
	fmt.Println(squares[3].Get(nil), squares[1].Get(nil), squares[3].Get(nil))
	// Output: 9 1 9
}

func ExampleFutureErr_Get() {
	f := pfor.SpawnErr(nil, func(*pfor.Worker) (string, error) {
		return "partial", errors.New("disk full")
	})
	v, err := f.Get(nil)
	fmt.Println(v, err)
	// Output: partial disk full
}
