package sched

import (
	"testing"
	"unsafe"
)

// TestClaimLeavesFullJobsAlone: a job whose slots are all claimed stays
// posted while its caller finishes its own slots, and helpers walk past it
// after every other call. Were each walk to count a claim, its next slot
// would pass MaxInt32 after about 2^31 walks and claims would hand out
// negative slots while the call still runs.
func TestClaimLeavesFullJobsAlone(t *testing.T) {
	var posted Posted
	j := &Job{Slots: 2, wake: make(chan struct{}, 1)}
	j.claims.Store(2<<32 | 2)
	e := posted.Add(j)
	for range 1000 {
		if k, _ := posted.Claim(0); k == j {
			t.Fatal("Claim handed out a slot of a full job")
		}
	}
	posted.Remove(e)
	if got := int(uint32(j.claims.Load())); got != 2 {
		t.Fatalf("after 1000 claims walked past a full job of 2 slots, its next slot is %d; want 2 (unchanged)", got)
	}
}

// TestPostedLayout checks what Posted's doc promises of a pool's table: a
// post into entry 0 writes the counters and the entry on one cache line.
// A Pool's size is a multiple of the line, a size class whose objects the
// allocator places on line boundaries, so offsets in it are offsets in
// lines.
func TestPostedLayout(t *testing.T) {
	const line = 64
	var p Pool
	if size := unsafe.Sizeof(p); size%line != 0 {
		t.Errorf("Pool is %d bytes, not a multiple of %d", size, line)
	}
	first := unsafe.Offsetof(p.loops) + unsafe.Offsetof(p.loops.high)
	last := unsafe.Offsetof(p.loops) + unsafe.Offsetof(p.loops.entries) + unsafe.Sizeof(p.loops.entries[0]) - 1
	if first/line != last/line {
		t.Errorf("a post into entry 0 writes bytes %d to %d of the pool: more than one line", first, last)
	}
}
