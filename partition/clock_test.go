package partition_test

import (
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// clockReads drives worker 0 of a 1-worker run of p over n items, each item
// costing cost(i) ns of a virtual clock, and reports for each Next that
// returned a range whether it read the clock. The last Next, which finds
// nothing, reads none (TestNextFindingNothingReadsNoClock).
func clockReads(p func(clock func() int64) partition.Partitioner, n int, cost func(i int) int64) []bool {
	var now int64
	reads := 0
	run := p(func() int64 { reads++; return now }).Start(0, n, 1)
	var read []bool
	for {
		before := reads
		lo, hi, ok := run.Next(0)
		if !ok {
			return read
		}
		read = append(read, reads > before)
		for i := lo; i < hi; i++ {
			now += cost(i)
		}
	}
}

// gaps returns the longest run of Nexts without a clock reading, and the
// number of readings.
func gaps(read []bool) (longest, readings int) {
	run := 0
	for _, r := range read {
		if r {
			readings++
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest, readings
}

func grainOne(clock func() int64) partition.Partitioner {
	return stealingWith(partproto.Options{Grain: 1, Clock: clock})
}

// TestStealingReadsTheClockAboutEveryMicrosecond: a run with a fixed grain
// reads the clock when the ranges since its last reading may have taken a
// microsecond, and at least every 17th Next; on ranges longer than that, at
// every Next.
func TestStealingReadsTheClockAboutEveryMicrosecond(t *testing.T) {
	for _, tc := range []struct {
		nsPerItem   int64
		longestSkip int // Nexts in a row without a reading
	}{
		{10_000, 0}, // every range is over a microsecond
		{100, 9},    // ten 100 ns ranges make a microsecond
		{20, 16},    // fifty would: the bound on skipped Nexts comes first
	} {
		read := clockReads(grainOne, 5_000, func(int) int64 { return tc.nsPerItem })
		if longest, _ := gaps(read); longest != tc.longestSkip {
			t.Errorf("%d ns per item: %d Nexts in a row did not read the clock; want %d", tc.nsPerItem, longest, tc.longestSkip)
		}
	}
}

// TestStealingNoticesDearerItems: after the items turn a hundred times
// dearer, a run with a fixed grain reads the clock again within 17 Nexts
// (a reading that still averages in cheap items), and from the 34th Next on,
// at every Next.
func TestStealingNoticesDearerItems(t *testing.T) {
	const jump = 2_000
	read := clockReads(grainOne, 4_000, func(i int) int64 {
		if i < jump {
			return 20
		}
		return 2_000
	})
	// With grain 1, Next k+1 is the first to follow item k.
	first := -1
	for k := jump + 1; k < len(read); k++ {
		if read[k] {
			first = k
			break
		}
	}
	if first < 0 || first > jump+17 {
		t.Fatalf("first clock reading after the jump at Next %d; want one by Next %d", first, jump+17)
	}
	if longest, _ := gaps(read[jump+34:]); longest != 0 {
		t.Errorf("from Next %d on, %d Nexts in a row did not read the clock; want every Next to", jump+34, longest)
	}
}

// TestAutoReadsTheClockAtEveryNext: adaptive batches are sized from every
// reading, however cheap the items: every Next that hands out a range reads
// the clock.
func TestAutoReadsTheClockAtEveryNext(t *testing.T) {
	auto := func(clock func() int64) partition.Partitioner {
		return stealingWith(partproto.Options{Adaptive: true, Clock: clock})
	}
	read := clockReads(auto, 1<<16, func(int) int64 { return 1 })
	if longest, readings := gaps(read); longest != 0 {
		t.Errorf("%d Nexts in a row did not read the clock (%d readings in %d Nexts); want every Next to", longest, readings, len(read))
	}
}

// TestNextFindingNothingReadsNoClock: a Next that finds nothing, with its
// worker's range empty and nothing to steal, reads no clock, however often
// an idle worker polls; a Next that steals reads it before it sizes the
// stolen chunk's batches, so that they and the give-back (Hungry) are
// timed from the steal.
func TestNextFindingNothingReadsNoClock(t *testing.T) {
	for _, adaptive := range []bool{false, true} {
		var now int64
		reads := 0
		p := stealingWith(partproto.Options{Adaptive: adaptive, Clock: func() int64 { reads++; return now }})
		run := p.Start(0, 1000, 2).(partproto.StealingRun)
		for { // worker 1 has not started: its block is not stolen from
			before := reads
			lo, hi, ok := run.Next(0)
			if !ok {
				if reads != before {
					t.Errorf("%s: worker 0's Next that found nothing read the clock %d times; want none", p.Name(), reads-before)
				}
				break
			}
			now += int64(hi - lo)
		}
		before := reads
		for range 3 {
			if _, _, ok := run.Next(0); ok {
				t.Fatalf("%s: worker 0 polled, worker 1 not started: Next returned a range", p.Name())
			}
		}
		if reads != before {
			t.Errorf("%s: 3 polls that found nothing read the clock %d times; want none", p.Name(), reads-before)
		}
		run.Next(1) // worker 1 starts: the rest of its block can be stolen
		before = reads
		if _, _, ok := run.Next(0); !ok || !run.Stolen(0) {
			t.Fatalf("%s: worker 0's Next after worker 1 started: ok %v, stolen %v; want a stolen range", p.Name(), ok, run.Stolen(0))
		}
		if reads == before {
			t.Errorf("%s: worker 0's Next that stole read no clock; want a reading", p.Name())
		}
	}
}

// TestStealingShortCallReadings: one goroutine drives a 2-worker Stealing
// run of 1,000 items of 1 ns, worker 0 until it finds nothing and then
// worker 1, as pfor's caller does when its helper has not come. Worker 0
// takes its block in 3 batches (32 items, then halves of its block) and
// reads the clock twice, at its first Next and after its first batch, whose
// cost sizes the pieces of the larger batches; its third batch, after a
// range of under clockEvery, reads none, and neither does the Next that
// finds nothing. Worker 1 starts at the cost worker 0 measured: it takes
// its block in halves, and reads no clock.
func TestStealingShortCallReadings(t *testing.T) {
	var now int64
	reads := 0
	p := stealingWith(partproto.Options{Clock: func() int64 { reads++; return now }})
	run := p.Start(0, 1000, 2).(partproto.SplittingRun)
	items := 0
	for w := range 2 {
		nexts, before := 0, reads
		for {
			nexts++
			lo, hi, ok := run.Next(w)
			if !ok {
				if run.Idle(w) {
					t.Fatalf("worker %d: Idle reported a range held by another worker; want none", w)
				}
				break
			}
			items += hi - lo
			now += int64(hi - lo)
		}
		if want := [2][2]int{{4, 2}, {3, 0}}[w]; nexts != want[0] || reads-before != want[1] {
			t.Errorf("worker %d: %d Nexts and %d clock readings; want %d and %d", w, nexts, reads-before, want[0], want[1])
		}
	}
	if items != 1000 {
		t.Errorf("the run handed out %d items; want 1000", items)
	}
}
