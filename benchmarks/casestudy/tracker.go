package casestudy

import "sync/atomic"

// The schemes each case study compares.
const (
	Sequential = "sequential" // one goroutine, plain recursion: the reference
	Static     = "static"     // the chapter's static scheme: level by level, slots claimed with an atomic add
	Steal      = "steal"      // stealkit's work-stealing pool, forking with pfor.Both (fork-join)
	Group      = "group"      // stealkit's work-stealing pool, spawning with pfor.Worker.Go into one Group
	Goroutine  = "goroutine"  // a goroutine per task, joined with a sync.WaitGroup
)

// Schemes lists the parallel schemes in table order.
var Schemes = []string{Static, Steal, Group, Goroutine}

// A Tracker counts tasks: Tasks is how many were created, Peak the most
// stored at once. A task is stored from its creation until it is finished:
// for a search, until its value is known, which for an inner position is
// when its last child reported; for the static scheme, a slot of a level
// array, from the level's allocation to the end of the run (or of the next
// level, for the octree, which needs no earlier level). A nil *Tracker
// counts nothing and costs a nil check.
type Tracker struct {
	Tasks, Peak int64
	live        atomic.Int64
	tasks       atomic.Int64
	peak        atomic.Int64
}

// create records n new tasks, stored until finished.
func (t *Tracker) create(n int64) {
	t.count(n)
	t.store(n)
}

// count records n new tasks whose storage was recorded with store.
func (t *Tracker) count(n int64) {
	if t != nil {
		t.tasks.Add(n)
	}
}

// store records n more slots stored, without new tasks.
func (t *Tracker) store(n int64) {
	if t == nil {
		return
	}
	v := t.live.Add(n)
	for p := t.peak.Load(); v > p && !t.peak.CompareAndSwap(p, v); p = t.peak.Load() {
	}
}

// finish records that n stored tasks (or slots) were released.
func (t *Tracker) finish(n int64) {
	if t != nil {
		t.live.Add(-n)
	}
}

// Done fills Tasks and Peak; call it after the run.
func (t *Tracker) Done() {
	t.Tasks, t.Peak = t.tasks.Load(), t.peak.Load()
}
