package pfor_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// TestWholeIntDomain: every call over an index range takes [MinInt,
// MaxInt), whose count does not fit an int: its bodies get non-empty
// chunks, and the first stops the call (an error, or a panic where there
// is no error to return), which reaches the caller as such.
func TestWholeIntDomain(t *testing.T) {
	errStop := errors.New("stop")
	ctx := context.Background()
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1 << 20), partition.Guided(1), partition.Stealing(), partition.Auto()} {
		opts := []pfor.Option{pfor.WithWorkers(2), pfor.WithPartitioner(p)}
		var mu sync.Mutex
		var bad []string
		check := func(call string, lo, hi int) {
			if lo >= hi {
				mu.Lock()
				bad = append(bad, call)
				mu.Unlock()
			}
		}
		panics := map[string]func(){
			"Range": func() { pfor.Range(math.MinInt, math.MaxInt, func(int) { panic(errStop) }, opts...) },
			"Chunks": func() {
				pfor.Chunks(math.MinInt, math.MaxInt, func(lo, hi int) { check("Chunks", lo, hi); panic(errStop) }, opts...)
			},
			"ChunksLocal": func() {
				pfor.ChunksLocal(math.MinInt, math.MaxInt, func() int { return 0 }, func(_, lo, hi int) { check("ChunksLocal", lo, hi); panic(errStop) }, nil, opts...)
			},
		}
		for call, f := range panics {
			if pe, _ := recoverPanic(f); pe == nil || pe.Value != errStop {
				t.Errorf("%s: %s(MinInt, MaxInt) with a body that panics: panic %v; want a *PanicError of the body's value", p.Name(), call, pe)
			}
		}
		errs := map[string]func() error{
			"RangeErr": func() error {
				return pfor.RangeErr(ctx, math.MinInt, math.MaxInt, func(int) error { return errStop }, opts...)
			},
			"ChunksErr": func() error {
				return pfor.ChunksErr(ctx, math.MinInt, math.MaxInt, func(lo, hi int) error { check("ChunksErr", lo, hi); return errStop }, opts...)
			},
			"ChunksLocalErr": func() error {
				return pfor.ChunksLocalErr(ctx, math.MinInt, math.MaxInt, func() int { return 0 }, func(_, lo, hi int) error { check("ChunksLocalErr", lo, hi); return errStop }, nil, opts...)
			},
		}
		for call, f := range errs {
			if err := f(); err != errStop {
				t.Errorf("%s: %s(MinInt, MaxInt) with a body that fails: %v; want the body's error", p.Name(), call, err)
			}
		}
		if len(bad) > 0 {
			t.Errorf("%s: empty chunks handed to %v; want none", p.Name(), bad)
		}
	}
}

// TestReduceRangeNearMaxInt: ReduceRange over MaxInt indices, with a grain
// of half of them, folds two blocks, [0, g) and [g, MaxInt), each from its
// start, where counting the blocks or their ends as (n+g-1)/g and (b+1)*g
// would overflow. Each block's first fold waits (at most 10 seconds) until
// both blocks have begun, then stops the call with a panic.
func TestReduceRangeNearMaxInt(t *testing.T) {
	g := math.MaxInt/2 + 1
	var mu sync.Mutex
	started := map[int]bool{}
	both := make(chan struct{})
	fold := func(a, i int) int {
		mu.Lock()
		started[i] = true
		if len(started) == 2 {
			close(both)
		}
		mu.Unlock()
		select {
		case <-both:
		case <-time.After(10 * time.Second):
		}
		panic("stop")
	}
	pe, _ := recoverPanic(func() {
		pfor.ReduceRange(0, math.MaxInt, 0, fold, func(a, b int) int { return a + b },
			pfor.WithGrain(g), pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static()))
	})
	mu.Lock()
	defer mu.Unlock()
	if pe == nil || pe.Value != "stop" || len(started) != 2 || !started[0] || !started[g] {
		t.Errorf("ReduceRange(0, MaxInt) with grain %d: blocks began at %v, panic %v; want blocks at 0 and %d, and fold's panic", g, started, pe, g)
	}
}

// nilRunPartitioner's Start returns a nil Run.
type nilRunPartitioner struct{}

func (nilRunPartitioner) Name() string                            { return "nilrun" }
func (nilRunPartitioner) Start(lo, hi, workers int) partition.Run { return nil }

// TestNilRun: a call whose partitioner's Start returns a nil Run panics,
// naming the call, the partitioner and Start's arguments, before any body
// runs.
func TestNilRun(t *testing.T) {
	called := false
	defer func() {
		want := `pfor: Chunks: partitioner "nilrun": Start(0, 10, 2) returned a nil Run`
		if r := recover(); fmt.Sprint(r) != want || called {
			t.Errorf("Chunks with a nil Run: panic %v, body called %v; want %q, no body", r, called, want)
		}
	}()
	pfor.Chunks(0, 10, func(int, int) { called = true }, pfor.WithWorkers(2), pfor.WithPartitioner(nilRunPartitioner{}))
}
