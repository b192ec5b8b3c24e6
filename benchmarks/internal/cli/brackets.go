package cli

import (
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// brackets collects, for each measured cell of the validation, what was timed just before and
// just after each of its repetitions (the warm-up's first): a calibration trial with as many
// goroutines as the cell has workers and, with 2 workers or more, a trial of the call of the
// body, one of a cache line's transfer, a few cold fork-join calls and a batch of warm ones
// (see simulate.Repetitions).
type brackets struct {
	before, after                     map[pairKey][][]float64
	callsBefore, callsAfter           map[pairKey][][]simulate.CallTimes
	callNsBefore, callNsAfter         map[pairKey][]float64
	transferNsBefore, transferNsAfter map[pairKey][]float64
}

// pairKey names a measured cell of the validation.
type pairKey struct {
	workload, impl string
	workers        int
}

func newBrackets() *brackets {
	return &brackets{before: map[pairKey][][]float64{}, after: map[pairKey][][]float64{},
		callsBefore: map[pairKey][][]simulate.CallTimes{}, callsAfter: map[pairKey][][]simulate.CallTimes{},
		callNsBefore: map[pairKey][]float64{}, callNsAfter: map[pairKey][]float64{},
		transferNsBefore: map[pairKey][]float64{}, transferNsAfter: map[pairKey][]float64{}}
}

// hooks returns the runner's BeforeRepetition and AfterRepetition for workload wl, calibrated
// by cal. Before a repetition on 2 workers or more: a restart trial (so that the restart's
// median comes from as many trials as there are repetitions), the cold calls and the call
// batch, the call and transfer trials, then the trial the repetition is checked against;
// after it, the trial, the call and transfer trials, then the cold calls and the call batch.
func (b *brackets) hooks(wl string, cal *simulate.Calibrator) (before, after func(impl string, k int)) {
	before = func(impl string, k int) {
		key := pairKey{wl, impl, k}
		if k >= 2 {
			cal.RestartTrial()
			b.callsBefore[key] = append(b.callsBefore[key], append(cal.ColdCalls(), cal.ForkJoinBatch()...))
			b.callNsBefore[key] = append(b.callNsBefore[key], cal.CallTrial())
			b.transferNsBefore[key] = append(b.transferNsBefore[key], cal.TransferTrial())
		}
		b.before[key] = append(b.before[key], cal.TrialWith(k))
	}
	after = func(impl string, k int) {
		key := pairKey{wl, impl, k}
		b.after[key] = append(b.after[key], cal.TrialWith(k))
		if k >= 2 {
			b.callNsAfter[key] = append(b.callNsAfter[key], cal.CallTrial())
			b.transferNsAfter[key] = append(b.transferNsAfter[key], cal.TransferTrial())
			b.callsAfter[key] = append(b.callsAfter[key], append(cal.ColdCalls(), cal.ForkJoinBatch()...))
		}
	}
	return before, after
}

// repetitions returns the timed repetitions of r with what bracketed each, and reports
// whether every repetition (and the warm-up) was bracketed.
func (b *brackets) repetitions(r runner.Result) (simulate.Repetitions, bool) {
	key := pairKey{r.Workload, r.Impl, r.Workers}
	bu, au := b.before[key], b.after[key]
	if len(bu) != 1+len(r.TimesNs) || len(au) != len(bu) {
		return simulate.Repetitions{}, false
	}
	reps := simulate.Repetitions{TimesNs: r.TimesNs, UnitNs: bu[1:], AfterUnitNs: au[1:], OtherLoad: r.OtherLoad}
	if cb, ca := b.callsBefore[key], b.callsAfter[key]; len(cb) == len(bu) && len(ca) == len(bu) && cb[0] != nil {
		reps.CallsBefore, reps.CallsAfter = cb[1:], ca[1:]
	}
	if cb, ca := b.callNsBefore[key], b.callNsAfter[key]; len(cb) == len(bu) && len(ca) == len(bu) {
		reps.CallNsBefore, reps.CallNsAfter = cb[1:], ca[1:]
	}
	if tb, ta := b.transferNsBefore[key], b.transferNsAfter[key]; len(tb) == len(bu) && len(ta) == len(bu) {
		reps.TransferNsBefore, reps.TransferNsAfter = tb[1:], ta[1:]
	}
	return reps, true
}
