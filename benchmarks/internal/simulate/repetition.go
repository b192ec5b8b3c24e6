package simulate

import (
	"cmp"
	"slices"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
)

// Repetitions are the timed repetitions of one implementation on one workload, each
// bracketed by calibration trials made just before and just after it with as many goroutines
// as the implementation's workers (see Calibrator.TrialWith), and, with 2 workers or more, by
// fork-join calls: a few cold ones and a batch of warm ones (see Calibrator.ColdCalls and
// Calibrator.ForkJoinBatch).
type Repetitions struct {
	TimesNs []float64 // each repetition's time per call, in order
	// UnitNs[i] holds the figures of the goroutines of the trial made just before TimesNs[i]
	// (see Calibrator.TrialWith), one per worker.
	UnitNs [][]float64
	// AfterUnitNs[i] holds those of the trial made just after TimesNs[i]; nil if there were
	// none, and then each repetition is predicted from the trial before it alone.
	AfterUnitNs [][]float64
	// CallsBefore[i] and CallsAfter[i] are the fork-join calls, cold and warm, timed just
	// before and just after TimesNs[i]; nil if there were none, and then the workload's
	// Machine's start, fork and join are charged.
	CallsBefore, CallsAfter [][]CallTimes
	// CallNsBefore[i] and CallNsAfter[i] are the figures of the call trials (see
	// Calibrator.CallTrial) made just before and just after TimesNs[i]; nil if there were
	// none, and then the workload's Machine.CallNs is charged.
	CallNsBefore, CallNsAfter []float64
	// PieceNsBefore[i] and PieceNsAfter[i] are the figures of the piece trials (see
	// Calibrator.PieceTrial) made just before and just after TimesNs[i]; nil if there were
	// none, and then the workload's Machine.PieceNs is charged.
	PieceNsBefore, PieceNsAfter []float64
	// TransferNsBefore[i] and TransferNsAfter[i] are the figures of the transfer trials (see
	// Calibrator.TransferTrial) made just before and just after TimesNs[i]; nil if there were
	// none, and then the workload's Machine.TransferNs is charged.
	TransferNsBefore, TransferNsAfter []float64
	OtherLoad                         float64 // CPUs others (processes, the host) kept busy meanwhile; -1 if unknown
}

// valid reports whether reps has what a check of k workers needs: a trial (or two) for each
// repetition, each with k goroutines, and as many call batches, call trials, piece trials
// and transfer trials as repetitions, or none.
func (reps Repetitions) valid(k int) bool {
	n := len(reps.TimesNs)
	if n == 0 || len(reps.UnitNs) != n || !fits(reps.AfterUnitNs, n) || !fits(reps.CallsBefore, n) || !fits(reps.CallsAfter, n) ||
		!fits(reps.CallNsBefore, n) || !fits(reps.CallNsAfter, n) || !fits(reps.PieceNsBefore, n) || !fits(reps.PieceNsAfter, n) || !fits(reps.TransferNsBefore, n) || !fits(reps.TransferNsAfter, n) {
		return false
	}
	for i := range n {
		if len(reps.UnitNs[i]) != k || reps.AfterUnitNs != nil && len(reps.AfterUnitNs[i]) != k {
			return false
		}
	}
	return true
}

// fits reports whether xs has one element per repetition of n, or is nil (none were made).
func fits[T any](xs []T, n int) bool { return xs == nil || len(xs) == n }

// check predicts each of reps on k workers with partitioner p and compares: the prediction of
// a repetition is the mean of its predictions with the trials (and calls) before it and with
// those after it. It reports false if reps lacks what a check needs.
func (w Workload) check(c Costs, p impls.Partitioner, k int, reps Repetitions) (Check, bool) {
	if !reps.valid(k) {
		return Check{}, false
	}
	var pred, errs, drifts, forks, coldForks []float64
	for i, t := range reps.TimesNs {
		ns, fork, cold := w.with(reps.CallNsBefore, reps.PieceNsBefore, reps.TransferNsBefore, i).runCalls(c, p, k, reps.UnitNs[i], callsAt(reps.CallsBefore, i))
		forks, coldForks = append(forks, fork...), append(coldForks, cold...)
		if reps.AfterUnitNs != nil {
			after, fork, cold := w.with(reps.CallNsAfter, reps.PieceNsAfter, reps.TransferNsAfter, i).runCalls(c, p, k, reps.AfterUnitNs[i], callsAt(reps.CallsAfter, i))
			forks, coldForks = append(forks, fork...), append(coldForks, cold...)
			drifts = append(drifts, after/ns-1)
			ns = (ns + after) / 2
		}
		pred = append(pred, ns)
		errs = append(errs, ns/t-1)
	}
	name := p.Name
	if k == 1 {
		name = "inline"
	}
	chk := Check{Workload: w.Name, Partitioner: name, Workers: k, PredictedNs: middle(pred), MeasuredNs: middle(reps.TimesNs),
		Error: middle(errs), RepetitionErrors: errs, Drifts: drifts, OtherLoad: reps.OtherLoad}
	if len(forks) > 0 {
		chk.ForkNs = middle(forks)
	}
	if len(coldForks) > 0 {
		chk.ColdForkNs = middle(coldForks)
	}
	if reps.CallNsBefore != nil {
		chk.CallNs = middle(append(slices.Clone(reps.CallNsBefore), reps.CallNsAfter...))
	}
	if reps.TransferNsBefore != nil {
		chk.TransferNs = middle(append(slices.Clone(reps.TransferNsBefore), reps.TransferNsAfter...))
	}
	return chk, true
}

// with returns w with its Machine's CallNs set to callNs[i], its PieceNs to pieceNs[i] and
// its TransferNs to transferNs[i], each where there are such trials, and its RestartNs to that of the restart
// trials made while the transfer read as transferNs[i] (see restartAt), where w keeps them
// with their transfers.
func (w Workload) with(callNs, pieceNs, transferNs []float64, i int) Workload {
	if callNs != nil {
		w.Machine.CallNs = callNs[i]
	}
	if pieceNs != nil {
		w.Machine.PieceNs = &pieceNs[i]
	}
	if transferNs != nil {
		w.Machine.TransferNs = transferNs[i]
		if len(w.RestartTrialsNs) > 0 && len(w.RestartTransfersNs) == len(w.RestartTrialsNs) {
			w.RestartNs = restartAt(w.RestartTrialsNs, w.RestartTransfersNs, w.RestartTakeNs, transferNs[i])
		}
	}
	return w
}

// callsAt returns calls[i], or nil if there are no calls.
func callsAt(calls [][]CallTimes, i int) []CallTimes {
	if calls == nil {
		return nil
	}
	return calls[i]
}

// runCalls predicts one call of p on k workers at unitNs (see Workload.run), as the mean over
// a repetition's w.Calls calls, and returns it with the helper starts it charged, of the warm
// calls and of the cold ones. With calls, a repetition's first call is cold, made after a
// calibration trial and the inputs' reset, when the pool's helpers have parked (its helper
// then starts tens to hundreds of times later than a warm call's), and the others follow it
// back to back; and the warm calls' helpers too start at very different times (a batch's
// slowest start from twice its median to hundreds of times it). So the first call is predicted
// as the mean of the simulations with the cold calls, each charged its own start, fork and
// join, and the others as the mean of the simulations with callSamples of the warm calls,
// spread evenly over their forks. Without calls (or with 1 worker, which runs inline), it is
// the simulation with the workload's Machine.
func (w Workload) runCalls(c Costs, p impls.Partitioner, k int, unitNs []float64, calls []CallTimes) (ns float64, warmForks, coldForks []float64) {
	if len(calls) == 0 || k < 2 {
		return w.run(c, p, k, unitNs).MakespanNs, nil, nil
	}
	sim := func(ct CallTimes) float64 {
		wc := w
		wc.Machine.StartNs, wc.Machine.ForkNs, wc.Machine.JoinNs = ct.StartNs, ct.ForkNs, ct.JoinNs
		return wc.run(c, p, k, unitNs).MakespanNs
	}
	var warm, cold []CallTimes
	for _, ct := range calls {
		if ct.Cold {
			cold = append(cold, ct)
		} else {
			warm = append(warm, ct)
		}
	}
	var warmNs, coldNs float64
	if len(warm) > 0 {
		slices.SortFunc(warm, func(a, b CallTimes) int { return cmp.Compare(a.ForkNs, b.ForkNs) })
		n := min(callSamples, len(warm))
		for j := range n {
			ct := warm[(2*j+1)*len(warm)/(2*n)]
			warmNs += sim(ct) / float64(n)
			warmForks = append(warmForks, ct.ForkNs)
		}
	}
	for _, ct := range cold {
		coldNs += sim(ct) / float64(len(cold))
		coldForks = append(coldForks, ct.ForkNs)
	}
	switch {
	case len(warm) == 0:
		warmNs = coldNs
	case len(cold) == 0:
		coldNs = warmNs
	}
	m := float64(max(1, w.Calls))
	return (coldNs + (m-1)*warmNs) / m, warmForks, coldForks
}

// callSamples is how many of a batch's calls runCalls simulates.
const callSamples = 16
