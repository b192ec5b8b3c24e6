package partition_test

import (
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// TestStealingBatchesScaleWithTheCall: on even work, driven round-robin so
// that no worker runs ahead, each worker of a Stealing run takes its block
// in at most workers+1 batches (a first one of at most 32 items, then
// 1/workers of the block at a time) and one more Next finds nothing,
// however many items the call has: a call of 1,000 items is a handful of
// takes, not hundreds.
func TestStealingBatchesScaleWithTheCall(t *testing.T) {
	for _, n := range []int{1000, 100_000, 1 << 24} {
		for _, workers := range []int{2, 8} {
			run := partition.Stealing().Start(0, n, workers)
			nexts := make([]int, workers)
			items := 0
			for live := workers; live > 0; {
				live = 0
				for w := range workers {
					nexts[w]++
					if lo, hi, ok := run.Next(w); ok {
						items += hi - lo
						live++
					}
				}
			}
			if items != n {
				t.Fatalf("%d items, %d workers: the run handed out %d items", n, workers, items)
			}
			for w, got := range nexts {
				if want := workers + 2; got > want {
					t.Errorf("%d items, %d workers: worker %d called Next %d times; want at most %d", n, workers, w, got, want)
				}
			}
		}
	}
}

// TestStealingManyWorkersCheapCall: with 256 workers over 2^20 items a
// worker's block is 4,096 items, of which 1/workers would be 16: batches
// are at least 1/(96*workers) of the call's items instead, 42, and a
// worker takes its block in 98 batches and one Next that finds nothing.
// (The clock stands still: the workers that have not started are not late.)
func TestStealingManyWorkersCheapCall(t *testing.T) {
	const n, workers = 1 << 20, 256
	run := stealingWith(partproto.Options{Clock: func() int64 { return 0 }}).Start(0, n, workers)
	for w := range workers {
		nexts := 0
		for {
			nexts++
			if _, _, ok := run.Next(w); !ok {
				break
			}
		}
		if nexts != 99 {
			t.Fatalf("worker %d called Next %d times to take its block; want 99", w, nexts)
		}
	}
}

// TestStealingLeavesUnstartedBlocks: a worker that has not called Next is
// not stolen from by a worker that has run for less than lateStart (here the
// clock stands still): a worker that drains its block finds nothing more,
// and the other then takes its whole block in a few batches as its owner,
// as pfor's caller does for the slot of a helper that has not come.
func TestStealingLeavesUnstartedBlocks(t *testing.T) {
	run := stealingWith(partproto.Options{Clock: func() int64 { return 0 }}).Start(0, 1000, 2).(partproto.StealingRun)
	for {
		if _, _, ok := run.Next(1); !ok {
			break
		}
	}
	if c := run.Counts(1); c != (partproto.Counts{}) {
		t.Errorf("worker 1, worker 0 not started: counts %+v; want no steal and no attempt", c)
	}
	got, nexts := 0, 0
	for {
		nexts++
		lo, hi, ok := run.Next(0)
		if !ok {
			break
		}
		got += hi - lo
	}
	if got != 500 || nexts > 4 {
		t.Errorf("worker 0 took %d items in %d Nexts; want its block of 500 in at most 4", got, nexts)
	}
}

// TestStealingStolenChunksInParts: a thief takes each chunk it steals in
// batches of at most 1/workers of the chunk, so that other thieves find
// most of it in its range, rather than in one batch hidden from them.
func TestStealingStolenChunksInParts(t *testing.T) {
	const workers = 2
	run := partition.Stealing().Start(0, 1000, workers).(partproto.StealingRun)
	run.Next(0) // worker 0 starts, and its block can be stolen from; then it stops
	var chunk [][2]int
	check := func() {
		total := 0
		for _, r := range chunk {
			total += r[1] - r[0]
		}
		for _, r := range chunk {
			if r[1]-r[0] > max(total/workers, 1) {
				t.Errorf("worker 1 took [%d, %d) of a stolen chunk of %d items; want at most %d at a time", r[0], r[1], total, max(total/workers, 1))
			}
		}
		chunk = chunk[:0]
	}
	steals := int64(0)
	for {
		lo, hi, ok := run.Next(1)
		if !ok {
			break
		}
		if s := run.Counts(1).Steals; s != steals {
			check() // the ranges of the chunk stolen before
			steals = s
		}
		if run.Stolen(1) {
			chunk = append(chunk, [2]int{lo, hi})
		}
	}
	check()
	if steals < 5 {
		t.Errorf("worker 1 stole %d times; want at least 5", steals)
	}
}

// TestStealingBatchAfterGiveBack: after a worker gives back the rest of a
// batch, its next batch is 1/workers of what its range then holds, and the
// rest stays there for the thieves; a batch as large as before would take
// back at once what was given to them.
func TestStealingBatchAfterGiveBack(t *testing.T) {
	run := partition.Stealing().Start(0, 1000, 2).(partproto.SplittingRun)
	run.Next(0) // the first batch, [0, 32)
	lo, hi, _ := run.Next(0)
	if lo != 32 || hi != 282 {
		t.Fatalf("worker 0's second batch [%d, %d); want [32, 282): half of its block", lo, hi)
	}
	run.GiveBack(0, 250) // worker 0's range now holds [250, 500)
	if lo, hi, _ := run.Next(0); lo != 250 || hi != 375 {
		t.Errorf("worker 0's batch after giving back [250, 282): [%d, %d); want [250, 375)", lo, hi)
	}
	for {
		if _, _, ok := run.Next(1); !ok || run.Stolen(1) {
			break
		}
	}
	if !run.Stolen(1) {
		t.Errorf("worker 1 found nothing to steal after worker 0's give-back; want the rest of worker 0's range")
	}
}

// TestStealingBalancesEveryShape: in virtual time, driven as pfor drives it,
// Stealing finishes within 3% (plus one heavy item) of the ideal makespan,
// total/workers, for every cost shape with 2 workers, and within 12% with 3
// to 64, its batches of a part of each range notwithstanding: a thief takes
// what it steals, and a worker what it gives back, in parts again. (What
// the bound leaves room for: a batch sized from cheap items that reaches
// dear ones, its pieces sized from the cheap ones too, while the other
// workers are busy with other dear items and none asks for a give-back.)
func TestStealingBalancesEveryShape(t *testing.T) {
	const n = 100_000
	for name, cost := range shapes(n) {
		total, most := costTotals(n, cost)
		for _, workers := range []int{2, 3, 8, 16, 64} {
			var clock int64
			p := stealingWith(partproto.Options{Clock: func() int64 { return clock }})
			got := simulate(p.Start(0, n, workers), workers, cost, perNext, perPiece, &clock)
			ideal := total / int64(workers)
			limit := ideal + ideal*12/100 + most
			if workers == 2 {
				limit = ideal + ideal*3/100 + most
			}
			if got > limit {
				t.Errorf("%s, %d workers: stealing makespan %d ns; want at most %d (ideal %d)", name, workers, got, limit, ideal)
			}
			t.Logf("%-10s %2d workers: stealing %.3f x ideal", name, workers, float64(got)/float64(ideal))
		}
	}
}

// TestLateBlocksAreStolen: a worker that has run for over lateStart (200
// µs) and finds nothing to steal steals from the block of a worker that has
// not called Next, as when the operating system keeps that worker's thread
// off its core, whichever of the two is late; every item is handed out
// once. A worker whose block took less (100 µs) finds nothing, as before.
func TestLateBlocksAreStolen(t *testing.T) {
	for _, adaptive := range []bool{false, true} {
		for late := range 2 {
			for _, perItem := range []int64{200, 1000} { // ns: a block of 500 items takes 100 µs or 500 µs
				var now int64
				run := stealingWith(partproto.Options{Adaptive: adaptive, Clock: func() int64 { return now }}).Start(0, 1000, 2).(partproto.StealingRun)
				seen := make([]bool, 1000)
				take := func(w int) bool {
					lo, hi, ok := run.Next(w)
					for i := lo; i < hi; i++ {
						if seen[i] {
							t.Fatalf("adaptive %v: item %d handed out twice", adaptive, i)
						}
						seen[i] = true
					}
					now += int64(hi-lo) * perItem
					return ok
				}
				early := 1 - late
				for i := 0; i < 500; i++ {
					if !take(early) {
						break
					}
				}
				stole := run.Counts(early)
				if perItem == 200 && stole != (partproto.Counts{}) {
					t.Errorf("adaptive %v, worker %d late, block of 100 µs: counts %+v; want no steal and no attempt", adaptive, late, stole)
				}
				if perItem == 1000 && stole.Steals == 0 {
					t.Errorf("adaptive %v, worker %d late, block of 500 µs: counts %+v; want a steal from the late block", adaptive, late, stole)
				}
				for live := true; live; {
					live = take(late)
					live = take(early) || live
				}
				for i, ok := range seen {
					if !ok {
						t.Fatalf("adaptive %v, worker %d late, %d ns an item: item %d never handed out", adaptive, late, perItem, i)
					}
				}
			}
		}
	}
}

// TestStealingSeedsLateWorkers: in a Stealing run, a worker whose first
// Next comes after another worker has measured its first batch starts at
// that cost: its first batch is its grain (half its block, with 2 workers),
// in pieces sized from that cost, not maxFirstBatch items in pieces of an
// unknown cost. A worker that comes first, and each worker of a run reused
// after it, starts with the small first batch.
func TestStealingSeedsLateWorkers(t *testing.T) {
	var now int64
	p := stealingWith(partproto.Options{Clock: func() int64 { return now }})
	for round := range 3 {
		run := p.Start(0, 1000, 2).(partproto.SplittingRun)
		first := round % 2 // who comes first: worker 0, then 1, then 0
		late := 1 - first
		lo, hi, _ := run.Next(first)
		if hi-lo != 32 || run.Piece(first) != 16 {
			t.Fatalf("round %d: worker %d's first batch [%d, %d) in pieces of %d; want 32 items in pieces of 16", round, first, lo, hi, run.Piece(first))
		}
		now += 32 // 1 ns an item
		if lo, hi, _ = run.Next(first); hi-lo != 250 {
			t.Fatalf("round %d: worker %d's second batch [%d, %d); want 250 items", round, first, lo, hi)
		}
		lo, hi, _ = run.Next(late)
		if start := late * 500; lo != start || hi != start+250 || run.Piece(late) != 250 {
			t.Errorf("round %d: worker %d's first batch [%d, %d) in pieces of %d, after worker %d measured 1 ns an item; want [%d, %d) in one piece",
				round, late, lo, hi, run.Piece(late), first, start, start+250)
		}
		run.(partproto.Releaser).Release()
	}
}

// TestStealingSeededWorkerTimesAtGiveBack: a seeded worker (see
// TestStealingSeedsLateWorkers) reads no clock until its first give-back
// check, which starts timing its range instead of giving back: a waiting
// worker gets the rest once the range has been held for minHold from
// there.
func TestStealingSeededWorkerTimesAtGiveBack(t *testing.T) {
	var now int64
	reads := 0
	p := stealingWith(partproto.Options{Clock: func() int64 { reads++; return now }})
	run := p.Start(0, 100_000, 2).(partproto.SplittingRun)
	run.Next(0) // [0, 32)
	now += 32 * 100
	run.Next(0) // measures 100 ns an item
	before := reads
	lo, hi, _ := run.Next(1)
	if reads != before || hi-lo != 25_000 {
		t.Fatalf("worker 1's first Next read the clock %d times and took [%d, %d); want none and 25,000 items", reads-before, lo, hi)
	}
	piece := run.Piece(1)
	// Worker 0 runs out and waits: it takes what is left of its block and
	// steals from worker 1's range, which it then waits on.
	for {
		if _, _, ok := run.Next(0); !ok {
			break
		}
	}
	if !run.Idle(0) {
		t.Fatalf("worker 0 does not wait for worker 1, which holds a range of %d pieces", (hi-lo)/piece)
	}
	next := lo + piece
	now += int64(piece) * 1000 // ten times dearer than measured
	before = reads
	if run.Hungry(1, next) {
		t.Fatalf("worker 1 gave back at its first check, untimed; want it to start timing there")
	}
	if reads != before+1 {
		t.Fatalf("worker 1's first give-back check read the clock %d times; want 1", reads-before)
	}
	now += int64(piece) * 1000
	if !run.Hungry(1, next+piece) {
		t.Errorf("worker 1 kept its range, held for %d ns since its first check while worker 0 waits; want a give-back", int64(piece)*1000)
	}
}
