package pfor

import "context"

// ChunksLocal is Chunks with per-worker state, for scratch buffers or
// partial results: init is called at most once per worker slot, lazily, on the
// worker's goroutine, before the slot's first chunk; body gets the slot's
// state with each chunk; after every worker has stopped, finish is called
// with each state that init created, in slot order, on the caller's
// goroutine, so it can merge partial results without locking.
//
// A pointer or a slice makes a good state: body's changes to it are seen by
// finish. finish may be nil. ChunksLocal panics if hi < lo, or if init,
// body or an option is nil; panics in init, body or finish behave as panics in Range. finish
// is called even after a panic in init or body, and then the call re-raises
// that panic, not a panic of finish's.
func ChunksLocal[S any](lo, hi int, init func() S, body func(state S, lo, hi int), finish func(state S), opts ...Option) {
	checkRange("ChunksLocal", lo, hi)
	checkFunc("ChunksLocal", "init", init == nil)
	checkFunc("ChunksLocal", "body", body == nil)
	chunksLocal(nil, "ChunksLocal", lo, hi, init, func(s S, lo, hi int) error { body(s, lo, hi); return nil }, finish, opts)
}

// ChunksLocalErr is ChunksLocal with a context and errors, as RangeErr is to
// Range. finish is called for every state that was created, even when the
// call fails. It panics if ctx is nil, and as ChunksLocal does.
func ChunksLocalErr[S any](ctx context.Context, lo, hi int, init func() S, body func(state S, lo, hi int) error, finish func(state S), opts ...Option) error {
	checkCtx("ChunksLocalErr", ctx)
	checkRange("ChunksLocalErr", lo, hi)
	checkFunc("ChunksLocalErr", "init", init == nil)
	checkFunc("ChunksLocalErr", "body", body == nil)
	return chunksLocal(ctx, "ChunksLocalErr", lo, hi, init, body, finish, opts)
}

func chunksLocal[S any](ctx context.Context, call string, lo, hi int, init func() S, body func(S, int, int) error, finish func(S), opts []Option) error {
	c := configure(call, opts)
	states := make([]S, c.slots(lo, hi))
	made := make([]bool, len(states)) // element s written only by slot s's driver
	finishAll := func() {
		for s := range states {
			if made[s] {
				finish(states[s])
			}
		}
	}
	err := func() error {
		defer func() { // finish the states even if a body panicked
			if finish == nil {
				return
			}
			if p := recover(); p != nil {
				// The body's panic, the first, is the one the call re-raises:
				// a panic in finish, which may come of the half-made states it
				// left, must not hide its cause.
				func() {
					defer func() { _ = recover() }()
					finishAll()
				}()
				panic(p)
			}
			guard(call, finishAll)
		}()
		return execute(ctx, lo, hi, c, func(slot, lo, hi int) error {
			if !made[slot] {
				states[slot] = init()
				made[slot] = true
			}
			return body(states[slot], lo, hi)
		})
	}()
	return err
}
