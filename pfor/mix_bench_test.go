package pfor_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/pfor"
)

// BenchmarkMix: loops and sorts on one pool. A round is a loop over the
// tiny workload (1,000 items of Spin(i, 20), default options) and a
// pfor.Sort of 20,000 ints (copied from a fixed random input first). With
// order=mixed each loop is followed by its round's sort; with order=apart
// one op runs every round's loop first, then every round's sort: the same
// work, without loops and tasks meeting. An op is mixRounds rounds;
// us/round is reported.
//
//	go test -run '^$' -bench 'BenchmarkMix' -count 10 ./pfor/ | benchstat -col /order -
func BenchmarkMix(b *testing.B) {
	const mixRounds, sortN = 100, 20000
	w, _ := workload.ByName("tiny")
	inst := w.New(0)
	loop := func() { pfor.Chunks(0, inst.Len(), inst.Chunk) }
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]int, sortN)
	for i := range src {
		src[i] = rng.Int()
	}
	x := make([]int, sortN)
	sort := func() {
		copy(x, src)
		pfor.Sort(x)
	}
	for _, order := range []struct {
		name string
		run  func()
	}{
		{"mixed", func() {
			for range mixRounds {
				loop()
				sort()
			}
		}},
		{"apart", func() {
			for range mixRounds {
				loop()
			}
			for range mixRounds {
				sort()
			}
		}},
	} {
		b.Run("order="+order.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				order.run()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*mixRounds), "us/round")
		})
	}
}
