package pfor_test

import (
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

// TestClaimLeavesFullJobsAlone: a job whose slots are all claimed stays
// posted while its caller finishes its own slots, and helpers walk past it
// after every other call. Were each walk to count a claim, its next slot
// would pass MaxInt32 after about 2^31 walks and claims would hand out
// negative slots while the call still runs.
func TestClaimLeavesFullJobsAlone(t *testing.T) {
	if got := pfor.ClaimsPastFullJob(1000); got != 2 {
		t.Fatalf("after 1000 claims walked past a full job of 2 slots, its next slot is %d; want 2 (unchanged)", got)
	}
}
