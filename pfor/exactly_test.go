package pfor_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

var partitioners = []partition.Partitioner{
	partition.Static(), partition.Dynamic(3), partition.Guided(2), partition.Stealing(), partition.Auto(),
}

// entryPoints run every pfor entry point over [lo, hi), each marking the
// indices it visits in counts[i-lo].
var entryPoints = []struct {
	name string
	run  func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option)
}{
	{"Range", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		pfor.Range(lo, hi, func(i int) { counts[i-lo].Add(1) }, opts...)
	}},
	{"Chunks", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		pfor.Chunks(lo, hi, func(a, b int) {
			for i := a; i < b; i++ {
				counts[i-lo].Add(1)
			}
		}, opts...)
	}},
	{"RangeErr", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		if err := pfor.RangeErr(context.Background(), lo, hi, func(i int) error { counts[i-lo].Add(1); return nil }, opts...); err != nil {
			panic(err)
		}
	}},
	{"ChunksErr", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if err := pfor.ChunksErr(ctx, lo, hi, func(a, b int) error {
			for i := a; i < b; i++ {
				counts[i-lo].Add(1)
			}
			return nil
		}, opts...); err != nil {
			panic(err)
		}
	}},
	{"ChunksLocal", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		pfor.ChunksLocal(lo, hi, func() *int { return new(int) }, func(_ *int, a, b int) {
			for i := a; i < b; i++ {
				counts[i-lo].Add(1)
			}
		}, nil, opts...)
	}},
	{"Map", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		in := make([]int, hi-lo)
		for i := range in {
			in[i] = lo + i
		}
		out := pfor.Map(in, func(i int) int { counts[i-lo].Add(1); return 2 * i }, opts...)
		for i, v := range out {
			if v != 2*in[i] {
				panic(fmt.Sprintf("Map: out[%d] = %d; want %d", i, v, 2*in[i]))
			}
		}
	}},
	{"MapIndexed", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		out := pfor.MapIndexed(make([]struct{}, hi-lo), func(i int, _ struct{}) int { counts[i].Add(1); return i }, opts...)
		for i, v := range out {
			if v != i {
				panic(fmt.Sprintf("MapIndexed: out[%d] = %d; want %d", i, v, i))
			}
		}
	}},
	{"ReduceRange", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		n := pfor.ReduceRange(lo, hi, 0, func(a, i int) int { counts[i-lo].Add(1); return a + 1 },
			func(a, b int) int { return a + b }, opts...)
		if n != hi-lo {
			panic(fmt.Sprintf("ReduceRange(%d, %d) counted %d; want %d", lo, hi, n, hi-lo))
		}
	}},
	{"Do", func(lo, hi int, counts []atomic.Int32, opts ...pfor.Option) {
		fns := make([]func(), hi-lo)
		for i := range fns {
			fns[i] = func() { counts[i].Add(1) }
		}
		pfor.Do(fns...)
	}},
}

// TestExactlyOnce: every entry point, with every partitioner, visits each
// index of [lo, hi) exactly once: GOMAXPROCS 1 to 32, 1 to 32 workers,
// random grains, empty and one-element ranges, ranges at MinInt and MaxInt.
func TestExactlyOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, procs := range []int{1, 2, 3, 32} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for _, ep := range entryPoints {
				for k, p := range partitioners {
					for trial := range 6 {
						n := []int{0, 1, 2, 17, rng.IntN(300), 1000 + rng.IntN(20000)}[trial]
						lo := []int{0, math.MinInt, math.MaxInt - n, -n / 2, 5}[(trial+k)%5]
						if ep.name == "Map" || ep.name == "Do" {
							lo = 0
						}
						opts := []pfor.Option{pfor.WithPartitioner(p), pfor.WithWorkers(1 + rng.IntN(32))}
						if rng.IntN(2) == 0 {
							opts = append(opts, pfor.WithGrain(1+rng.IntN(64)))
						}
						counts := make([]atomic.Int32, n)
						ep.run(lo, lo+n, counts, opts...)
						for j := range counts {
							if c := counts[j].Load(); c != 1 {
								t.Fatalf("%s over [%d, %d) with %s: index %d visited %d times; want 1",
									ep.name, lo, lo+n, p.Name(), lo+j, c)
							}
						}
					}
				}
			}
		})
	}
}
