package simulate

import (
	"math"
	"testing"
)

// TestNeighbourShares: with 2 workers and a neighbour on 2 cores, exactly 2 of the 3 threads
// run in every slice, and over a long run each thread, the neighbour's included, runs 2/3 of
// the time, whatever the phase; with 4 workers on 2 cores, each of the 5 threads runs 2/5.
func TestNeighbourShares(t *testing.T) {
	const slice = 1000.0
	for _, tc := range []struct{ threads, cores int }{{3, 2}, {5, 2}, {3, 1}} {
		for _, phase := range []float64{0, 250, 1000, 2999.5} {
			nb := &Neighbour{SliceNs: slice, Cores: tc.cores, PhaseNs: phase}
			for k := int64(-3); k < 300; k++ {
				running := 0
				for i := range tc.threads {
					if nb.runs(i, tc.threads, k) {
						running++
					}
				}
				if running != tc.cores {
					t.Fatalf("%d threads on %d cores, slice %d: %d threads run; want %d", tc.threads, tc.cores, k, running, tc.cores)
				}
			}
			share := float64(tc.cores) / float64(tc.threads)
			const long = 600 * slice
			for i := range tc.threads {
				end := nb.after(i, tc.threads, 0, share*long)
				if math.Abs(end-long) > float64(tc.threads)*slice { // within a turn of the rotation
					t.Errorf("%d threads on %d cores, phase %g: thread %d has run %g ns at %g ns; want about %g", tc.threads, tc.cores, phase, i, share*long, end, long)
				}
			}
		}
	}
}

// TestNeighbourAfter: a thread's work stops while it is off its core and resumes where it
// stopped; a thread off its core at t with no work to do waits for its next slice.
func TestNeighbourAfter(t *testing.T) {
	nb := &Neighbour{SliceNs: 1000, Cores: 2}
	// 3 threads: slice 0 runs threads 0 and 1, slice 1 threads 2 and 0, slice 2 threads 1 and 2.
	for _, tc := range []struct {
		i       int
		t, work float64
		want    float64
		off     bool // thread i is off its core at t
	}{
		{i: 0, t: 0, work: 1500, want: 1500},
		{i: 1, t: 0, work: 1500, want: 2500}, // off in slice 1
		{i: 1, t: 1200, work: 0, want: 2000, off: true},
		{i: 1, t: 900, work: 100, want: 1000}, // ends as its slice ends
		{i: 1, t: 900, work: 101, want: 2001},
		{i: 0, t: 2500, work: 600, want: 3600, off: true}, // off in slice 2, runs in slice 3
		{i: 2, t: 0, work: 1, want: 1001, off: true},
	} {
		if got := nb.after(tc.i, 3, tc.t, tc.work); got != tc.want {
			t.Errorf("thread %d at %g, %g ns of work: ends at %g; want %g", tc.i, tc.t, tc.work, got, tc.want)
		}
		if got := nb.off(tc.i, 3, tc.t); got != tc.off {
			t.Errorf("thread %d at %g: off %v; want %v", tc.i, tc.t, got, tc.off)
		}
	}
	var none *Neighbour
	if got := none.after(1, 3, 1200, 7); got != 1207 || none.off(1, 3, 1200) {
		t.Errorf("no neighbour: after = %g, off = %v; want 1207, false", got, none.off(1, 3, 1200))
	}
}
