package pfor_test

import (
	"testing"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// BenchmarkWideCall times a call over 100 empty items that asks for 2048
// workers, called back to back: slots are capped at the items, and helpers
// beyond GOMAXPROCS-1 exit once idle.
func BenchmarkWideCall(b *testing.B) {
	body := func(lo, hi int) {}
	for _, p := range []partition.Partitioner{partition.Static(), partition.Auto()} {
		b.Run("partitioner="+p.Name(), func(b *testing.B) {
			opts := []pfor.Option{pfor.WithWorkers(2048), pfor.WithPartitioner(p)}
			b.ReportAllocs()
			for b.Loop() {
				pfor.Chunks(0, 100, body, opts...)
			}
		})
	}
}
