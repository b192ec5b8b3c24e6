package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/noise"
	"github.com/stealkit/stealkit/benchmarks/internal/progress"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
)

// compareRun runs the comparison (under noise with -noise) and the timelines.
func compareRun(o Options, rep *report.Report, stdout, stderr io.Writer) (err error) {
	var burner *noise.Burner
	if o.Noise {
		if burner, err = noise.Start(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "stealbench: burner process %d is keeping one core busy\n", burner.Pid())
		defer func() {
			if burner != nil { // still running: the run failed
				err = errors.Join(err, burner.Stop())
			}
		}()
	}
	cfg := runner.Config{Workloads: o.Workloads, Impls: o.Impls, Workers: o.Workers, Scale: o.Scale, N: o.N, Repeat: o.Repeat, Progress: stderr}
	if rep.Results, err = runner.Compare(cfg); err != nil {
		return err
	}
	if o.Timeline != "" {
		if rep.Timelines, err = timelines(o, stderr); err != nil {
			return err
		}
	}
	if burner != nil {
		stopErr := burner.Stop()
		rep.Meta.NoiseCores = burner.Cores()
		burner = nil
		if stopErr != nil {
			return stopErr
		}
	}

	fmt.Fprintf(stdout, "\n%s, median of %d repetitions after a warm-up\n\n", sizeLabel(o), o.Repeat)
	if err := report.WriteTable(stdout, rep.Results); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "\n"+report.TableLegend)
	if o.Noise {
		fmt.Fprintln(stdout)
		if err := report.WriteNoise(stdout, rep.Results, rep.Meta.NoiseCores); err != nil {
			return err
		}
	}
	if len(rep.Timelines) > 0 {
		fmt.Fprintf(stdout, "\ntimeline of %s on %d workers (drawn in the report):\n", rep.Timelines[0].Workload, rep.Timelines[0].Workers)
		for _, tl := range rep.Timelines {
			fmt.Fprintf(stdout, "  %-9s makespan %8s  imbalance %.2f  %5d chunks  %4d steals\n", tl.Partitioner, report.FormatNs(float64(tl.MakespanNs)), tl.Imbalance, len(tl.Chunks), tl.Steals)
		}
	}
	return nil
}

// sizeLabel describes the size the run uses.
func sizeLabel(o Options) string {
	if o.N > 0 {
		return fmt.Sprintf("n %d for every workload", o.N)
	}
	return fmt.Sprintf("scale %g", o.Scale)
}

// timelines records one run of every partitioner on the timeline workload, with the
// largest worker count, at the comparison's size.
func timelines(o Options, stderr io.Writer) ([]runner.Timeline, error) {
	w, _ := workloads.ByName(o.Timeline)
	n, _ := w.Size(o.Scale, o.N)
	m := progress.Start(stderr, "timelines of "+w.Name, len(impls.Partitioners()))
	defer m.End()
	m.Step(0, "building the inputs and the sequential checksum")
	inst := w.New(n)
	inst.Reset()
	inst.Chunk(0, n) // one call: a timeline is one call, also for tiny
	want := inst.Checksum()
	var tls []runner.Timeline
	for i, p := range impls.Partitioners() {
		m.Step(i, p.Name)
		tl, err := runner.RecordTimeline(w.Name, inst, want, p.New(nil), o.Workers[len(o.Workers)-1])
		if err != nil {
			return nil, err
		}
		tls = append(tls, tl)
	}
	return tls, nil
}
