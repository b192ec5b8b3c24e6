package stealrange

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stealLoop runs a full work-stealing loop over [lo, hi) with w workers and
// returns how often each index was handed out. Each worker owns a Range over
// its static block, made with New, drains it in batches of random size (now
// and then processing only a prefix of a batch and giving the rest back),
// then steals from random victims and owns the stolen chunk, so that others
// can steal from it in turn: half the time with TrySteal and a Reset of its
// own Range, half the time with StealFrom. Workers stop when every index has been handed
// out, as soon as one has been handed out twice (then the count of handouts
// may pass n without ever equalling it), or when nothing has been handed
// out for stallFor (an index lost: the count never reaches n), so that the
// check after the loop fails instead of the test hanging.
func stealLoop(t *testing.T, lo, hi, w int, seed uint64) (counts []uint32, steals int64) {
	t.Helper()
	ranges := make([]*Range, w)
	for i := range ranges {
		ranges[i] = New(lo+(hi-lo)*i/w, lo+(hi-lo)*(i+1)/w)
	}
	return stealLoopOn(ranges, lo, hi, seed)
}

// stealLoopOn is stealLoop on the given Ranges, one per worker, which own
// their blocks of [lo, hi) already.
func stealLoopOn(ranges []*Range, lo, hi int, seed uint64) (counts []uint32, steals int64) {
	n, w := hi-lo, len(ranges)
	counts = make([]uint32, n)
	var done atomic.Int64   // indices handed out so far
	var stolen atomic.Int64 // successful steals
	var twice atomic.Bool   // some index was handed out more than once
	record := func(a, b int) {
		for j := a; j < b; j++ {
			if atomic.AddUint32(&counts[j-lo], 1) > 1 {
				twice.Store(true)
			}
		}
		done.Add(int64(b - a))
	}
	var wg sync.WaitGroup
	for me := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(me)))
			own := ranges[me]
			for {
				if rng.IntN(4) == 0 {
					if i, ok := own.TryTakeOne(); ok {
						record(i, i+1)
						continue
					}
				} else if a, b, ok := own.TryTake(1 + rng.IntN(8)); ok {
					if rng.IntN(4) == 0 { // process a prefix, hand back the rest
						f := a + rng.IntN(b-a+1)
						record(a, f)
						own.GiveBack(f)
						continue
					}
					record(a, b)
					continue
				}
				// Exhausted: steal until something is found, all is done,
				// an index was handed out twice, or none for stallFor.
				seen, since := done.Load(), time.Now()
				for round := 0; ; round++ {
					d := done.Load()
					if d >= int64(n) || twice.Load() {
						return
					}
					if d != seen {
						seen, since = d, time.Now()
					} else if round%1024 == 0 && time.Since(since) > stallFor {
						return
					}
					v := ranges[rng.IntN(w)]
					if v == own {
						continue
					}
					if rng.IntN(2) == 0 {
						if _, _, ok := own.StealFrom(v); ok {
							stolen.Add(1)
							break
						}
					} else if a, b, ok := v.TrySteal(); ok {
						stolen.Add(1)
						own.Reset(a, b)
						break
					}
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	return counts, stolen.Load()
}

// stallFor is how long stealLoop's workers steal without any index being
// handed out before they give up: far longer than any trial takes.
const stallFor = 5 * time.Second

func checkExactlyOnce(t *testing.T, name string, lo int, counts []uint32) {
	t.Helper()
	for j, c := range counts {
		if c != 1 {
			t.Fatalf("%s: index %d handed out %d times; want exactly once", name, lo+j, c)
		}
	}
}

// injectPreemption makes every atomic step of the protocol yield the
// processor with probability 1/p, for the duration of the test.
func injectPreemption(t *testing.T, p uint) {
	stepHook = func(*Range, stepKind) {
		if rand.UintN(p) == 0 {
			runtime.Gosched()
		}
	}
	t.Cleanup(func() { stepHook = nil })
}

// TestStealLoopExactlyOnce: in a full work-stealing loop every index of the
// original range is handed out exactly once, for random ranges anywhere in the
// int domain (empty, one element, touching MinInt and MaxInt), 1 to 32
// workers, GOMAXPROCS from 1 to 32 on however many cores there are, with
// preemption injected between the protocol's atomic steps.
func TestStealLoopExactlyOnce(t *testing.T) {
	injectPreemption(t, 4)
	rng := rand.New(rand.NewPCG(1, 2))
	maxN := 3000
	if testing.Short() || raceEnabled {
		maxN = 800
	}
	for _, procs := range []int{1, 2, 5, 32} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			var steals int64
			for trial := range 1500 {
				n := []int{0, 1, 2, 3, rng.IntN(64), rng.IntN(maxN)}[trial%6]
				var lo int
				switch trial % 4 {
				case 0:
					lo = math.MinInt
				case 1:
					lo = math.MaxInt - n
				case 2:
					lo = -n / 2
				default:
					lo = int(rng.Int64N(math.MaxInt32)) - math.MaxInt32/2
				}
				w := []int{1, 2, 3, 8, 32}[trial%5]
				name := fmt.Sprintf("trial %d: [%d, %d) with %d workers", trial, lo, lo+n, w)
				counts, s := stealLoop(t, lo, lo+n, w, uint64(trial))
				checkExactlyOnce(t, name, lo, counts)
				steals += s
			}
			if steals == 0 {
				t.Errorf("no steal succeeded in 1500 trials: the test did not exercise stealing")
			}
			t.Logf("%d successful steals", steals)
		})
	}
}

// TestStealLoopLarge: the same with a large range and batches, without
// injected preemption, so that the owner's fast path and shrink run often.
func TestStealLoopLarge(t *testing.T) {
	n := 200_000
	if raceEnabled {
		n = 20_000
	}
	for _, w := range []int{2, 4, 16} {
		name := fmt.Sprintf("[0, %d) with %d workers", n, w)
		counts, steals := stealLoop(t, 0, n, w, 7)
		checkExactlyOnce(t, name, 0, counts)
		t.Logf("%s: %d successful steals", name, steals)
	}
}

// TestStealLoopReusesRanges: the same with one set of Ranges reused with
// Reuse for trial after trial, after every worker of the trial before has
// returned, as partition's runs are: spans installed in one trial are
// installed again in the next, and every index is still handed out exactly
// once.
func TestStealLoopReusesRanges(t *testing.T) {
	injectPreemption(t, 4)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, w := range []int{2, 3, 8} {
		ranges := make([]*Range, w)
		for i := range ranges {
			ranges[i] = new(Range)
		}
		var steals int64
		for trial := range 300 {
			n := []int{0, 1, 5, rng.IntN(64), rng.IntN(2000)}[trial%5]
			lo := int(rng.Int64N(1000)) - 500
			for i, r := range ranges {
				r.Reuse(lo+n*i/w, lo+n*(i+1)/w)
			}
			counts, s := stealLoopOn(ranges, lo, lo+n, uint64(trial))
			checkExactlyOnce(t, fmt.Sprintf("%d workers, trial %d: [%d, %d)", w, trial, lo, lo+n), lo, counts)
			steals += s
		}
		if steals == 0 {
			t.Errorf("%d workers: no steal succeeded in 300 trials: the test did not exercise stealing", w)
		}
	}
}
