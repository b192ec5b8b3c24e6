// Package pfor runs loops, maps, reductions and function sets in parallel.
//
//	pfor.Range(0, n, func(i int) { out[i] = f(in[i]) })
//
// is a for loop whose iterations run on several goroutines: the caller's and
// helpers from a warm pool shared by every call, one worker per GOMAXPROCS by
// default. How the index space is divided among workers is a
// partition.Partitioner; the default, partition.Auto, starts each worker on a
// contiguous block and balances the rest by work stealing with batches sized
// to about 10 µs, so it is as fast as a hand-written static loop on even work
// and stays balanced wherever the expensive iterations are.
//
// Every call blocks until all of its work has finished and all of its
// workers have stopped, so the usual Go memory model reasoning holds: writes
// made by the bodies happen before the call returns.
//
// Panics: a panic in a body stops the call from handing out more work; once
// every worker has stopped it is re-raised in the caller's goroutine as a
// *PanicError carrying the value and the stack of the panic site.
//
// Errors and cancellation: the ...Err forms take a context.Context and bodies
// that return errors; the first error, or the context's, stops new chunks
// from starting and is returned.
//
// Nesting: a body may itself call pfor. The caller of every call takes part
// in its own work and never waits for a helper that has not started, so
// nested calls cannot deadlock, and they share the one pool: nesting depth
// does not multiply goroutines.
//
// Helpers spin for 50 µs after their last work, so loops called back to
// back do not pay an OS wake-up each time, and then park without using CPU.
//
// Busy neighbours: while the process's threads wait for a core (another
// process burning one), a helper can hold up a call for a whole time slice.
// On Linux the pool watches how long its threads wait in the run queue, and
// while that is 15% of the time per P or more, calls with the default
// partitioner start on the caller alone and bring in helpers only after
// 100 µs: short loops run at about the sequential loop's speed instead of at
// half of it, long ones still run in parallel. Calls with another
// partitioner, or a grain, are unchanged.
//
// # Tasks
//
// Work that creates work as it goes (recursion, tree search, subdivision)
// runs on a second pool, of tasks on per-worker work-stealing deques:
// Run, Both and Worker.Join fork and join (Both allocates nothing for a
// top-level function), a Group collects tasks spawned from any depth, with
// errors, panics and a context, and Sort and SortStableFunc sort in
// parallel. Task functions get a *Worker, the handle of the worker that
// runs them; waiting on a worker runs other tasks instead of blocking it.
// Do runs its functions on this pool. NewPool makes a task pool of one's
// own, with work dealing or work balancing in place of work stealing if
// asked, and counters of what its workers did, to compare the three.
package pfor
