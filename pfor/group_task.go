package pfor

import (
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/sched"
)

// A groupTask is a task of a Group: f.
//
// # Counting
//
// A Group must know when all of its tasks have finished, those spawned by
// its tasks included. One counter in the Group, added to by every spawn and
// subtracted from by every finish, would be a cache line written by every
// worker for every task. Instead tasks count their children: a task spawned
// while the worker runs a task of the same Group (the worker's cur) is that
// task's child; only the others (spawned from outside the pool, from a task
// of another Group, or with no task running) count in the Group's pending.
// A task is complete once it has returned and all its children are
// complete; completing a child counts it off its parent, completing a root
// counts it off the Group. Most children run on the worker that spawned
// them, so these counters seldom leave its cache.
//
//	kids  atomic.Int64  children not complete, minus 1 once the task has returned
//
// The task completes when kids reaches -1, which happens exactly once: in
// the task's own Exec, which subtracts its 1 after returning (or skips that
// write if kids is 0: only the task spawns into kids, so with none of its
// children outstanding nobody else touches it), or in the child whose
// completion subtracts the last 1 after that. Completion is the last use of
// a task: it is recycled there, with kids reset to 0.
type groupTask struct {
	sched.Task
	g      *Group
	f      func(*Worker) error
	parent *groupTask // nil: counted in g.pending
	kids   atomic.Int64
}

// Group tasks are recycled, first through a free list per worker (no
// atomic operations), overflowing into and refilling from a sync.Pool, so
// that tasks stolen to other workers find their way back. BenchmarkGroup
// -cpu 1 compares: allocating each task costs more than a sync.Pool alone,
// which costs about twice as much as both.
var groupTasks = sync.Pool{New: func() any {
	t := new(groupTask)
	t.Job = t
	return t
}}

// maxFree bounds each worker's free list.
const maxFree = 1024

// newGroupTask returns a task of g, counted under w's current task if that
// belongs to g, else in g. w may be nil: spawning from outside the pool.
func (w *Worker) newGroupTask(g *Group) *groupTask {
	var t *groupTask
	if w != nil && len(w.free) > 0 {
		t = w.free[len(w.free)-1]
		w.free = w.free[:len(w.free)-1]
	} else {
		t = groupTasks.Get().(*groupTask)
	}
	t.g = g
	if w != nil && w.cur != nil && w.cur.g == g {
		t.parent = w.cur
		w.cur.kids.Add(1)
	} else {
		g.pending.Add(1)
	}
	return t
}

// Exec runs the task unless its group has stopped, as w's current task.
// A task that ends its goroutine with runtime.Goexit did not return: it
// fails g as a panic does, with the value goexitInTask.
func (t *groupTask) Exec(sw *sched.Worker) {
	w := workerOf(sw)
	g, prev := t.g, w.cur
	w.cur = t
	exited := true // until f returns: a Goexit leaves it set
	defer func() {
		w.cur = prev
		r := recover()
		if r == nil && exited {
			r = goexitInTask
		}
		if r != nil {
			g.stop.Store(true) // before capturing the stack, which takes a while
			g.fail(nil, wrapPanic(g.call(), r))
		}
		if t.kids.Load() == 0 || t.kids.Add(-1) == -1 {
			w.complete(t)
		}
	}()
	if !g.skip() {
		if err := t.f(w); err != nil {
			g.fail(err, nil)
		}
	}
	exited = false
}

// goexitInTask is the panic value of a Group task or a future's task that
// called runtime.Goexit.
const goexitInTask = "runtime.Goexit called in a task: it did not return"

// complete recycles t, which has returned and whose children are complete,
// and counts it off its parent, completing the parent too if t was its
// last child, and so on up; a root is counted off its Group.
func (w *Worker) complete(t *groupTask) {
	for {
		p, g := t.parent, t.g
		t.g, t.f, t.parent = nil, nil, nil
		if t.kids.Load() != 0 {
			t.kids.Store(0)
		}
		if len(w.free) < maxFree {
			w.free = append(w.free, t)
		} else {
			groupTasks.Put(t)
		}
		if p == nil {
			g.finish()
			return
		}
		if p.kids.Add(-1) != -1 {
			return
		}
		t = p
	}
}
