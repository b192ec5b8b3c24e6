package simulate

import (
	"testing"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// BenchmarkPieceAndCall runs the passes of the call and piece trials (see
// Calibrator.CallTrial and PieceTrial) over 4096 items of a body that adds its indices, so
// that their instructions can be counted: pass=call-1 hands the caller each item as a range
// (a take and a call each), pass=piece-1 hands it all items as one range processed in pieces
// of one item, and pass=call-all and pass=piece-all run the items as one range of one piece.
// Under callgrind, the functions' counts per call of the body (pieceBody's count over its 8
// instructions a call) give what pfor's loop, the take and Hungry cost per range or piece;
// the totals also hold the join's waits, which vary from run to run:
//
//	go test -c -o /tmp/sim-bench ./internal/simulate/
//	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --toggle-collect='*piecePass' \
//		/tmp/sim-bench -test.run '^$' -test.bench 'PieceAndCall/pass=piece-1$' -test.benchtime 100x
func BenchmarkPieceAndCall(b *testing.B) {
	const n = 4096
	for _, pass := range []struct {
		name string
		p    partition.Partitioner
	}{
		{"call-1", callerOnly{1}},
		{"call-all", callerOnly{n}},
		{"piece-1", callerPieces{1}},
		{"piece-all", callerPieces{n}},
	} {
		b.Run("pass="+pass.name, func(b *testing.B) {
			for b.Loop() {
				piecePass(pass.p, n)
			}
		})
	}
}

// piecePass is one pass of BenchmarkPieceAndCall, a function of its own for callgrind's
// --toggle-collect.
//
//go:noinline
func piecePass(p partition.Partitioner, n int) {
	pfor.Chunks(0, n, pieceBody, pfor.WithWorkers(2), pfor.WithPartitioner(p))
}

var pieceSink int

//go:noinline
func pieceBody(lo, hi int) {
	for i := lo; i < hi; i++ {
		pieceSink += i
	}
}
