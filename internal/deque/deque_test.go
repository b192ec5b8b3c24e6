package deque

import (
	"math"
	"testing"
	"unsafe"
)

func ints(n int) []*int {
	s := make([]*int, n)
	for i := range s {
		s[i] = new(int)
		*s[i] = i
	}
	return s
}

// TestOwnerIsLIFOThiefIsFIFO: Pop returns the newest element, Steal the
// oldest, each element once, across growth from capacity 1 and with the
// counters crossing the int64 wrap-around.
func TestOwnerIsLIFOThiefIsFIFO(t *testing.T) {
	for _, start := range []int64{0, math.MaxInt64 - 40, math.MinInt64} {
		d := NewAt[int](1, start)
		v := ints(100)
		for _, x := range v {
			d.Push(x)
		}
		if d.Len() != 100 || d.Cap() != 128 {
			t.Fatalf("start %d: after 100 pushes from capacity 1: Len %d, Cap %d; want 100, 128", start, d.Len(), d.Cap())
		}
		lo, hi := 0, 99
		for i := range 100 {
			var got *int
			var want int
			if i%3 == 0 {
				got, want = d.Steal(), lo
				lo++
			} else {
				got, want = d.Pop(), hi
				hi--
			}
			if got == nil || *got != want {
				t.Fatalf("start %d: take %d returned %v; want element %d", start, i, got, want)
			}
		}
		if x, y := d.Pop(), d.Steal(); x != nil || y != nil || d.Len() != 0 {
			t.Fatalf("start %d: empty deque: Pop %v, Steal %v, Len %d; want nil, nil, 0", start, x, y, d.Len())
		}
		// Steals advance top, pops move bottom back: they meet after the
		// last steal's position.
		if top, bottom := d.Counters(); top != bottom || top != start+int64(lo) {
			t.Fatalf("start %d: empty deque has top %d, bottom %d; want both %d", start, top, bottom, start+int64(lo))
		}
	}
}

// TestGrowKeepsStolenGap: growing copies only [top, bottom), after steals
// have moved top, and positions keep their elements.
func TestGrowKeepsStolenGap(t *testing.T) {
	d := NewAt[int](4, 0)
	v := ints(12)
	for _, x := range v[:4] {
		d.Push(x)
	}
	d.Steal()
	d.Steal()
	for _, x := range v[4:] { // wraps twice, then grows with top at 2
		d.Push(x)
	}
	for want := 2; want < 12; want++ {
		if got := d.Steal(); got == nil || *got != want {
			t.Fatalf("Steal after growth = %v; want element %d", got, want)
		}
	}
}

func TestPushNilPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "deque: Push(nil)" {
			t.Fatalf("Push(nil) panicked with %v; want \"deque: Push(nil)\"", r)
		}
	}()
	New[int]().Push(nil)
}

// TestSteadyStateAllocatesNothing: once the ring is large enough, Push,
// Pop and Steal allocate nothing.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	d := New[int]()
	v := ints(8)
	allocs := testing.AllocsPerRun(1000, func() {
		for _, x := range v {
			d.Push(x)
		}
		for range 4 {
			d.Pop()
			d.Steal()
		}
	})
	if allocs != 0 {
		t.Fatalf("Push/Pop/Steal allocate %v times per run; want 0", allocs)
	}
}

// TestLayout: top and bottom lie on different cache lines, and a Deque
// fills whole lines, so that neighbouring Deques share none.
func TestLayout(t *testing.T) {
	var d Deque[int]
	if off := unsafe.Offsetof(d.bottom); off < cacheLine {
		t.Errorf("bottom at offset %d; want it on the line after top's (>= %d)", off, cacheLine)
	}
	if size := unsafe.Sizeof(d); size%cacheLine != 0 {
		t.Errorf("Deque is %d bytes; want a multiple of %d", size, cacheLine)
	}
}
