package workload_test

import (
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

// spinSink keeps BenchmarkSpin's result alive.
var spinSink float64

// BenchmarkSpin measures one Spin step; ns/iter is the unit the workload costs are given in.
func BenchmarkSpin(b *testing.B) {
	const iters = 1000
	b.ReportAllocs()
	x := 0.5
	for b.Loop() {
		x = workload.Spin(x, iters)
	}
	spinSink = x
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/iters, "ns/iter")
}

// BenchmarkMandelbrotPixel measures one escape iteration of mandelbrot on a point of the set
// (all 500 iterations run), to compare with BenchmarkSpin's ns/iter (mandelbrotIterCost).
func BenchmarkMandelbrotPixel(b *testing.B) {
	b.ReportAllocs()
	var k int
	for b.Loop() {
		k += workload.MandelbrotPixel(-0.1, 0.1)
	}
	if k != b.N*workload.MandelbrotMaxIter {
		b.Fatalf("MandelbrotPixel(-0.1, 0.1) = %d per call; want %d", k/b.N, workload.MandelbrotMaxIter)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/workload.MandelbrotMaxIter, "ns/iter")
}

// BenchmarkAddOrders measures the query's fused loop over 64 blocks of orders (1 MiB), to
// compare its ns/order with BenchmarkSpin's ns/iter (queryRowCost, querySelCost).
func BenchmarkAddOrders(b *testing.B) {
	const blocks = 64
	w, _ := workload.ByName("query")
	orders := w.New(blocks).(*workload.QueryInstance).Orders()
	b.ReportAllocs()
	var t [workload.QueryRegions]workload.RegionTotal
	for b.Loop() {
		workload.AddOrders(&t, orders)
	}
	if t[0].Orders == 0 {
		b.Fatal("AddOrders selected no order of region 0")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(orders)), "ns/order")
}
