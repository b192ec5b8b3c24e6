package cli

import (
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// brackets collects, for each measured cell of the validation, what was timed just before and
// just after each of its repetitions (the warm-up's first): a calibration trial with as many
// goroutines as the cell has workers and, with 2 workers or more, a trial of the call of the
// body, one of a piece, one of a cache line's transfer, a few cold fork-join calls and a batch of warm ones,
// with the cell's partitioner where its runs steal (see simulate.Repetitions).
type brackets struct {
	before, after map[pairKey]*side
}

// side holds what was timed on one side of each repetition of a cell, one element per
// repetition.
type side struct {
	unit       [][]float64
	calls      [][]simulate.CallTimes
	callNs     []float64
	pieceNs    []float64
	transferNs []float64
}

// pairKey names a measured cell of the validation.
type pairKey struct {
	workload, impl string
	workers        int
}

func newBrackets() *brackets {
	return &brackets{before: map[pairKey]*side{}, after: map[pairKey]*side{}}
}

// sideOf returns the side of key in m, making it if there is none.
func sideOf(m map[pairKey]*side, key pairKey) *side {
	if m[key] == nil {
		m[key] = &side{}
	}
	return m[key]
}

// hooks returns the runner's BeforeRepetition and AfterRepetition for workload wl, calibrated
// by cal. Before a repetition on 2 workers or more: a restart trial (so that the restart's
// median comes from as many trials as there are repetitions), the cold calls and the call
// batch, the call, piece and transfer trials, then the trial the repetition is checked
// against; after it, the trial, the call, piece and transfer trials, then the cold calls and the call batch.
func (b *brackets) hooks(wl string, cal *simulate.Calibrator) (before, after func(impl string, k int)) {
	trials := func(s *side) {
		s.callNs = append(s.callNs, cal.CallTrial())
		s.pieceNs = append(s.pieceNs, cal.PieceTrial())
		s.transferNs = append(s.transferNs, cal.TransferTrial())
	}
	calls := func(s *side, impl string) {
		s.calls = append(s.calls, append(cal.ColdCalls(impl), cal.ForkJoinBatch(impl)...))
	}
	before = func(impl string, k int) {
		s := sideOf(b.before, pairKey{wl, impl, k})
		if k >= 2 {
			cal.RestartTrial()
			calls(s, impl)
			trials(s)
		}
		s.unit = append(s.unit, cal.TrialWith(k))
	}
	after = func(impl string, k int) {
		s := sideOf(b.after, pairKey{wl, impl, k})
		s.unit = append(s.unit, cal.TrialWith(k))
		if k >= 2 {
			trials(s)
			calls(s, impl)
		}
	}
	return before, after
}

// repetitions returns the timed repetitions of r with what bracketed each, and reports
// whether every repetition (and the warm-up) was bracketed.
func (b *brackets) repetitions(r runner.Result) (simulate.Repetitions, bool) {
	key := pairKey{r.Workload, r.Impl, r.Workers}
	bs, as := b.before[key], b.after[key]
	if bs == nil || as == nil || len(bs.unit) != 1+len(r.TimesNs) || len(as.unit) != len(bs.unit) {
		return simulate.Repetitions{}, false
	}
	n := len(bs.unit)
	reps := simulate.Repetitions{TimesNs: r.TimesNs, UnitNs: bs.unit[1:], AfterUnitNs: as.unit[1:], OtherLoad: r.OtherLoad}
	if len(bs.calls) == n && len(as.calls) == n && bs.calls[0] != nil {
		reps.CallsBefore, reps.CallsAfter = bs.calls[1:], as.calls[1:]
	}
	if len(bs.callNs) == n && len(as.callNs) == n {
		reps.CallNsBefore, reps.CallNsAfter = bs.callNs[1:], as.callNs[1:]
	}
	if len(bs.pieceNs) == n && len(as.pieceNs) == n {
		reps.PieceNsBefore, reps.PieceNsAfter = bs.pieceNs[1:], as.pieceNs[1:]
	}
	if len(bs.transferNs) == n && len(as.transferNs) == n {
		reps.TransferNsBefore, reps.TransferNsAfter = bs.transferNs[1:], as.transferNs[1:]
	}
	return reps, true
}
