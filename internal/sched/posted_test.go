package sched

import "testing"

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
