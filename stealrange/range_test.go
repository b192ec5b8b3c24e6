package stealrange

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"
)

func mustPanic(t *testing.T, call string, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("%s did not panic; want a panic containing %q", call, want)
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Fatalf("%s panicked with %q; want it to contain %q", call, msg, want)
		}
	}()
	f()
}

func TestBadInputPanicsNamingValues(t *testing.T) {
	mustPanic(t, "New(5, 3)", "stealrange: New(5, 3): hi < lo", func() { New(5, 3) })
	r := New(0, 10)
	mustPanic(t, "TryTake(0)", "stealrange: TryTake(0): max must be at least 1", func() { r.TryTake(0) })
	mustPanic(t, "TryTake(-7)", "TryTake(-7)", func() { r.TryTake(-7) })
	mustPanic(t, "Reset(2, 1)", "stealrange: Reset(2, 1): hi < lo", func() { r.Reset(2, 1) })
	mustPanic(t, "StealFrom(nil)", "stealrange: StealFrom(nil)", func() { r.StealFrom(nil) })
	mustPanic(t, "GiveBack(3) with no batch taken", "stealrange: GiveBack(3): no batch taken to give back", func() { New(0, 10).GiveBack(3) })
	g := New(0, 10)
	g.TryTake(4)
	mustPanic(t, "GiveBack(20) after a take of [0, 4)", "stealrange: GiveBack(20): not within the last batch taken [0, 4)", func() { g.GiveBack(20) })
}

// TestOwnerTakesInOrder: without thieves, the owner gets every index once, in
// ascending order, in batches of at most max items, at the ends of the int
// domain too.
func TestOwnerTakesInOrder(t *testing.T) {
	for _, tc := range []struct{ lo, hi, max int }{
		{0, 0, 1}, {0, 1, 1}, {0, 1, 5}, {-3, 17, 1}, {-3, 17, 4}, {0, 1000, 16},
		{math.MinInt, math.MinInt + 9, 2}, {math.MaxInt - 9, math.MaxInt, 3},
		{math.MaxInt - 1, math.MaxInt, 1}, {math.MinInt, math.MinInt + 1, 1},
	} {
		r := New(tc.lo, tc.hi)
		next := tc.lo
		for {
			lo, hi, ok := r.TryTake(tc.max)
			if !ok {
				break
			}
			if lo != next || hi <= lo || hi-lo > tc.max {
				t.Fatalf("New(%d, %d).TryTake(%d) = [%d, %d); want a non-empty batch starting at %d of at most %d items",
					tc.lo, tc.hi, tc.max, lo, hi, next, tc.max)
			}
			next = hi
		}
		if next != tc.hi {
			t.Fatalf("New(%d, %d): owner stopped at %d; want %d", tc.lo, tc.hi, next, tc.hi)
		}
		if _, _, ok := r.TryTake(1); ok {
			t.Fatalf("New(%d, %d): TryTake after exhaustion succeeded", tc.lo, tc.hi)
		}
	}
}

// TestWholeDomain: a range over (almost) all ints splits without overflow.
func TestWholeDomain(t *testing.T) {
	r := New(math.MinInt, math.MaxInt)
	lo, hi, ok := r.TrySteal()
	if !ok || hi != math.MaxInt || lo <= 0 {
		t.Fatalf("TrySteal on [MinInt, MaxInt) = [%d, %d), %v; want the top quarter ending at MaxInt", lo, hi, ok)
	}
	first, _ := r.TryTakeOne()
	if first != math.MinInt {
		t.Fatalf("TryTakeOne after a steal = %d; want MinInt", first)
	}
}

// TestStealTakesTopQuarter: a thief takes about a quarter of what is left,
// from the top, and the owner keeps the rest.
func TestStealTakesTopQuarter(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 8, 100, 1001} {
		r := New(0, n)
		lo, hi, ok := r.TrySteal()
		want := (n + 3) / 4
		if !ok || hi != n || hi-lo != want {
			t.Fatalf("New(0, %d).TrySteal() = [%d, %d), %v; want [%d, %d)", n, lo, hi, ok, n-want, n)
		}
		got := 0
		for {
			a, b, ok := r.TryTake(3)
			if !ok {
				break
			}
			got += b - a
		}
		if got != n-want {
			t.Fatalf("New(0, %d): owner took %d items after the steal; want %d", n, got, n-want)
		}
	}
}

// TestOwnerOperationsDoNotAllocate: owner takes below the steal range
// allocate nothing.
func TestOwnerOperationsDoNotAllocate(t *testing.T) {
	r := New(0, math.MaxInt)
	if a := testing.AllocsPerRun(1000, func() { r.TryTakeOne() }); a != 0 {
		t.Errorf("TryTakeOne allocates %v times per call; want 0", a)
	}
	if a := testing.AllocsPerRun(1000, func() { r.TryTake(256) }); a != 0 {
		t.Errorf("TryTake(256) allocates %v times per call; want 0", a)
	}
}

// TestStealAllocationsLogarithmic: over a range's whole life (steals until
// nothing is stealable, then the owner drains it taking one by one, so every
// shrink happens) the protocol allocates O(log n) spans.
func TestStealAllocationsLogarithmic(t *testing.T) {
	for _, n := range []int{16, 1 << 10, 1 << 16} {
		allocs := testing.AllocsPerRun(5, func() {
			r := New(0, n)
			for i := 0; i < n/8; i++ {
				if _, ok := r.TryTakeOne(); !ok {
					break
				}
				r.TrySteal()
			}
			for {
				if _, ok := r.TryTakeOne(); !ok {
					break
				}
			}
		})
		bound := 12 * math.Log2(float64(n)) // every change cuts what is left to 3/4: log_{4/3} 2 ~ 2.4 per halving, twice (steals and shrinks)
		if allocs > bound {
			t.Errorf("a range of %d items allocated %v times over its life; want at most %.0f (O(log n))", n, allocs, bound)
		}
		t.Logf("n=%d: %v allocations over the range's life (New included)", n, allocs)
	}
}

// TestStealable: Stealable reports what the next TrySteal takes, and 0 once
// nothing is left to steal.
func TestStealable(t *testing.T) {
	r := New(10, 110)
	check := func(step string) {
		t.Helper()
		want := r.Stealable()
		lo, hi, ok := r.TrySteal()
		if got := hi - lo; got != want || ok != (want > 0) {
			t.Errorf("after %s: Stealable() = %d; the next TrySteal took %d (ok %v)", step, want, got, ok)
		}
	}
	check("New(10, 110)")
	r.TryTake(30)
	check("TryTake(30)")
	for _, _, ok := r.TryTake(7); ok; _, _, ok = r.TryTake(7) {
	}
	if got := r.Stealable(); got != 0 {
		t.Errorf("after draining: Stealable() = %d; want 0", got)
	}
	check("draining")
	r.Reset(-5, 5)
	check("Reset(-5, 5)")
	lo, _, _ := r.TryTake(4)
	r.GiveBack(lo + 1)
	check("GiveBack")
}

// TestRemaining: Remaining counts what is left above the owner's takes,
// less what thieves took, and 0 once the range is exhausted.
func TestRemaining(t *testing.T) {
	r := New(10, 110)
	check := func(step string, want int) {
		t.Helper()
		if got := r.Remaining(); got != want {
			t.Errorf("after %s: Remaining() = %d; want %d", step, got, want)
		}
	}
	check("New(10, 110)", 100)
	r.TryTake(30)
	check("TryTake(30)", 70)
	lo, hi, _ := r.TrySteal()
	check("a steal of [lo, hi)", 70-(hi-lo))
	for _, _, ok := r.TryTake(7); ok; _, _, ok = r.TryTake(7) {
	}
	check("draining", 0)
	r.Reset(-5, 5)
	check("Reset(-5, 5)", 10)
}

// TestReusedRangesDoNotAllocate: a pair of Ranges reused for run after run,
// one owner taking (shrinking its steal range), giving back and stealing
// from the other with StealFrom until nothing is left, allocates nothing
// once their blocks hold what one run installs.
func TestReusedRangesDoNotAllocate(t *testing.T) {
	var a, b Range
	steals := 0
	run := func() {
		a.Reuse(0, 500)
		b.Reuse(500, 1000)
		steals = 0
		for {
			lo, hi, ok := a.TryTake(3)
			if !ok {
				if _, _, ok := a.StealFrom(&b); !ok {
					break
				}
				steals++
				continue
			}
			if lo%2 == 0 && hi-lo > 1 {
				a.GiveBack(lo + 1)
			}
		}
	}
	run()
	if steals < 10 {
		t.Fatalf("a run made %d steals; want a run that installs many spans", steals)
	}
	if got := testing.AllocsPerRun(20, run); got != 0 {
		t.Errorf("a reused pair of Ranges allocates %v times per run; want 0", got)
	}
}

// TestOwnerCarveEpochs: within an epoch every span ownerCarve hands out has
// an address of its own, across the ends of blocks and after unSpan hands
// one back; Reuse starts the next epoch at the first block, so that an
// epoch that installs as many spans as the last allocates no block.
func TestOwnerCarveEpochs(t *testing.T) {
	var r Range
	const full = 2 + 4 + 8 + 16 + 16 // fills five blocks exactly
	// Epochs that end in the first block, in the second, and in the last.
	for epoch, installs := range []int{full, 2, full, 3, full, 46, full} {
		r.Reuse(0, 1000) // installs one span
		seen := map[*span]int{r.steal.Load(): 0}
		for i := 1; i < installs; i++ {
			s := r.ownerCarve(uint64(i), 1000)
			if i%7 == 0 { // a failed CAS: the span goes back and comes out again
				r.unSpan()
				if again := r.ownerCarve(uint64(i), 1000); again != s {
					t.Fatalf("epoch %d: ownerCarve after unSpan = %p; want the span handed back, %p", epoch, again, s)
				}
			}
			if j, dup := seen[s]; dup {
				t.Fatalf("epoch %d: install %d got the span of install %d", epoch, i, j)
			}
			seen[s] = i
			if want := carveMid(uint64(i), 1000); s.mid != want || s.end != 1000 {
				t.Fatalf("epoch %d: ownerCarve(%d, 1000) = [%d, %d); want [%d, 1000)", epoch, i, s.mid, s.end, want)
			}
		}
		if len(r.blocks) != 5 {
			t.Fatalf("epoch %d: %d installs left %d blocks; want 5", epoch, installs, len(r.blocks))
		}
	}
}

// TestRangeSize: a Range fills two cache lines on 64-bit platforms (see the
// end of Range), and fits in them on 32-bit ones, whose slices are smaller.
func TestRangeSize(t *testing.T) {
	got := unsafe.Sizeof(Range{})
	if unsafe.Sizeof(uintptr(0)) == 8 && got != 128 || got > 128 {
		t.Errorf("unsafe.Sizeof(Range{}) = %d on %d-byte words; want 128 on 64-bit platforms, at most 128 on others", got, unsafe.Sizeof(uintptr(0)))
	}
}

// TestZeroRange: a zero Range is an empty range, ready for use: every
// operation finds nothing, from the owner and from thieves, a thief's
// StealFrom gets nothing from it, and a Reset (or Reuse) of it hands out
// each index of its new range once.
func TestZeroRange(t *testing.T) {
	var r Range
	if i, ok := r.TryTakeOne(); ok {
		t.Errorf("zero Range: TryTakeOne() = %d, true; want false", i)
	}
	if lo, hi, ok := r.TryTake(4); ok {
		t.Errorf("zero Range: TryTake(4) = %d, %d, true; want false", lo, hi)
	}
	if lo, hi, ok := r.TrySteal(); ok {
		t.Errorf("zero Range: TrySteal() = %d, %d, true; want false", lo, hi)
	}
	if lo, hi, ok := New(0, 0).StealFrom(&r); ok {
		t.Errorf("zero Range: New(0, 0).StealFrom(it) = %d, %d, true; want false", lo, hi)
	}
	if n := r.Stealable(); n != 0 {
		t.Errorf("zero Range: Stealable() = %d; want 0", n)
	}
	if n := r.Remaining(); n != 0 {
		t.Errorf("zero Range: Remaining() = %d; want 0", n)
	}
	mustPanic(t, "zero Range: GiveBack(0)", "stealrange: GiveBack(0): no batch taken to give back", func() { r.GiveBack(0) })

	for name, start := range map[string]func(r *Range){
		"Reset(3, 40)": func(r *Range) { r.Reset(3, 40) },
		"Reuse(3, 40)": func(r *Range) { r.Reuse(3, 40) },
		"StealFrom(New(3, 40))": func(r *Range) {
			v := New(3, 40)
			if _, _, ok := r.StealFrom(v); !ok {
				t.Fatalf("zero Range: StealFrom(New(3, 40)) = false; want a chunk")
			}
			v.Reset(0, 0) // what r did not get is dropped: count what r got
		},
	} {
		var r Range
		start(&r)
		want := r.Remaining()
		seen := map[int]bool{}
		if lo, hi, ok := r.TrySteal(); ok { // a thief first, then the owner takes the rest
			for i := lo; i < hi; i++ {
				seen[i] = true
			}
		}
		for lo, hi, ok := r.TryTake(3); ok; lo, hi, ok = r.TryTake(3) {
			for i := lo; i < hi; i++ {
				if seen[i] {
					t.Fatalf("zero Range, then %s: index %d handed out twice", name, i)
				}
				seen[i] = true
			}
		}
		if len(seen) != want || want == 0 {
			t.Errorf("zero Range, then %s: %d indices handed out, Remaining() was %d; want the same, not 0", name, len(seen), want)
		}
	}
}
