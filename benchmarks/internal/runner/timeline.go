package runner

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
)

// Chunk is one range a worker ran, with when it ran, relative to the start of the run.
type Chunk struct {
	Worker  int   `json:"worker"` // the worker that ran it, 0 to Workers-1
	Lo      int   `json:"lo"`     // the range [Lo, Hi)
	Hi      int   `json:"hi"`
	StartNs int64 `json:"start_ns"` // when it started
	EndNs   int64 `json:"end_ns"`   // when it ended
	Stolen  bool  `json:"stolen"`   // the range came from a steal, not from the worker's own block
}

// Timeline is one run of a partitioner, chunk by chunk.
type Timeline struct {
	Workload    string  `json:"workload"`
	Partitioner string  `json:"partitioner"`
	Workers     int     `json:"workers"`
	N           int     `json:"n"`           // items
	MakespanNs  int64   `json:"makespan_ns"` // from the start of the run until every worker returned
	Steals      int64   `json:"steals"`      // successful steals
	Imbalance   float64 `json:"imbalance"`   // max worker busy time / mean
	Chunks      []Chunk `json:"chunks"`      // every chunk, worker by worker, each in the order it ran
}

// RecordTimeline runs one pass of inst with p on workers goroutines, one per worker, each
// calling the run's Next and timing every chunk, after one unrecorded warm-up pass. pfor
// does not report chunk events, so the timeline drives partition.Run itself, as pfor's
// workers do (see recordPass), without pfor's pool: the goroutines start at once, so a
// helper's wake-up is not on the chart. The checksum of each pass must be want.
func RecordTimeline(name string, inst workload.Instance, want uint64, p partition.Partitioner, workers int) (Timeline, error) {
	var tl Timeline
	for pass := range 2 {
		inst.Reset()
		tl = recordPass(inst, p, workers)
		if got := inst.Checksum(); got != want {
			return Timeline{}, fmt.Errorf("runner: timeline of %s with %s, pass %d: checksum %#x; want %#x", name, p.Name(), pass, got, want)
		}
	}
	tl.Workload = name
	return tl, nil
}

// recordPass runs one pass. Each worker loops as pfor's do: it runs every range Next gives it;
// a range of a splitting run (stealing, auto) it runs in pieces of Piece items, and gives back
// the rest when Hungry says another worker waits for work; when Next finds nothing but Idle
// says that another worker still holds a range it may give back, it yields and asks again.
// A chunk of the timeline is the part of a range that its worker ran.
func recordPass(inst workload.Instance, p partition.Partitioner, workers int) Timeline {
	n := inst.Len()
	run := p.Start(0, n, workers)
	sr, stealing := run.(partproto.StealingRun)
	split, _ := run.(partproto.SplittingRun)
	perWorker := make([][]Chunk, workers)
	busy := make([]time.Duration, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for {
				lo, hi, ok := run.Next(w)
				if !ok {
					if split != nil && split.Idle(w) {
						runtime.Gosched()
						continue
					}
					return
				}
				stolen := stealing && sr.Stolen(w)
				t0 := time.Since(start)
				end := runRange(inst, split, w, lo, hi)
				t1 := time.Since(start)
				busy[w] += t1 - t0
				perWorker[w] = append(perWorker[w], Chunk{Worker: w, Lo: lo, Hi: end, StartNs: int64(t0), EndNs: int64(t1), Stolen: stolen})
			}
		})
	}
	wg.Wait()
	tl := Timeline{Partitioner: p.Name(), Workers: workers, N: n, MakespanNs: int64(time.Since(start))}
	for w, cs := range perWorker {
		tl.Chunks = append(tl.Chunks, cs...)
		if stealing {
			tl.Steals += sr.Counts(w).Steals
		}
	}
	var sum, most time.Duration
	for _, b := range busy {
		sum += b
		most = max(most, b)
	}
	tl.Imbalance = 1
	if sum > 0 {
		tl.Imbalance = float64(most) * float64(workers) / float64(sum)
	}
	return tl
}

// runRange runs [lo, hi) as pfor does, and returns where it stopped: hi, or where worker w
// gave the rest back.
func runRange(inst workload.Instance, split partproto.SplittingRun, w, lo, hi int) int {
	if split == nil || hi-lo < 2 {
		inst.Chunk(lo, hi)
		return hi
	}
	step := max(1, split.Piece(w))
	for lo < hi {
		end := lo + min(step, hi-lo)
		inst.Chunk(lo, end)
		lo = end
		if lo < hi && split.Hungry(w, lo) {
			split.GiveBack(w, lo)
			return lo
		}
	}
	return hi
}
