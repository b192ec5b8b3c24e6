package pfor_test

import (
	"flag"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/pfor"
)

// stretch multiplies the late state's times in BenchmarkLateCall.
var stretch = flag.Int("stretch", 1, "BenchmarkLateCall: multiply the late state's solo times by `k` (1000 under valgrind)")

// BenchmarkLateCall runs tiny's call (1,000 items of spin20) in the pool's
// late state, where it runs on the caller alone (see late.go), through
// Chunks with no options: impl=solo; impl=sequential runs the same chunk
// directly. One op is one call. The difference is what the solo path costs
// a call: run both under valgrind --tool=callgrind with -stretch 1000 (the
// late state's times stretched as valgrind stretches the items) and
// GODEBUG=asyncpreemptoff=1 (callgrind fails on the runtime's preemption
// signals), and compare instructions per op, by difference of two
// -test.benchtime counts.
func BenchmarkLateCall(b *testing.B) {
	w, _ := workload.ByName("tiny")
	inst := w.New(0)
	n, chunk := inst.Len(), inst.Chunk
	b.Run("impl=sequential", func(b *testing.B) {
		for b.Loop() {
			chunk(0, n)
		}
	})
	b.Run("impl=solo", func(b *testing.B) {
		pfor.SetLate(b, true)
		if *stretch > 1 {
			pfor.StretchSolo(b, *stretch)
		}
		b.ReportAllocs()
		for b.Loop() {
			pfor.Chunks(0, n, chunk)
		}
	})
}
