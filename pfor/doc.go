// Package pfor runs loops, maps, reductions and function sets in parallel.
//
//	pfor.Range(0, n, func(i int) { out[i] = f(in[i]) })
//
// is a for loop whose iterations run on several goroutines: the caller's and
// workers of a warm pool shared by every call of the package, one worker per
// GOMAXPROCS by default. How the index space is divided among workers is a
// partition.Partitioner; the default, partition.Auto, starts each worker on a
// contiguous block and balances the rest by work stealing, so it is as fast
// as a hand-written static loop on even work and stays balanced wherever the
// expensive iterations are.
//
// Every call blocks until all of its work has finished and all of its
// workers have stopped, so the usual Go memory model reasoning holds: writes
// made by the bodies happen before the call returns.
//
// Panics: a panic in a body stops the call from handing out more work; once
// every worker has stopped it is re-raised in the caller's goroutine as a
// *PanicError carrying the value, the stack of the panic site and the name
// of the call. Every entry point does this, whether the function ran on a
// worker or inline on the caller's goroutine.
//
// runtime.Goexit in a function given to any call of the package (a loop
// body; a function given to Join, Both or Do; a Group task; a future's
// function; t.FailNow calls it) ends the goroutine that runs it. On the
// caller's goroutine, the call never returns. On a pool worker, the
// function did not return and, in a loop, the rest of that worker's chunk
// never runs: the call stops handing out work and, once every worker has
// stopped, panics with a *PanicError whose Value says so, rather than
// return as if all had run; the pool replaces the worker. A Group or a
// future fails as if the task had panicked (see Group and Spawn).
//
// Errors and cancellation: the ...Err forms take a context.Context and bodies
// that return errors; the first error, or the context's, stops new chunks
// from starting and is returned. The context's error, here and in a Group,
// is ctx.Err() itself unless the context was canceled with another cause
// (context.WithCancelCause, WithTimeoutCause, WithDeadlineCause); then it
// is an error that wraps both, "context canceled: " and the cause, so that
// errors.Is finds context.Canceled (or DeadlineExceeded) and the cause.
//
// One pool: loops and tasks (Join, Do, Group, futures, Sort) run on the
// same GOMAXPROCS-1 pool workers. Nesting: a body may itself call pfor,
// fork tasks or wait for them, and a task may run loops, to any depth. The
// caller of every call takes part in its own work and never waits for a
// helper that has not started: it runs every slot no helper has claimed,
// and with the stealing partitioners (the default among them) it steals
// from slots whose helpers have started too. So nested calls cannot
// deadlock, and they share the one pool: nesting depth does not multiply
// goroutines. (Functions that wait for each other can: see Fork-join
// below.)
//
// The pool's worker goroutines (none at GOMAXPROCS 1) start with the first
// call and live for the whole process, asleep without using CPU when idle;
// there is nothing to close. A call that uses the pool after GOMAXPROCS was
// lowered ends the workers above it (a call that runs on the caller alone,
// as a loop does at GOMAXPROCS 1, leaves them asleep). A call has at most
// one worker slot per item (per grain, with WithGrain); a call that asks
// for more workers than GOMAXPROCS gets extra helpers, which exit once
// idle. Goroutine leak checkers see the workers: they run the function
//
//	github.com/stealkit/stealkit/internal/sched.(*Worker).loop
//
// and a checker told to ignore goroutines running it sees no leak.
//
// The pool behaves the same on every system and reads nothing outside the
// process. How it schedules (spinning, parking, what it does when another
// process keeps the cores busy) is described in pfor's README.md.
//
// # Fork-join: which call for what
//
// Work that creates work as it goes (recursion, tree search, subdivision)
// runs as tasks on the pool workers' work-stealing deques. Pick the call by
// the shape of the work:
//
//   - Two things at once, joined at once: Join(a, b). It works from
//     anywhere. Inside a task, which gets a *Worker, w.Join(a, b) and
//     Both(w, f, x, y) are the fast path: no lock, and Both allocates
//     nothing for a top-level f. Run enters the pool with a Worker.
//   - A fixed handful of functions: Do(fns...).
//   - A set of tasks that grows as it runs, with errors, cancellation and
//     a context that tells running tasks a sibling failed: a Group
//     (NewGroup, Group.Go, Worker.Go, Wait).
//   - A result wanted later, collected by someone else or in another
//     order: a future (Go and Wait outside a task, Spawn and Get inside).
//   - A loop, a map or a reduction over an index range: Range, Map,
//     MapIndexed, Reduce, ReduceRange, not these.
//   - Sorting: Sort and SortStableFunc.
//
// Join, Both and Do fork and join: the functions run in parallel when a
// worker is free to take one, else one after another on the caller's
// goroutine. They must not wait for each other (on a channel, a lock, a
// WaitGroup); the same holds for tasks and futures, whose waits are this
// package's own (Wait, Get), which run other tasks meanwhile. Goroutines
// are the tool for functions that must run at the same time.
//
// Waiting from outside the pool (Join, Do, Group.Wait, Future.Wait) takes
// part in the work as a guest worker, so it cannot deadlock even when
// every pool worker is busy; Group.Wait called from a task of its own Group
// panics instead of waiting for itself.
package pfor
