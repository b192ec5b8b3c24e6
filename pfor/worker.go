package pfor

import (
	"unsafe"

	"github.com/stealkit/stealkit/internal/sched"
)

// A Worker is a task's handle on the pool: the worker goroutine that runs
// the task. Task functions receive one; forking through it (Join, Both,
// Worker.Go) takes O(1) time and no lock, and waiting through it (Join,
// Both, Worker.Wait) runs other tasks instead of blocking.
//
// The handle is how the pool knows which worker runs the task, which is
// why task functions take a *Worker. Like a *testing.T, a Worker must be
// used only by the function it was passed to, on that function's
// goroutine, and only until it returns; using it from a goroutine the task
// started is a data race that can lose or repeat tasks.
//
// # The pool
//
// Tasks (Join, Both, Worker.Go and Group, Do, Sort) run on the pool that
// runs loops: GOMAXPROCS-1 worker goroutines, started on first use and
// following GOMAXPROCS. Entry points that take no Worker (Run, Join, Do,
// Group.Wait, Sort, SortStableFunc) make the calling goroutine a guest
// worker for the duration of the call: the caller takes part in its own
// work, and waiting from outside the pool, from a loop body say, cannot
// deadlock even when every pool worker is busy. Idle workers sleep
// without using CPU until work appears.
//
// Tasks are for computation: a task that blocks (on I/O, a lock, a channel
// another task feeds) holds its worker meanwhile, and one that waits for
// another task other than through this package's waits (Join, Both, Wait,
// Do, ...), which run tasks while they wait, may deadlock.
type Worker struct {
	// Each worker, guests included, has a work-stealing deque (in
	// internal/sched); forking pushes onto its owner end at the cost of two
	// atomic stores, and that end is not safe for concurrent use. Go has no
	// goroutine-local storage, so the scheduler cannot find the current
	// worker by itself. Idle workers look for loop slots and steal tasks
	// from random victims, yielding the processor every few attempts, and
	// park after a short while without work.
	s sched.Worker // first: workerOf converts a *sched.Worker from the pool back

	free []*groupTask // finished Group tasks for reuse (see groupTasks)
	cur  *groupTask   // the Group task running innermost on this worker, or nil

	do doCall // guests: the Do call holding the guest

	_ sched.CacheLinePad // the owner writes the frames' depth, free and cur all the time
}

// newWorker makes the pool's Workers, as Workers of this package.
func newWorker() *sched.Worker { return &new(Worker).s }

// workerOf returns the Worker whose s is w: every Worker of thePool is one
// (newWorker).
func workerOf(w *sched.Worker) *Worker { return (*Worker)(unsafe.Pointer(w)) }
