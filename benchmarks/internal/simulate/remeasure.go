package simulate

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
)

// Attempts is how many times the validation measures a check at most: an undisturbed check
// outside the tolerance is measured again until it has Attempts attempts (see Remeasure).
const Attempts = 3

// Remeasure settles each undisturbed check of the study's workload named name: while the
// median of its repetition errors is uncertain (see Precision), it measures the check's cell
// again and pools the repetitions (see Pooled); and if the check is then outside the
// tolerance, it measures it again, each attempt pooled the same way, until it has Attempts
// attempts, and keeps the attempt with the median error among the undisturbed ones (of two,
// the one further from 0), so that a check passes only if most of its attempts do. measure
// runs a cell of the workload again, as the measurements that Validate was given
// ("sequential" for the 1-worker check, a partitioner's name for 2), and reports whether it
// ran; c are the workload's prefix costs. The check's Attempts holds every attempt's error,
// the first's first, if there was more than one.
//
// Call it right after Validate, before the next workload's round: the check is predicted
// with the restart and the takes of its workload's round, and the cell measured again should
// find the machine as the round left it. In runs that measured the cells again at the run's
// end instead, minutes after their rounds, the first repetitions made again differed from the
// round's by more than the next ones differed from them, in most of the checks, and the
// checks that missed in those runs had passed in their rounds.
//
// Why attempts: a check's repetitions run within a second or two, and on a shared virtual
// machine the host takes a core away for stretches of that order, long enough to move every
// repetition of one check by the tolerance or more while the load that the runner reads over
// the whole workload stays under Disturbed (one or two checks of a run at a time, a different
// one each run). A model that is wrong misses on every attempt; a check that hit
// such a stretch passes when measured again. Pooling, by contrast, answers repetitions that
// scatter widely all the time (see Precision); it does not look at the error, so it moves a
// check towards neither verdict.
func (s *Study) Remeasure(name string, c Costs, measure func(impl string, workers int) (Repetitions, bool)) {
	w, ok := s.workload(name)
	if !ok || c == nil {
		return
	}
	for i, chk := range s.Checks {
		p, okp := partitionerOf(chk)
		if chk.Workload != name || s.Disturbs(chk) || !okp {
			continue
		}
		impl := cellImpl(p, chk.Workers)
		again := func() (Repetitions, bool) { return measure(impl, chk.Workers) }
		if i < len(s.measured) {
			if settled, ok := s.pooled(w, c, p, chk.Workers, s.measured[i], again); ok {
				chk = settled
				s.Checks[i] = chk
			}
		}
		if s.Disturbs(chk) || math.Abs(chk.Error) <= s.Tolerance {
			continue
		}
		attempts := []Check{chk}
		for len(attempts) < Attempts {
			reps, ok := again()
			if !ok {
				break
			}
			next, ok := s.pooled(w, c, p, chk.Workers, reps, again)
			if !ok {
				break
			}
			attempts = append(attempts, next)
		}
		s.Checks[i] = s.medianAttempt(attempts)
	}
}

// medianAttempt returns the attempt with the median error among the undisturbed attempts (of
// an even count, the one further from 0 of the middle two), with every attempt's error in its
// Attempts, in order. attempts[0] is undisturbed.
func (s *Study) medianAttempt(attempts []Check) Check {
	var errs []float64
	var clean []Check
	for _, a := range attempts {
		errs = append(errs, a.Error)
		if !s.Disturbs(a) {
			clean = append(clean, a)
		}
	}
	slices.SortStableFunc(clean, func(a, b Check) int { return cmp.Compare(a.Error, b.Error) })
	m := clean[(len(clean)-1)/2]
	if len(clean)%2 == 0 {
		if hi := clean[len(clean)/2]; math.Abs(hi.Error) > math.Abs(m.Error) {
			m = hi
		}
	}
	m.Attempts = errs
	return m
}

// workload returns the study's workload named name.
func (s *Study) workload(name string) (Workload, bool) {
	for _, w := range s.Workloads {
		if w.Name == name {
			return w, true
		}
	}
	return Workload{}, false
}

// cellImpl returns the implementation whose cell measures partitioner p on k workers:
// "sequential" for 1, where pfor runs inline, p's name for more.
func cellImpl(p impls.Partitioner, k int) string {
	if k == 1 {
		return "sequential"
	}
	return p.Name
}

// partitionerOf returns the partitioner chk simulated: any for the 1-worker check, which runs
// inline.
func partitionerOf(chk Check) (impls.Partitioner, bool) {
	ps := impls.Partitioners()
	if chk.Workers == 1 {
		return ps[0], true
	}
	for _, p := range ps {
		if p.Name == chk.Partitioner {
			return p, true
		}
	}
	return impls.Partitioner{}, false
}

// FormatErrors formats errors as percentages, "-27.4% / -2.1% / +3.0%".
func FormatErrors(errs []float64) string {
	var b strings.Builder
	for i, e := range errs {
		if i > 0 {
			b.WriteString(" / ")
		}
		fmt.Fprintf(&b, "%+.1f%%", 100*e)
	}
	return b.String()
}
