package deque

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// injectPreemption makes every atomic step yield the processor with
// probability 1/p, for the duration of the test.
func injectPreemption(t *testing.T, p uint) {
	stepHook = func(stepKind) {
		if rand.UintN(p) == 0 {
			runtime.Gosched()
		}
	}
	t.Cleanup(func() { stepHook = nil })
}

// hammer runs one owner and thieves goroutines on a Deque starting at
// position start with capacity 1, so that it grows under fire. The owner
// pushes n elements in random bursts, popping a random share of them; the
// thieves steal until the owner is done and the deque is empty. It returns
// how often each element was taken and how many were stolen.
func hammer(n, thieves int, start int64, seed uint64) (counts []int32, stolen int64) {
	d := NewAt[int](1, start)
	vals := ints(n)
	counts = make([]int32, n)
	var ownerDone atomic.Bool
	var stole atomic.Int64
	var wg sync.WaitGroup
	for range thieves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				done := ownerDone.Load() // before the Steal: nothing is pushed after it
				if v := d.Steal(); v != nil {
					atomic.AddInt32(&counts[*v], 1)
					stole.Add(1)
					continue
				}
				if done && d.Len() == 0 {
					return
				}
				runtime.Gosched()
			}
		}()
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < n; {
		for burst := 1 + rng.IntN(8); burst > 0 && i < n; burst-- {
			d.Push(vals[i])
			i++
		}
		for pops := rng.IntN(6); pops > 0; pops-- {
			if v := d.Pop(); v != nil {
				atomic.AddInt32(&counts[*v], 1)
			}
		}
	}
	for v := d.Pop(); v != nil; v = d.Pop() { // the owner drains what is left
		atomic.AddInt32(&counts[*v], 1)
	}
	ownerDone.Store(true)
	wg.Wait()
	return counts, stole.Load()
}

// TestHammerExactlyOnce: with one owner and 1 to 7 thieves, at GOMAXPROCS
// 1 to 8 on however many cores there are (oversubscribed), with preemption
// injected between atomic steps and counters near wrap-around, every
// element pushed is taken exactly once, by the owner or a thief.
func TestHammerExactlyOnce(t *testing.T) {
	injectPreemption(t, 8)
	n := 20_000
	if raceEnabled || testing.Short() {
		n = 3_000
	}
	for _, procs := range []int{1, 2, 4, 8} {
		for _, thieves := range []int{1, 3, 7} {
			t.Run(fmt.Sprintf("GOMAXPROCS=%d/thieves=%d", procs, thieves), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				start := []int64{0, math.MaxInt64 - int64(n)/2}[thieves%2]
				counts, stolen := hammer(n, thieves, start, uint64(procs*10+thieves))
				for v, c := range counts {
					if c != 1 {
						t.Fatalf("element %d taken %d times; want exactly once", v, c)
					}
				}
				t.Logf("%d of %d elements stolen", stolen, n)
			})
		}
	}
}

// TestHammerLastElement: the owner repeatedly pushes one element and pops
// it while thieves try to steal it, so that nearly every operation is the
// race for the last element; each element is taken exactly once.
func TestHammerLastElement(t *testing.T) {
	n := 200_000
	if raceEnabled {
		n = 20_000
	}
	d := New[int]()
	vals := ints(n)
	counts := make([]int32, n)
	var stop atomic.Bool
	var stolen atomic.Int64
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)-1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if v := d.Steal(); v != nil {
					atomic.AddInt32(&counts[*v], 1)
					stolen.Add(1)
				}
			}
		}()
	}
	for _, v := range vals {
		d.Push(v)
		if x := d.Pop(); x != nil {
			atomic.AddInt32(&counts[*x], 1)
		}
	}
	stop.Store(true)
	wg.Wait()
	for v, c := range counts {
		if c != 1 {
			t.Fatalf("element %d taken %d times; want exactly once", v, c)
		}
	}
	t.Logf("%d pushes, %d of them stolen", n, stolen.Load())
}
