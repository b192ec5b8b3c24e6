package casestudy

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// TestMidGamePosition: the fixed position is legal, undecided, and leaves
// every column open.
func TestMidGamePosition(t *testing.T) {
	b := position(midGame)
	t.Logf("position (X to move):\n%v", b)
	for c := range cols {
		if !b.canPlay(c) {
			t.Errorf("column %d is full; want every column open", c)
		}
	}
	if fourInARow(b.own) || fourInARow(b.own^b.all) {
		t.Errorf("someone has four in a row already")
	}
}

// TestFourInARow: wins in every direction are seen, three in a row is not
// a win, and lines do not wrap from one column into the next.
func TestFourInARow(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves []int // X plays the even moves, O the odd ones
		win   bool  // the last move wins
	}{
		{"vertical", []int{0, 1, 0, 1, 0, 1, 0}, true},
		{"horizontal", []int{0, 0, 1, 1, 2, 2, 3}, true},
		{"rising diagonal", []int{0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3}, true},
		{"falling diagonal", []int{6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3}, true},
		{"three only", []int{0, 1, 0, 1, 0}, false},
		{"no wrap: top of 0, bottom of 1", []int{0, 1, 0, 1, 0, 1, 2, 0, 2, 0, 2, 6, 1}, false},
	} {
		var b board
		var won bool
		for _, c := range tc.moves {
			b, won = b.play(c)
		}
		if won != tc.win {
			t.Errorf("%s: last move won = %v; want %v\n%v", tc.name, won, tc.win, b)
		}
	}
}

// sweep runs f at GOMAXPROCS 1, 2 and 4.
func sweep(t *testing.T, f func(t *testing.T)) {
	for _, procs := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			f(t)
		})
	}
}

// TestMinimaxSchemesAgree: every scheme finds the sequential value and
// visits as many tasks; the work-stealing scheme stores fewer at once than
// the static one, which keeps every level.
func TestMinimaxSchemesAgree(t *testing.T) {
	sweep(t, func(t *testing.T) {
		for look := 1; look <= 5; look++ {
			var ref Tracker
			want := Minimax(Sequential, look, &ref)
			ref.Done()
			peaks := map[string]int64{}
			for _, s := range Schemes {
				var tr Tracker
				if got := Minimax(s, look, &tr); got != want {
					t.Fatalf("lookahead %d: %s value %d; want %d", look, s, got, want)
				}
				tr.Done()
				if tr.Tasks != ref.Tasks {
					t.Fatalf("lookahead %d: %s ran %d tasks; want %d", look, s, tr.Tasks, ref.Tasks)
				}
				peaks[s] = tr.Peak
			}
			if look >= 4 && peaks[Steal] >= peaks[Static] {
				t.Errorf("lookahead %d: peak stored %v; want steal below static", look, peaks)
			}
		}
	})
}

// TestOctreeSchemesAgree: every scheme leaves the particle array as the
// sequential partitioning does (the tasks are the same, whatever their
// order), finds the same leaves, and accounts for every particle; and
// every leaf of the sequential run is a box holding its particles.
func TestOctreeSchemesAgree(t *testing.T) {
	const n = 50_000
	ref := Particles(n, 1)
	var rt Tracker
	want := Octree(Sequential, ref, &rt)
	rt.Done()
	if want.Particles != n {
		t.Fatalf("sequential: %d particles in leaves; want %d", want.Particles, n)
	}
	before := slices.Clone(ref)
	checkLeaves(t, ref)
	if !slices.Equal(ref, before) {
		t.Fatalf("splitting the partitioned array again moved particles")
	}
	sweep(t, func(t *testing.T) {
		for _, s := range Schemes {
			ps := Particles(n, 1)
			var tr Tracker
			got := Octree(s, ps, &tr)
			tr.Done()
			if got != want || tr.Tasks != rt.Tasks {
				t.Fatalf("%s: %+v in %d tasks; want %+v in %d", s, got, tr.Tasks, want, rt.Tasks)
			}
			if !slices.Equal(ps, ref) {
				t.Fatalf("%s: particle array differs from the sequential partitioning", s)
			}
		}
	})
	for _, n := range []int{0, 1, octThreshold, octThreshold + 1} {
		if got := Octree(Steal, Particles(n, 2), nil); got.Particles != int64(n) {
			t.Errorf("%d particles: %+v; want all in leaves", n, got)
		}
	}
}

// checkLeaves walks the partitioned array as the tasks did (splitting a
// partitioned range again moves nothing) and checks that each leaf's
// particles lie in its box.
func checkLeaves(t *testing.T, ps []Particle) {
	t.Helper()
	var walk func(o Octant)
	walk = func(o Octant) {
		for _, k := range split(ps, o) {
			c := k.Hi - k.Lo
			if c > octThreshold && k.Depth < octMaxDepth {
				walk(k)
				continue
			}
			for _, p := range ps[k.Lo:k.Hi] {
				if p.X < k.X || p.X >= k.X+k.Size || p.Y < k.Y || p.Y >= k.Y+k.Size || p.Z < k.Z || p.Z >= k.Z+k.Size {
					t.Fatalf("particle %+v in the leaf %+v lies outside it", p, k)
				}
			}
		}
	}
	walk(rootOctant(ps))
}

func TestFibSchemesAgree(t *testing.T) {
	for _, s := range []string{Sequential, Steal, Goroutine} {
		for _, cut := range []int{2, 8, 30} {
			if got := Fib(s, 25, cut); got != 75025 {
				t.Errorf("Fib(%s, 25, %d) = %d; want 75025", s, cut, got)
			}
		}
	}
	if got := FibForks(32, 8); got != 196417 {
		t.Errorf("FibForks(32, 8) = %d; want 196417", got)
	}
}

func TestSortSchemesAgree(t *testing.T) {
	want := SortInput(300_000)
	got := slices.Clone(want)
	slices.Sort(want)
	Sort(Steal, got)
	if !slices.Equal(got, want) {
		t.Fatalf("Sort(steal) differs from slices.Sort")
	}
}
