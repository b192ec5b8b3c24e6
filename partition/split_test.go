package partition_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
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
			run := p.Start(lo, lo+n, w).(partproto.SplittingRun)
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
							if i+1 < b && (run.Hungry(me, i+1) || rng.IntN(50) == 0) {
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

// TestPieceFollowsMeasuredCost: a worker's first range, whose cost is not
// known yet, is cut into min(workers, 16) pieces; after that a range is cut
// into pieces of about 2 µs at the measured cost, but of no more than
// 1/96 of a worker's share of the items, and of no less than 4 µs /
// workers, never more than the range.
func TestPieceFollowsMeasuredCost(t *testing.T) {
	const n = 1 << 20
	for _, tc := range []struct {
		workers   int
		nsPerItem int64
		want      func(r int) int // piece of a range of r items after the first
	}{
		{2, 10_000, func(int) int { return 1 }},               // one item is over 2 µs
		{2, 10, func(r int) int { return min(2000/10+1, r) }}, // 2 µs at 10 ns per item
		{32, 10, func(r int) int { return min(2000/10+1, r) }},
		{256, 10, func(r int) int { return min(n/(96*256), r) }}, // 1/96 of a share of 4096 items
	} {
		var now int64
		p := stealingWith(partproto.Options{Adaptive: true, Clock: func() int64 { return now }})
		run := p.Start(0, n, tc.workers).(partproto.SplittingRun)
		lo, hi, ok := run.Next(0)
		if !ok {
			t.Fatal("no first range")
		}
		if got, want := run.Piece(0), (hi-lo)/min(tc.workers, 16); got != want {
			t.Errorf("%d workers: first range [%d, %d): piece %d; want 1/min(workers, 16) of it, %d", tc.workers, lo, hi, got, want)
		}
		for i := range 8 { // ranges of growing size, each taking nsPerItem per item, until the block is done
			now += int64(hi-lo) * tc.nsPerItem
			if lo, hi, ok = run.Next(0); !ok {
				if i < 3 {
					t.Fatalf("%d workers: ran out of work after %d ranges", tc.workers, i+1)
				}
				break
			}
			if got, want := run.Piece(0), tc.want(hi-lo); got != want {
				t.Errorf("%d workers, %d ns per item, range of %d: piece %d; want %d", tc.workers, tc.nsPerItem, hi-lo, got, want)
			}
		}
	}
}

// TestIdleWhileAnotherHolds: a worker that finds nothing is told to poll
// again while another worker holds more than a piece of its range, however
// briefly it has held it, and to stop once none does: when the holder's
// range is one piece, once the holder has started its last piece, and once
// no worker holds a range. A holder that has held its range for long while
// another waits gives the rest back.
func TestIdleWhileAnotherHolds(t *testing.T) {
	var now int64
	// Two workers, blocks of 200 items taken whole: two pieces of 100 each.
	start := func(n int) partproto.SplittingRun {
		run := stealingWith(partproto.Options{Grain: n / 2, Clock: func() int64 { return now }}).Start(0, n, 2).(partproto.SplittingRun)
		for w := range 2 {
			if _, _, ok := run.Next(w); !ok {
				t.Fatalf("worker %d got no range", w)
			}
		}
		if _, _, ok := run.Next(1); ok {
			t.Fatal("worker 1 got a second range out of its block")
		}
		return run
	}

	run := start(400)
	if got := run.Piece(0); got != 100 {
		t.Fatalf("Piece(0) = %d; want 100", got)
	}
	if !run.Idle(1) {
		t.Error("Idle(1) = false while worker 0 holds two pieces; want true")
	}
	if run.Hungry(0, 100) {
		t.Error("Hungry(0, 100) = true for a range held for no time; want false")
	}
	if run.Idle(1) {
		t.Error("Idle(1) = true while worker 0 processes its last piece; want false")
	}

	run = start(400)
	if !run.Idle(1) {
		t.Error("Idle(1) = false while worker 0 holds two pieces; want true")
	}
	now += 1_000_000
	if !run.Hungry(0, 100) {
		t.Error("Hungry(0, 100) = false with worker 1 waiting for a millisecond; want true")
	}
	run.GiveBack(0, 100)
	if lo, hi, ok := run.Next(1); !ok || lo < 100 || hi > 200 {
		t.Errorf("Next(1) after worker 0 gave back [100, 200) = %d, %d, %v; want part of it", lo, hi, ok)
	}

	run = start(2) // ranges of one item: one piece
	if run.Idle(1) {
		t.Error("Idle(1) = true while worker 0 holds one piece; want false")
	}
	if _, _, ok := run.Next(0); ok {
		t.Fatal("worker 0 got a second range out of two items")
	}
	for w := range 2 {
		if run.Idle(w) {
			t.Errorf("Idle(%d) = true with no range held; want false", w)
		}
	}
}

// TestHungryKeepsACheapRest: a worker that has held its range for over
// minHold while another waits gives back the rest only if the rest would
// take over minHold at the rate its range has run at: not the last hundred
// items of a range that ran at 2 ns an item, but the rest of one that ran at
// 30 ns an item. Giving back a cheap rest costs the giver and the thief a
// take each and more than the waiting worker gains.
func TestHungryKeepsACheapRest(t *testing.T) {
	var now int64
	const workers, block = 16, 1600 // ranges of a whole block, 16 pieces of 100
	run := stealingWith(partproto.Options{Grain: block, Clock: func() int64 { return now }}).Start(0, workers*block, workers).(partproto.SplittingRun)
	for w := range workers {
		if _, _, ok := run.Next(w); !ok {
			t.Fatalf("worker %d got no range", w)
		}
	}
	if got := run.Piece(0); got != 100 {
		t.Fatalf("Piece(0) = %d; want 100", got)
	}
	if _, _, ok := run.Next(1); ok {
		t.Fatal("worker 1 got a second range out of its block")
	}
	if !run.Idle(1) {
		t.Fatal("Idle(1) = false while others hold ranges of 16 pieces; want true")
	}
	now += 3000 // worker 0 has held [0, 1600) for 3 µs
	if run.Hungry(0, 1500) {
		t.Error("Hungry(0, 1500) = true after 1,500 items in 3 µs: a rest of 200 ns; want false")
	}
	if !run.Hungry(0, 100) {
		t.Error("Hungry(0, 100) = false after 100 items in 3 µs: a rest of 45 µs; want true")
	}
}

// TestAutoBatchAfterGiveBackOrPreemption: after a give-back, a worker's next
// batch is one item (the range cost more than measured); one batch that took
// far longer than the ones before it, as when its worker was descheduled,
// shrinks the next batch 4x at most.
func TestAutoBatchAfterGiveBackOrPreemption(t *testing.T) {
	var now int64
	run := stealingWith(partproto.Options{Adaptive: true, Clock: func() int64 { return now }}).Start(0, 1<<24, 2).(partproto.SplittingRun)
	lo, hi, _ := run.Next(0)
	for range 20 { // 1 µs per item: batches settle at about 10 items
		now += int64(hi-lo) * 1000
		lo, hi, _ = run.Next(0)
	}
	settled := hi - lo
	now += int64(hi-lo)*1000 + 5_000_000 // descheduled for 5 ms
	lo, hi, _ = run.Next(0)
	if got := hi - lo; got < settled/4 {
		t.Errorf("after one batch that took 5 ms longer, a batch of %d items; want at least %d (a quarter of %d)", got, settled/4, settled)
	}
	now += 1000 // one item processed, the rest given back
	run.GiveBack(0, lo+1)
	if lo, hi, _ = run.Next(0); hi-lo != 1 {
		t.Errorf("after a give-back, a batch of %d items; want 1", hi-lo)
	}
}

// TestHungryWhenRobbed: a worker that has held its range for long gives the
// rest back when a thief has taken from its range since its last Next, even
// with no worker waiting in Idle: the thieves found work there, and what its
// batch holds is hidden from them. Without a theft it keeps its range.
func TestHungryWhenRobbed(t *testing.T) {
	var now int64
	run := stealingWith(partproto.Options{Adaptive: true, Clock: func() int64 { return now }}).Start(0, 1000, 2).(partproto.SplittingRun)
	lo, hi, ok := run.Next(0) // worker 0 holds a batch of its block [0, 500)
	if !ok || hi-lo <= run.Piece(0) {
		t.Fatalf("worker 0 got %d, %d, %v; want a range of more than a piece", lo, hi, ok)
	}
	next := lo + run.Piece(0) // worker 0 has processed a piece
	now += 1_000_000
	if run.Hungry(0, next) {
		t.Fatal("Hungry(0) = true with no thief and no idle worker; want false")
	}
	for { // worker 1 drains its block, then steals from worker 0's
		if _, _, ok := run.Next(1); !ok {
			t.Fatal("worker 1 found nothing to steal")
		}
		if run.Stolen(1) {
			break
		}
	}
	if !run.Hungry(0, next) {
		t.Error("Hungry(0) = false after a theft from its range, held for a millisecond; want true")
	}
}

// TestHungryWhenOthersSteal: a worker whose Next took all that its range
// held cannot be robbed; it gives back its rest, held for over minHold, once
// a worker has stolen from any range since, though no one waits in Idle:
// thieves busy elsewhere would not wait for it until near the end of the
// loop. Before a steal it keeps its range.
func TestHungryWhenOthersSteal(t *testing.T) {
	var now int64
	// Three blocks of 999 items, each taken whole: three pieces of 333.
	run := stealingWith(partproto.Options{Grain: 999, Clock: func() int64 { return now }}).Start(0, 3*999, 3).(partproto.SplittingRun)
	for w := range 3 {
		if _, _, ok := run.Next(w); !ok {
			t.Fatalf("worker %d got no range", w)
		}
	}
	now += 1_000_000
	if run.Hungry(0, 333) {
		t.Fatal("Hungry(0, 333) = true with no thief and no idle worker; want false")
	}
	run.GiveBack(1, 999+333) // worker 1 hands back two pieces ...
	lo, hi, ok := run.Next(2)
	if !ok || !run.Stolen(2) || lo < 999+333 || hi > 2*999 {
		t.Fatalf("Next(2) = %d, %d, %v (stolen %v); want a steal from worker 1's range", lo, hi, ok, run.Stolen(2))
	}
	if !run.Hungry(0, 333) { // ... and worker 2 stole part of them
		t.Error("Hungry(0, 333) = false after a steal elsewhere, range held for a millisecond; want true")
	}
}

// TestHungryWhenRobbedNotOthers: a worker whose Next left items in its
// range, down to one, looks only at whether its own range was stolen from:
// of two such workers, the one a thief robbed gives its rest back, and the
// other keeps its range, though a steal happened (elsewhere).
func TestHungryWhenRobbedNotOthers(t *testing.T) {
	var now int64
	// Blocks of 334 items taken 333 at a time: workers 0 and 1 leave one
	// item each in their ranges, which worker 2 steals once its block is
	// done.
	run := stealingWith(partproto.Options{Grain: 333, Clock: func() int64 { return now }}).Start(0, 3*334, 3).(partproto.SplittingRun)
	var los [2]int
	for w := range 2 {
		lo, hi, ok := run.Next(w)
		if !ok || hi-lo != 333 {
			t.Fatalf("Next(%d) = %d, %d, %v; want 333 items of its block", w, lo, hi, ok)
		}
		los[w] = lo
	}
	now += 1_000_000
	for {
		if _, _, ok := run.Next(2); !ok {
			t.Fatal("worker 2 found nothing to steal")
		}
		if run.Stolen(2) {
			break
		}
	}
	robbed := -1
	for w := range 2 {
		next := los[w] + run.Piece(w)
		got := run.Hungry(w, next)
		if got {
			if robbed >= 0 {
				t.Fatalf("Hungry(%d, %d) = true as well as Hungry(%d); want one robbed worker", w, next, robbed)
			}
			robbed = w
		}
	}
	if robbed < 0 {
		t.Fatal("Hungry = false for both workers after a theft from one, held for a millisecond; want true for it")
	}
	if lo, hi, ok := run.Next(1 - robbed); !ok || hi-lo != 1 {
		t.Errorf("Next(%d) = %d, %d, %v; want the one item left in the range of the worker not robbed", 1-robbed, lo, hi, ok)
	}
}

// TestThiefFindsTheOnlyHolder: among 256 workers, a thief's first attempt
// goes to a worker that holds items to steal, and a worker whose items are
// all taken is tried no more: with two items, held by workers 0 and 1 (each
// takes its item and gives it back, as no thief takes from a worker that
// has not started), two thieves steal one each at their first attempt, and
// a third attempts nothing.
func TestThiefFindsTheOnlyHolder(t *testing.T) {
	for _, p := range []partition.Partitioner{partition.Auto(), partition.Stealing()} {
		run := p.Start(0, 2, 256).(partproto.SplittingRun)
		for _, w := range []int{0, 1} {
			lo, _, ok := run.Next(w)
			if !ok {
				t.Fatalf("%s: worker %d found nothing in its block", p.Name(), w)
			}
			run.GiveBack(w, lo)
		}
		for _, w := range []int{100, 200} {
			if _, _, ok := run.Next(w); !ok {
				t.Fatalf("%s: thief %d found nothing", p.Name(), w)
			}
			if c := run.Counts(w); c != (partproto.Counts{Steals: 1}) {
				t.Errorf("%s: thief %d counts %+v; want one steal, no failed attempt", p.Name(), w, c)
			}
		}
		if _, _, ok := run.Next(150); ok {
			t.Fatalf("%s: a third thief found a third item out of two", p.Name())
		}
		if c := run.Counts(150); c != (partproto.Counts{}) {
			t.Errorf("%s: thief 150 counts %+v with nothing left; want no attempt", p.Name(), c)
		}
	}
}

// TestQuietSkipsOnlyIdleHungry: where Quiet's word still holds its value,
// Hungry away from a range's last piece reports false and changes nothing.
// One goroutine drives two runs of each trial through the same random
// interleaving of their workers, on virtual clocks, over items whose last
// tenth is a hundred times dearer, so that workers wait, steal and give
// back: one driver calls Hungry after every piece, the other skips the
// calls Quiet allows, as pfor does. Every call made where Quiet allowed a
// skip must report false, and the two runs must hand out the same ranges,
// give back at the same points and idle alike.
func TestQuietSkipsOnlyIdleHungry(t *testing.T) {
	var quiet, stolen, gaveBack int
	for trial := range 48 {
		workers := []int{2, 3, 8, 64}[trial%4]
		n := []int{100, 1000, 5000}[trial%3]
		adaptive := trial%2 == 0
		var logs [2][]int
		for skip := range 2 {
			var now int64
			p := stealingWith(partproto.Options{Adaptive: adaptive, Clock: func() int64 { return now }})
			run := p.Start(0, n, workers).(partproto.SplittingRun)
			type state struct {
				next, hi, step int
				word           *atomic.Uint64
				calm           uint64
				holds, done    bool
			}
			ws := make([]state, workers)
			active := workers
			rng := rand.New(rand.NewPCG(uint64(trial), 0))
			log := func(v ...int) { logs[skip] = append(logs[skip], v...) }
			for steps := 0; active > 0; steps++ {
				if steps > 1_000_000 {
					t.Fatalf("trial %d: no end after %d steps", trial, steps)
				}
				w := rng.IntN(workers)
				me := &ws[w]
				if me.done {
					continue
				}
				if !me.holds {
					now += 40
					lo, hi, ok := run.Next(w)
					if !ok {
						idle := run.Idle(w)
						log(w, -1, b2i(idle))
						if !idle {
							me.done = true
							active--
						}
						continue
					}
					log(w, lo, hi)
					me.next, me.hi, me.step, me.holds = lo, hi, max(1, run.Piece(w)), true
					me.word, me.calm = run.Quiet(w)
					continue
				}
				end := me.next + min(me.step, me.hi-me.next)
				for i := me.next; i < end; i++ {
					now += 10
					if i >= n-n/10 {
						now += 990
					}
				}
				if me.next = end; me.next == me.hi {
					me.holds = false
					continue
				}
				calm := me.word != nil && me.word.Load() == me.calm && me.hi-me.next > me.step
				if calm {
					if skip == 1 {
						continue
					}
					quiet++
				}
				if run.Hungry(w, me.next) {
					if calm {
						t.Fatalf("trial %d (%d workers, %d items, adaptive %t): Hungry(%d, %d) = true where Quiet's word holds its value", trial, workers, n, adaptive, w, me.next)
					}
					run.GiveBack(w, me.next)
					log(w, -2, me.next)
					me.holds = false
					gaveBack++
				}
			}
			for w := range workers {
				stolen += int(run.Counts(w).Steals)
			}
		}
		if !slices.Equal(logs[0], logs[1]) {
			t.Errorf("trial %d (%d workers, %d items, adaptive %t): a driver that skips the calls of Hungry that Quiet allows diverges from one that makes them all", trial, workers, n, adaptive)
		}
	}
	if quiet == 0 || stolen == 0 || gaveBack == 0 {
		t.Errorf("%d calls of Hungry where Quiet allowed a skip, %d steals, %d give-backs; want some of each", quiet, stolen, gaveBack)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
