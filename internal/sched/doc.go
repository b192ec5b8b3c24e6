// Package sched is stealkit's scheduler: one pool of workers that runs
// pfor's loop jobs and fork-join tasks. pfor is the API over it; this
// package does not know pfor's types, and reaches them through Runner (a
// task's work), Body (a loop's body), the Worker a Pool's alloc makes
// (pfor's Worker holds one) and the panic wrapper a Pool and a Job are
// given.
//
// # The pool
//
// Every call of pfor runs on one pool: loops (Range and friends) and
// tasks (Join, Both, Group, Do, Sort, futures) share its workers, their
// deques and their sleep. The pool has GOMAXPROCS-1 worker goroutines, each
// with a work-stealing deque (internal/deque), and every goroutine that
// calls into pfor takes part in its own work: a loop's caller runs
// slot 0 and every slot no worker has claimed; a goroutine that forks or
// waits for tasks from outside the pool (Join, Do, Group.Wait, ...) does so
// as a guest worker with a deque of its own. So there is one worker per
// GOMAXPROCS, and no call depends on a pool worker for progress.
//
// Work reaches the workers in three ways. A task forked inside the pool is
// pushed on its worker's deque. A loop call posts its Job in the Posted
// table, from which workers claim its worker slots, one per claim. A
// task submitted from outside (Group.Go, Go) goes to the injection queue.
// A worker with nothing to do looks at its own deque, newest first, then at
// the posted loop jobs, newest first, then at the injection queue, then
// steals the oldest task of a random other deque; it yields every few
// rounds, as a thief does in work stealing for multiprogrammed systems, and
// after 50 µs without finding work it sleeps on a channel (the Idle
// protocol) until a push, a post or an injection wakes it. Idle
// workers use no CPU; a loop post wakes as many sleepers as it has slots
// for helpers, less the workers already searching.
//
// A guest that waits (for a stolen frame, a Group) runs other work
// meanwhile: tasks, and slots of loop jobs posted after its wait began.
// Not earlier ones: a job posted before may be one whose slot the guest's
// own goroutine is running further down its stack, and a slot of that job
// could wait for a range its own goroutine holds. A post may still count
// on such a waiter as a searcher, or wake it: a waiter about to sleep that
// sees an earlier job still open wakes a sleeper that takes it
// (Idle.WakeFor).
//
// The pool starts on first use and follows GOMAXPROCS as entry points see
// it: it starts workers when it has grown, and a worker whose index is no
// longer below GOMAXPROCS-1 retires (its goroutine ends) the next time its
// deque is empty, and leaves the victims until it starts again. A loop call
// that asks for more workers than that (WithWorkers) starts extra helpers,
// which claim loop slots only, and end after spinFor without any.
//
// Guests are kept for reuse after the call, with their deques still among
// the victims, so that a task a guest left behind (spawned with Worker.Go
// for a Group waited on elsewhere) is still stolen. Only a few are kept:
// once more than 2*GOMAXPROCS guests are free, the oldest free ones whose
// deques are empty are dropped down to GOMAXPROCS, and leave the victims,
// so that an idle worker's search walks the deques of the workers, of the
// guests in a call and of a few others, not one deque for every call that
// was ever under way at the same time. (A free guest's deque has no owner:
// once empty it stays empty, and dropping it loses no task.)
//
// # Loop jobs
//
// A loop call posts its Job in the pool's Posted table; searching workers
// claim its worker slots, newest job first, and run them (runSlot), while
// the calling goroutine runs slot 0 and every slot no worker has claimed
// (Drive).
//
// Posting wakes sleeping workers through the pool's Idle: the entry's CAS
// and gen's add make the job visible before Wake looks for sleepers, and a
// worker about to sleep looks at posted once more after it announced
// itself (hasWork), so that one of the two sees the other (see
// Idle).
//
// Calls never depend on workers for progress: the caller claims every slot
// no worker has claimed, and the stealing partitioners let it take the
// unclaimed slots' work. So a nested call, a call made while every worker
// is busy or asleep, or a call whose workers' threads the operating system
// has taken off their cores, completes on its own goroutine, and only a
// slot a worker has claimed can make the caller wait.
//
// A worker that has not claimed its slot while the caller ran its own may
// be runnable but not running: the Go scheduler queues a goroutine that
// the caller wakes on the caller's processor, and there it waits until the
// caller blocks or yields. A caller that then runs every slot itself would
// keep it waiting call after call while the other processors idle; so
// after such a call, if it took more than a microsecond, the caller yields
// its processor once.
//
// # Who may call what, invariants, linearization points
//
// Each lock-free type opens with its own: Idle and Parker (idle.go), the
// sleep of idle workers; Queue (queue.go), the injection queue; Posted
// (posted.go), the posting table; Job (job.go) and its slots' sleep and
// wake (slot.go); Task (task.go), the Join frames. The deques are
// internal/deque's. The interleaving tests (interleave_test.go,
// slot_interleave_test.go, join_interleave_test.go) run the protocols of
// Idle and Parker, of slots and of join one step at a time (step.go)
// through every interleaving of small scenarios.
package sched
