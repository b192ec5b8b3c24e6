package pfor

import "context"

// Range calls body(i) for every i in [lo, hi), in parallel, and returns when
// all calls have returned.
//
// body is called concurrently from several goroutines (the caller's among
// them), in no particular order across workers; each worker processes the
// indices of one chunk in increasing order. If body panics, no new chunk
// starts, and once every worker has stopped Range panics in the caller's
// goroutine with a *PanicError holding the value and the stack of the panic.
// When hi-lo is at most the grain (see WithGrain), or there is one worker,
// the loop runs on the caller's goroutine without involving any other.
//
// Range panics if hi < lo, or if body or an option is nil. Per index it
// costs one indirect call more than Chunks.
func Range(lo, hi int, body func(i int), opts ...Option) {
	checkRange("Range", lo, hi)
	checkFunc("Range", "body", body == nil)
	run(nil, lo, hi, configure("Range", opts), loopBody{each: body})
}

// Chunks calls body(a, b) for disjoint ranges [a, b) that together cover
// [lo, hi), in parallel: the fast path, as body's own loop over a chunk pays
// nothing per index. Concurrency, panics and small ranges behave as for
// Range. Chunks panics if hi < lo, or if body or an option is nil.
func Chunks(lo, hi int, body func(lo, hi int), opts ...Option) {
	checkRange("Chunks", lo, hi)
	checkFunc("Chunks", "body", body == nil)
	run(nil, lo, hi, configure("Chunks", opts), loopBody{chunk: body})
}

// RangeErr is Range with a context and errors. Once a body returns an error
// or ctx is done, no new chunk starts and the indices left in a failing
// chunk are skipped; bodies already running finish. RangeErr returns the
// first error a body returned (the first in time, not the lowest index),
// else ctx's error if ctx was done before all the work was handed out, else
// nil; a ctx done at the call calls no body and returns ctx's error, for an
// empty range too. body is called as Range calls it, and panics behave as for
// Range. RangeErr panics if ctx, body or an option is nil, or if hi < lo.
func RangeErr(ctx context.Context, lo, hi int, body func(i int) error, opts ...Option) error {
	checkCtx("RangeErr", ctx)
	checkRange("RangeErr", lo, hi)
	checkFunc("RangeErr", "body", body == nil)
	return run(ctx, lo, hi, configure("RangeErr", opts), loopBody{eachErr: body})
}

// ChunksErr is Chunks with a context and errors, as RangeErr is to Range.
// It panics if ctx, body or an option is nil, or if hi < lo.
func ChunksErr(ctx context.Context, lo, hi int, body func(lo, hi int) error, opts ...Option) error {
	checkCtx("ChunksErr", ctx)
	checkRange("ChunksErr", lo, hi)
	checkFunc("ChunksErr", "body", body == nil)
	return run(ctx, lo, hi, configure("ChunksErr", opts), loopBody{chunkErr: body})
}
