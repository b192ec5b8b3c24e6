package partition_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/partition"
)

// TestSplittingExactlyOnce: workers that give back random suffixes of
// their ranges (always when another is hungry, sometimes regardless) and
// poll while Idle says others hold ranges still hand out every index exactly
// once, at every worker count and GOMAXPROCS.
func TestSplittingExactlyOnce(t *testing.T) {
	var gaveBack, idled int64
	var mu sync.Mutex
	for _, procs := range []int{1, 2, 32} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for trial := range 40 {
			p := []partition.Partitioner{partition.Auto(), partition.Stealing(), partition.StealingWith(partition.StealingOptions{Grain: 7})}[trial%3]
			n := []int{0, 1, 2, 100, 5000}[trial%5]
			lo := []int{0, math.MinInt, math.MaxInt - n}[trial%3]
			w := []int{2, 3, 8, 32}[trial%4]
			run := p.Start(lo, lo+n, w).(partition.SplittingRun)
			counts := make([]int32, n)
			var wg sync.WaitGroup
			for me := range w {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(trial), uint64(me)))
					var gb, id int64
					defer func() { mu.Lock(); gaveBack += gb; idled += id; mu.Unlock() }()
					for {
						a, b, ok := run.Next(me)
						if !ok {
							if run.Idle(me) {
								id++
								runtime.Gosched()
								continue
							}
							return
						}
						for i := a; i < b; i++ {
							counts[i-lo]++
							if i+1 < b && (run.Hungry(me) || rng.IntN(50) == 0) {
								run.GiveBack(me, i+1)
								gb++
								break
							}
						}
					}
				}()
			}
			wg.Wait()
			for j, c := range counts {
				if c != 1 {
					t.Fatalf("%s over [%d, %d), %d workers, GOMAXPROCS=%d: index %d handed out %d times; want 1",
						p.Name(), lo, lo+n, w, procs, lo+j, c)
				}
			}
		}
	}
	if gaveBack == 0 { // idle polls depend on timing and are only logged
		t.Errorf("no give-back in all trials; the test did not exercise splitting")
	}
	t.Logf("%d give-backs, %d idle polls", gaveBack, idled)
}
