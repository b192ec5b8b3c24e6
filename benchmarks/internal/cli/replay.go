package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/stealkit/stealkit/benchmarks/internal/report"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
)

// replayRun predicts again, with the partitioners of this build, from the calibration that an
// earlier -simulate -json run recorded in o.Replay: for each of its workloads that o selects,
// the instance of the recorded size, the recorded units, restart and machine, at o.Workers.
// It measures nothing and validates nothing, so a change to a partitioner can be compared
// with the run before it on the very same costs, deterministically.
func replayRun(o Options, rep *report.Report, stdout io.Writer) error {
	b, err := os.ReadFile(o.Replay)
	if err != nil {
		return err
	}
	var old report.Report
	if err := json.Unmarshal(b, &old); err != nil {
		return fmt.Errorf("-replay %s: %v", o.Replay, err)
	}
	if old.Study == nil {
		return fmt.Errorf("-replay %s: no simulation recorded (a -simulate -json run writes one)", o.Replay)
	}
	s := &simulate.Study{Machine: old.Study.Machine, Workers: o.Workers, Tolerance: old.Study.Tolerance, ReplayedFrom: o.Replay}
	for _, rec := range old.Study.Workloads {
		if !slices.ContainsFunc(o.Workloads, func(w workloads.Workload) bool { return w.Name == rec.Name }) {
			continue
		}
		w, ok := workloads.ByName(rec.Name)
		if !ok {
			return fmt.Errorf("-replay %s: unknown workload %q", o.Replay, rec.Name)
		}
		if rec.N < 1 || len(rec.UnitNs) == 0 {
			return fmt.Errorf("-replay %s: %s has no calibration", o.Replay, rec.Name)
		}
		c := simulate.PrefixCosts(w.New(rec.N))
		sw := simulate.Predict(rec.Name, c, rec.Calls, rec.UnitNs, rec.RestartNs, rec.Machine, o.Workers)
		if o.Neighbour > 0 {
			nb := simulate.Neighbour{SliceNs: float64(o.Neighbour.Nanoseconds()), Cores: max(1, old.Study.Machine.Procs)}
			sw = simulate.PredictBeside(rec.Name, c, rec.Calls, rec.UnitNs, rec.RestartNs, rec.Machine, o.Workers, nb)
		}
		sw.UnitTrialsNs, sw.RestartTrialsNs, sw.RestartTransfersNs, sw.RestartTakeNs = rec.UnitTrialsNs, rec.RestartTrialsNs, rec.RestartTransfersNs, rec.RestartTakeNs
		sw.CallTrialsNs, sw.PieceTrialsNs, sw.TransferTrialsNs = rec.CallTrialsNs, rec.PieceTrialsNs, rec.TransferTrialsNs
		s.Workloads = append(s.Workloads, sw)
	}
	if len(s.Workloads) == 0 {
		return errors.New("-replay " + o.Replay + ": none of the selected workloads was recorded")
	}
	rep.Study = s
	fmt.Fprintf(stdout, "\nscaling simulation replayed from the calibration of %s (%s), times per call\n", o.Replay, old.Meta.Date)
	if o.Neighbour > 0 {
		fmt.Fprintf(stdout, "beside a busy thread on the calibration's %d cores, time-sliced in %v slices; each prediction the mean of %d starts in the rotation\n", max(1, old.Study.Machine.Procs), o.Neighbour, simulate.Phases)
		if err := report.WriteStudy(stdout, s); err != nil {
			return err
		}
		return report.WriteSpeedups(stdout, s)
	}
	return report.WriteStudy(stdout, s)
}
