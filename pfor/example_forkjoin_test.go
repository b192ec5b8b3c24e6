package pfor_test

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/stealkit/stealkit/pfor"
)

func ExampleJoin() {
	// A recursive sum that forks from anywhere: no Worker needed. Inside a
	// task, w.Join or Both is the cheap form of the same fork.
	var sum func(xs []int) int
	sum = func(xs []int) int {
		if len(xs) <= 1000 {
			s := 0
			for _, x := range xs {
				s += x
			}
			return s
		}
		var l, r int
		pfor.Join(func() { l = sum(xs[:len(xs)/2]) }, func() { r = sum(xs[len(xs)/2:]) })
		return l + r
	}
	xs := make([]int, 10_000)
	for i := range xs {
		xs[i] = i
	}
	fmt.Println(sum(xs))
	// Output: 49995000
}

func ExampleGo() {
	// Start work whose result is needed later, do something else
	// meanwhile, then collect it.
	f := pfor.Go(func() int { return len(strconv.Itoa(1 << 30)) })
	other := 2 + 2
	fmt.Println(f.Wait(), other)
	// Output: 10 4
}

func ExampleFuture_Wait() {
	squares := make([]*pfor.Future[int], 4)
	for i := range squares {
		squares[i] = pfor.Go(func() int { return i * i })
	}
	for _, f := range squares {
		fmt.Print(f.Wait(), " ")
	}
	fmt.Println()
	// Output: 0 1 4 9
}

func ExampleFutureErr_Wait() {
	f := pfor.SpawnErr(nil, func(*pfor.Worker) (int, error) { return 0, errors.New("no data") })
	v, err := f.Wait()
	fmt.Println(v, err)
	// Output: 0 no data
}

func ExampleMapIndexed() {
	words := []string{"a", "b", "c"}
	labeled := pfor.MapIndexed(words, func(i int, w string) string { return strconv.Itoa(i) + ":" + w })
	fmt.Println(labeled)
	// Output: [0:a 1:b 2:c]
}

func ExampleReduceRange() {
	// The sum of squares below 1000, with no slice to hold them: a
	// reduction over an index range.
	add := func(a, b int) int { return a + b }
	sum := pfor.ReduceRange(0, 1000, 0, func(acc, i int) int { return acc + i*i }, add)
	fmt.Println(sum)
	// Output: 332833500
}
