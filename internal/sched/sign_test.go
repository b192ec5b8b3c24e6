package sched

import (
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
)

// TestDriveSigns: Drive's sign, with the pool's helpers set up by hand and
// none running, so that the caller runs every slot. A searcher whose
// goroutine has not run since it was counted (a worker woken or started)
// is no sign until posts have found it so for wakeGrace; a helper spinning
// at the post that did not claim is one; a call whose helper claimed a
// slot went well.
func TestDriveSigns(t *testing.T) {
	for _, tc := range []struct {
		name                string
		searching, spinning int32 // counted in idle and in spinning before the post
		helper              bool  // a helper claims and runs slot 1 before the caller starts
		overdue             bool  // posts have found the searcher not spinning for wakeGrace
		want                Sign
	}{
		{"no helper", 0, 0, false, false, NoSign},
		{"a woken worker yet to run", 1, 0, false, false, NoSign},
		{"a woken worker yet to run after wakeGrace", 1, 0, false, true, Late},
		{"a spinning worker", 1, 1, false, false, Late},
		{"a spinning extra helper", 0, 1, false, false, Late},
		{"a spinning worker that claims", 1, 1, true, false, OnTime},
		{"a woken worker that claims", 1, 0, true, false, OnTime},
		{"a woken worker that claims after wakeGrace", 1, 0, true, true, OnTime},
	} {
		p := NewPool(func() *Worker { return new(Worker) }, func(_ string, r any) any { return r })
		p.target.Store(2) // as if the pool had its workers: Post starts none
		for range tc.searching {
			p.idle.StartSearch()
		}
		p.spinning.Add(tc.spinning)
		if tc.overdue {
			for int64(time.Since(epoch)) <= int64(wakeGrace) {
				time.Sleep(wakeGrace)
			}
			p.pendingSince.Store(int64(time.Since(epoch)) - int64(wakeGrace))
		}
		var ran [3]int
		j := new(Job)
		j.Init(bodyFunc(func(slot, lo, hi int) error { ran[slot] += hi - lo; return nil }), func(_ string, r any) any { return r })
		j.Slots = 3
		j.Start(partition.Static().Start(0, 30, 3))
		e := p.Post(j, 2)
		if tc.helper {
			_, s := p.loops.Claim(0)
			j.RunSlot(s)
		}
		if got := j.Drive(p, e); got != tc.want {
			t.Errorf("%s: Drive = %v; want %v", tc.name, got, tc.want)
		}
		if n := p.Helpers(); n != 0 {
			t.Fatalf("%s: the pool started %d helpers; want none, as their steps would reach other tests' step hooks", tc.name, n)
		}
		if ran != [3]int{10, 10, 10} {
			t.Errorf("%s: slots ran %v items; want 10 each", tc.name, ran)
		}
	}
}
