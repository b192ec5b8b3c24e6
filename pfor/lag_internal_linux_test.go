package pfor

import "testing"

// TestSecondField: the run-queue wait is the second field of a schedstat line.
func TestSecondField(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4415123 132853 17\n", 132853, true},
		{"0 0 0", 0, true},
		{"4415123", 0, false},
		{"", 0, false},
	} {
		if got, ok := secondField([]byte(tc.in)); got != tc.want || ok != tc.ok {
			t.Errorf("secondField(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRunqueueWait: the threads' waits can be read here, and they never
// shrink while the threads stay (this test's process keeps its threads).
func TestRunqueueWait(t *testing.T) {
	a, ok := runqueueWait()
	if !ok {
		t.Fatalf("runqueueWait: not available on Linux")
	}
	b, _ := runqueueWait()
	if a < 0 || b < a {
		t.Errorf("runqueueWait: %d, then %d; want a count that does not shrink", a, b)
	}
}

// TestRunqueueWaitAllocatesNothing: a call that looks at the waits must not
// show allocations that its body did not make.
func TestRunqueueWaitAllocatesNothing(t *testing.T) {
	if a := testing.AllocsPerRun(20, func() { runqueueWait() }); a != 0 {
		t.Errorf("runqueueWait allocates %v times a call; want 0", a)
	}
}
