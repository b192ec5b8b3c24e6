package partition_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

func all() []partition.Partitioner {
	return []partition.Partitioner{
		partition.Static(),
		partition.Dynamic(1),
		partition.Dynamic(7),
		partition.Guided(1),
		partition.Guided(5),
		partition.Stealing(),
		stealingWith(partproto.Options{Grain: 3, Seed: 9}),
		partition.Auto(),
	}
}

// handOut drives a run with w concurrent workers and counts how often each
// index of [lo, lo+n) was handed out. Then it releases the run, as pfor
// does, so that the next run of its kind reuses it.
func handOut(p partition.Partitioner, lo, n, w int) ([]int32, error) {
	counts := make([]int32, n)
	run := p.Start(lo, lo+n, w)
	var mu sync.Mutex
	var bad error
	var wg sync.WaitGroup
	for me := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				a, b, ok := run.Next(me)
				if !ok {
					return
				}
				if b <= a || a < lo || b-lo > n {
					mu.Lock()
					bad = fmt.Errorf("Next(%d) = [%d, %d), outside [%d, %d) or empty", me, a, b, lo, lo+n)
					mu.Unlock()
					return
				}
				for i := a; i < b; i++ {
					counts[i-lo]++ // each index at most once, if the partitioner is right; -race checks
				}
				if me%2 == 1 {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	if r, ok := run.(partproto.Releaser); ok {
		r.Release()
	}
	return counts, bad
}

// TestExactlyOnce: every partitioner hands out each index of [lo, hi)
// exactly once, for 1 to 32 workers, GOMAXPROCS 1 to 32, empty and tiny
// ranges, and ranges touching MinInt and MaxInt.
func TestExactlyOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, procs := range []int{1, 2, 7, 32} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, p := range all() {
			for trial := range 12 {
				n := []int{0, 1, 2, 5, rng.IntN(100), rng.IntN(20000)}[trial%6]
				lo := []int{0, math.MinInt, math.MaxInt - n, -n / 3}[trial%4]
				w := []int{1, 2, 3, 8, 32}[trial%5]
				counts, err := handOut(p, lo, n, w)
				if err != nil {
					t.Fatalf("%s over [%d, %d) with %d workers: %v", p.Name(), lo, lo+n, w, err)
				}
				for j, c := range counts {
					if c != 1 {
						t.Fatalf("%s over [%d, %d) with %d workers, GOMAXPROCS=%d: index %d handed out %d times; want 1",
							p.Name(), lo, lo+n, w, procs, lo+j, c)
					}
				}
			}
		}
	}
}

// TestOneDriverAnyOrder: one goroutine may drive every worker of a run in
// any order, and with the same seed and order the run is the same.
func TestOneDriverAnyOrder(t *testing.T) {
	for _, p := range all() {
		for _, w := range []int{1, 2, 5} {
			trace := func() []string {
				rng := rand.New(rand.NewPCG(5, uint64(w)))
				run := p.Start(-50, 950, w)
				live := make([]int, w)
				for i := range live {
					live[i] = i
				}
				var out []string
				seen := make([]bool, 1000)
				for len(live) > 0 {
					k := rng.IntN(len(live))
					a, b, ok := run.Next(live[k])
					if !ok {
						live = append(live[:k], live[k+1:]...)
						continue
					}
					for i := a; i < b; i++ {
						if seen[i+50] {
							t.Fatalf("%s, %d workers: index %d handed out twice", p.Name(), w, i)
						}
						seen[i+50] = true
					}
					out = append(out, fmt.Sprintf("%d:[%d,%d)", live[k], a, b))
				}
				for i, s := range seen {
					if !s {
						t.Fatalf("%s, %d workers: index %d never handed out", p.Name(), w, i-50)
					}
				}
				return out
			}
			if p.Name() == "auto" {
				trace() // batch sizes follow the real clock: check coverage only
				continue
			}
			a, b := strings.Join(trace(), " "), strings.Join(trace(), " ")
			if a != b {
				t.Errorf("%s, %d workers: two runs driven identically differ:\n%s\n%s", p.Name(), w, a, b)
			}
		}
	}
}

func TestStaticBlocks(t *testing.T) {
	run := partition.Static().Start(0, 10, 3)
	var got []string
	for w := range 3 {
		for {
			a, b, ok := run.Next(w)
			if !ok {
				break
			}
			got = append(got, fmt.Sprintf("%d:[%d,%d)", w, a, b))
		}
	}
	if want := "0:[0,4) 1:[4,7) 2:[7,10)"; strings.Join(got, " ") != want {
		t.Errorf("Static over [0,10) for 3 workers: got %s; want %s", strings.Join(got, " "), want)
	}
}

func TestGuidedChunksShrink(t *testing.T) {
	run := partition.Guided(4).Start(0, 1000, 2)
	prev := math.MaxInt
	total := 0
	for {
		a, b, ok := run.Next(0)
		if !ok {
			break
		}
		n := b - a
		if n > prev || (n < 4 && b != 1000) {
			t.Fatalf("Guided(4): chunk [%d, %d) of %d items after one of %d; want non-increasing chunks of at least 4", a, b, n, prev)
		}
		prev = n
		total += n
	}
	if total != 1000 {
		t.Fatalf("Guided(4) handed out %d items; want 1000", total)
	}
	if first, _, _ := partition.Guided(1).Start(0, 1000, 2).Next(0); first != 0 {
		t.Fatalf("Guided first chunk starts at %d; want 0", first)
	}
}

// TestStealingStealsAndCounts: a worker that finishes its block steals from
// the other, once that one has started, owns the stolen chunk (Stolen
// reports it), and the counts add up; a worker that finds nothing left
// attempts no steal.
func TestStealingStealsAndCounts(t *testing.T) {
	run := partition.StealingWith(partition.StealingOptions{Grain: 10}).Start(0, 1000, 2).(partproto.StealingRun)
	// Worker 0 takes one batch; worker 1 drains its block, then must steal
	// from worker 0.
	if lo, hi, ok := run.Next(0); !ok || lo != 0 || hi != 10 {
		t.Fatalf("worker 0's first Next = [%d, %d), %v; want [0, 10), true", lo, hi, ok)
	}
	got := 10
	for {
		a, b, ok := run.Next(1)
		if !ok {
			break
		}
		if a < 500 && !run.Stolen(1) {
			t.Fatalf("worker 1 got [%d, %d) from worker 0's block but Stolen(1) is false", a, b)
		}
		got += b - a
	}
	c := run.Counts(1)
	if c.Steals < 5 {
		t.Errorf("worker 1 stole %d times; want at least 5 (each steal takes a quarter of what is left)", c.Steals)
	}
	if got != 1000 {
		t.Errorf("worker 1 got %d items and worker 0 10, worker 0 then idle; want all 1000", got)
	}
	if _, _, ok := run.Next(0); ok {
		t.Errorf("worker 0 got work after worker 1 drained everything")
	}
	if c0 := run.Counts(0); c0 != (partproto.Counts{}) {
		t.Errorf("worker 0 counts %+v; want no steal and no attempt (no worker holds items to steal)", c0)
	}
}

// TestAutoAdaptsBatches: with a clock that says each item costs 1 µs,
// adaptive batches settle at the 10 µs target, about 10 items; at 1 ns per
// item they grow to large batches, 8x per batch: 32, 256, 2,048, 10,000.
// A short loop's share takes few batches.
func TestAutoAdaptsBatches(t *testing.T) {
	for _, tc := range []struct {
		nsPerItem int64
		lo, hi    int
	}{{1000, 8, 12}, {1, 4096, 1 << 16}} {
		var now int64
		run := stealingWith(partproto.Options{Adaptive: true, Clock: func() int64 { return now }}).Start(0, 1<<24, 1)
		last := 0
		for range 40 {
			a, b, ok := run.Next(0)
			if !ok {
				break
			}
			last = b - a
			now += int64(last) * tc.nsPerItem
		}
		if last < tc.lo || last > tc.hi {
			t.Errorf("at %d ns per item the batch settled at %d items; want %d to %d", tc.nsPerItem, last, tc.lo, tc.hi)
		}
	}
	var now int64
	run := stealingWith(partproto.Options{Adaptive: true, Clock: func() int64 { return now }}).Start(0, 1<<24, 1)
	var got []int
	for range 4 {
		a, b, _ := run.Next(0)
		got = append(got, b-a)
		now += int64(b - a) // 1 ns per item
	}
	if want := []int{32, 256, 2048, 10_000}; !slices.Equal(got, want) {
		t.Errorf("batches at 1 ns per item: %v; want %v", got, want)
	}
}

// TestAutoTakesAShortRestAtOnce: a worker whose first batch measures the
// rest of its block at a target batch's time or less takes the rest in its
// next batch, however much more than 8x the first that is: on 2 workers'
// blocks of 500 items at 10 ns, 14 items (500/32, in whole pieces of
// 1/2), then 486. At 100 ns an item the rest would take longer, and the
// batches are the target's 100 items until the rest is fewer.
func TestAutoTakesAShortRestAtOnce(t *testing.T) {
	for _, tc := range []struct {
		nsPerItem int64
		want      []int
	}{{10, []int{14, 486}}, {100, []int{14, 100, 100, 100, 100, 86}}} {
		var now int64
		run := stealingWith(partproto.Options{Adaptive: true, Clock: func() int64 { return now }}).Start(0, 1000, 2)
		var got []int
		for {
			a, b, ok := run.Next(0)
			if !ok {
				break
			}
			got = append(got, b-a)
			now += int64(b-a) * tc.nsPerItem
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("worker 0's batches at %d ns per item: %v; want %v", tc.nsPerItem, got, tc.want)
		}
	}
	// A clock that does not move (items far cheaper than its tick) measures
	// any rest as short: the batches still stop growing at 65,536 items.
	run := stealingWith(partproto.Options{Adaptive: true, Clock: func() int64 { return 0 }}).Start(0, 1<<20, 1)
	for {
		a, b, ok := run.Next(0)
		if !ok {
			break
		}
		if b-a > 1<<16 {
			t.Fatalf("with a clock that does not move, a batch of %d items; want at most 65,536", b-a)
		}
	}
}

func TestBadInputPanics(t *testing.T) {
	for _, tc := range []struct {
		call string
		want string
		f    func()
	}{
		{"Dynamic(0)", "partition: Dynamic(0): chunk must be at least 1", func() { partition.Dynamic(0) }},
		{"Guided(-1)", "partition: Guided(-1): min must be at least 1", func() { partition.Guided(-1) }},
		{"Static().Start(5, 3, 2)", "partition: Static().Start(5, 3, 2): hi < lo", func() { partition.Static().Start(5, 3, 2) }},
		{"Auto().Start(0, 3, 0)", "partition: Auto().Start(0, 3, 0): workers must be at least 1", func() { partition.Auto().Start(0, 3, 0) }},
		{"Stealing().Start(5, 3, 2)", "partition: Stealing().Start(5, 3, 2): hi < lo", func() { partition.Stealing().Start(5, 3, 2) }},
		{"StealingWith(Grain: 8).Start(5, 3, 2)", "partition: StealingWith(StealingOptions{Grain: 8, Adaptive: false}).Start(5, 3, 2): hi < lo", func() {
			partition.StealingWith(partition.StealingOptions{Grain: 8}).Start(5, 3, 2)
		}},
		{"Dynamic(4).Start(5, 3, 2)", "partition: Dynamic(4).Start(5, 3, 2): hi < lo", func() { partition.Dynamic(4).Start(5, 3, 2) }},
		{"Guided(2).Start(0, 3, 0)", "partition: Guided(2).Start(0, 3, 0): workers must be at least 1", func() { partition.Guided(2).Start(0, 3, 0) }},
		{"StealingWith(Grain: -2)", "Grain -2 is negative", func() { partition.StealingWith(partition.StealingOptions{Grain: -2}) }},
		{"Stealing().WithGrain(0)", "partition: Stealing().WithGrain(0): grain must be at least 1", func() { partition.Stealing().(partition.Grained).WithGrain(0) }},
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Errorf("%s: panic %v; want one containing %q", tc.call, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

func TestNames(t *testing.T) {
	want := []string{"static", "dynamic", "dynamic", "guided", "guided", "stealing", "stealing", "auto"}
	for i, p := range all() {
		if p.Name() != want[i] {
			t.Errorf("partitioner %d: Name() = %q; want %q", i, p.Name(), want[i])
		}
	}
}

// TestWorkerOutOfRange: every run panics, naming the package, the
// partitioner, its workers and w, when a method that takes a worker gets
// one outside [0, workers): below 0, at workers and far above.
func TestWorkerOutOfRange(t *testing.T) {
	expect := func(t *testing.T, call, want string, f func()) {
		t.Helper()
		defer func() {
			if r := recover(); fmt.Sprint(r) != want {
				t.Errorf("%s: panic %v; want %q", call, r, want)
			}
		}()
		f()
	}
	for _, p := range all() {
		for _, w := range []int{-1, 2, 3, math.MaxInt, math.MinInt} {
			run := p.Start(0, 100, 2)
			run.Next(1) // a run in progress: its checks are not Start's
			prefix := fmt.Sprintf("partition: %s run of 2 workers: ", p.Name())
			expect(t, fmt.Sprintf("%s: Next(%d)", p.Name(), w), prefix+fmt.Sprintf("Next(%d): worker out of range", w), func() { run.Next(w) })
			split, ok := run.(partproto.SplittingRun)
			if !ok {
				continue
			}
			for call, f := range map[string]func(){
				"Hungry":   func() { split.Hungry(w, 1) },
				"GiveBack": func() { split.GiveBack(w, 1) },
				"Idle":     func() { split.Idle(w) },
				"Piece":    func() { split.Piece(w) },
				"Counts":   func() { split.Counts(w) },
				"Stolen":   func() { split.Stolen(w) },
			} {
				expect(t, fmt.Sprintf("%s: %s(%d)", p.Name(), call, w), prefix+fmt.Sprintf("%s(%d): worker out of range", call, w), f)
			}
		}
	}
}
