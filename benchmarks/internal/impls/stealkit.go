package impls

import (
	"time"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// Partitioner is one of stealkit's partitioners, as the runner and the simulator use it.
type Partitioner struct {
	Name string // as in implementation names: "static", "auto", ...
	// New returns the partitioner. clock is the time source of the stealing partitioners
	// (stealing and auto: batch sizing, and when a worker gives back part of its range), nil
	// for the process's monotonic clock; the simulator passes its virtual time. The others
	// ignore it.
	New func(clock func() int64) partition.Partitioner
	// Shared is set for the partitioners whose workers take every range from one shared
	// cursor (dynamic, guided): a take after another worker's moves the cursor's cache line
	// from that worker's core.
	Shared bool
}

// Settings of the fixed-chunk partitioners, as in the library's BenchmarkRange.
const (
	DynamicChunk = 64
	GuidedMin    = 1
)

// Partitioners returns stealkit's partitioners in report order: static, dynamic, guided,
// stealing, auto.
func Partitioners() []Partitioner {
	return []Partitioner{
		{Name: "static", New: func(func() int64) partition.Partitioner { return partition.Static() }},
		{Name: "dynamic", New: func(func() int64) partition.Partitioner { return partition.Dynamic(DynamicChunk) }, Shared: true},
		{Name: "guided", New: func(func() int64) partition.Partitioner { return partition.Guided(GuidedMin) }, Shared: true},
		{Name: "stealing", New: func(clock func() int64) partition.Partitioner {
			if clock == nil {
				return partition.Stealing()
			}
			return partproto.Stealing(partproto.Options{Clock: clock}).(partition.Partitioner)
		}},
		{Name: "auto", New: func(clock func() int64) partition.Partitioner {
			if clock == nil {
				return partition.Auto()
			}
			return partproto.Stealing(partproto.Options{Adaptive: true, Clock: clock}).(partition.Partitioner)
		}},
	}
}

// stealkits returns pfor.Chunks with each partitioner; "auto" passes no partitioner at all,
// which is what a user's pfor.Chunks(0, n, body) gets.
func stealkits() []Impl {
	var s []Impl
	for _, p := range Partitioners() {
		var opts []pfor.Option
		about := "pfor.Chunks with partition." + map[string]string{
			"static": "Static()", "dynamic": "Dynamic(64)", "guided": "Guided(1)", "stealing": "Stealing()",
		}[p.Name]
		if p.Name != "auto" {
			opts = append(opts, pfor.WithPartitioner(p.New(nil)))
		} else {
			about = "pfor.Chunks with no options (partition.Auto, the default)"
		}
		s = append(s, Impl{
			Name: p.Name, Group: Stealkit, About: about,
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive(p.Name, workers)
				o := append([]pfor.Option{pfor.WithWorkers(workers)}, opts...)
				return func(inst workload.Instance) { pfor.Chunks(0, inst.Len(), inst.Chunk, o...) }, noStop
			},
			Measure: func(inst workload.Instance, workers int) Stats {
				var st pfor.Stats
				o := append([]pfor.Option{pfor.WithWorkers(workers), pfor.WithStats(&st)}, opts...)
				pfor.Chunks(0, inst.Len(), inst.Chunk, o...)
				s := Stats{Busy: make([]time.Duration, len(st.Workers))}
				for w, ws := range st.Workers {
					s.Busy[w] = ws.Busy
					s.Steals += ws.Steals
				}
				return s
			},
		})
	}
	return s
}
