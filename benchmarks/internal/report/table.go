package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// FormatNs formats a duration in nanoseconds with three significant digits and a unit.
func FormatNs(ns float64) string { return simulate.FormatNs(ns) }

// TableLegend explains the comparison table's columns.
const TableLegend = `time: median wall time per call over the repetitions; speedup: sequential time / time;
eff: speedup / workers (1 = the ideal sequential/workers); t/peer: time / the best peer's time
with the same workers (below 1 is faster); steals: successful steals per call; imbal: busiest
worker's busy time / mean (1 = balanced); cpu: this process's CPU time / wall time over the
timed repetitions, spinning idle workers included (below the workers: the machine gave the
call less than a core per worker); "-": not measurable for that implementation.`

// WriteTable writes the comparison as a text table, one block per workload.
func WriteTable(w io.Writer, rs []runner.Result) error {
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tn\timpl\tworkers\ttime\tspeedup\teff\tt/peer\tsteals\timbal\tcpu\t")
	last := ""
	for _, r := range rs {
		if r.Workload != last && last != "" {
			fmt.Fprintln(tw, "\t\t\t\t\t\t\t\t\t\t\t")
		}
		last = r.Workload
		n := fmt.Sprint(r.N)
		if r.Calls > 1 {
			n = fmt.Sprintf("%d x%d", r.N, r.Calls)
		}
		if r.Skipped != "" {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\tskipped\t-\t-\t-\t-\t-\t-\t  (%s)\n", r.Workload, n, r.Impl, r.Workers, r.Skipped)
			continue
		}
		peer := "-"
		if r.VsPeer > 0 {
			peer = fmt.Sprintf("%.2f", r.VsPeer)
		}
		steals, imb := "-", "-"
		if r.Measured {
			steals, imb = formatCount(r.Steals), fmt.Sprintf("%.2f", r.Imbalance)
		}
		cpu := "-"
		if r.Cores > 0 {
			cpu = fmt.Sprintf("%.2f", r.Cores)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t\n",
			r.Workload, n, r.Impl, r.Workers, FormatNs(r.MedianNs), r.Speedup, r.Efficiency, peer, steals, imb, cpu)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeTrimmed(w, buf.String())
}

// writeTrimmed writes s with the spaces that tabwriter leaves at the ends of lines removed.
func writeTrimmed(w io.Writer, s string) error {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// formatCount formats a per-call count: whole numbers without decimals.
func formatCount(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprint(int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}

// WriteStudy writes the scaling study: per workload its calibration, then a row per worker
// count with, for each partitioner, the predicted makespan per call, efficiency, imbalance
// and steals per call; then the validation checks and line.
func WriteStudy(w io.Writer, s *simulate.Study) error {
	m := s.Machine
	fmt.Fprintf(w, "calibration: Spin %.2f ns/iter; take (ns, 1/2/... goroutines at once) %s; empty Next (ns) %s; idle poll (ns) %s; steal %.0f ns; failed steal attempt %.0f ns; cache line transfer %.0f ns; 2-worker call: caller starts %s, helper %s, returns %s after the last item\n",
		m.SpinNs, takes(m), perPartitioner(m.EmptyNs), perPartitioner(m.PollNs), m.StealNs, m.FailNs, m.TransferNs, FormatNs(m.StartNs), FormatNs(m.ForkNs), FormatNs(m.JoinNs))
	for _, wl := range s.Workloads {
		units := make([]string, len(wl.UnitNs))
		for k, u := range wl.UnitNs {
			units[k] = fmt.Sprintf("%.3g ns with %d busy", u, k+1)
		}
		piece := "as a call (not measured)"
		if wl.Machine.PieceNs != nil {
			piece = FormatNs(*wl.Machine.PieceNs)
		}
		fmt.Fprintf(w, "\n%s (n = %d, %d call(s)): cost unit %s; %.2f x a Spin iteration; restart %s; call of the body %s; piece %s\n", wl.Name, wl.N, wl.Calls, strings.Join(units, ", "), wl.SpinRatio, FormatNs(wl.RestartNs), FormatNs(wl.Machine.CallNs), piece)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "workers\t")
		var names []string
		for _, r := range wl.Predictions {
			if r.Workers != wl.Predictions[0].Workers {
				break
			}
			names = append(names, r.Partitioner)
			fmt.Fprintf(tw, "%s: makespan\teff\timbal\tsteals\t", r.Partitioner)
		}
		fmt.Fprintln(tw)
		for i := 0; i < len(wl.Predictions); i += len(names) {
			fmt.Fprintf(tw, "%d\t", wl.Predictions[i].Workers)
			for _, r := range wl.Predictions[i : i+len(names)] {
				fmt.Fprintf(tw, "%s\t%.0f%%\t%.2f\t%d\t", FormatNs(r.MakespanNs), 100*r.Efficiency, r.Imbalance, r.Steals)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(s.Checks) > 0 {
		fmt.Fprintln(w, "\nvalidation (per call; each repetition predicted with the units of the calibration trials made just before and after it,\nand with 2 workers with the fork-join calls timed next to it, its first call with calls made after the pool idled (cold);\npredicted and measured: the medians; error: the median of the repetitions' errors; reps: how many repetitions (more than\n-repeat where the cell was measured again and pooled while their median was uncertain); helper starts: the median start of a\nhelper's slot in the warm calls and in the cold ones; attempts: the errors of each measurement of a check measured again\nafter a miss, the median attempt's counting):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "workload\tpartitioner\tworkers\tpredicted\tmeasured\terror\treps\thelper starts\tcold\tothers' CPUs\tattempts\t")
		for _, c := range s.Checks {
			others := "?"
			if c.OtherLoad >= 0 {
				others = fmt.Sprintf("%.2f", c.OtherLoad)
			}
			if s.Disturbs(c) {
				others += " (disturbed)"
			}
			starts, cold := "-", "-"
			if c.ForkNs > 0 {
				starts = FormatNs(c.ForkNs)
			}
			if c.ColdForkNs > 0 {
				cold = FormatNs(c.ColdForkNs)
			}
			attempts := "-"
			if len(c.Attempts) > 1 {
				attempts = simulate.FormatErrors(c.Attempts)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%+.1f%%\t%d\t%s\t%s\t%s\t%s\t\n", c.Workload, c.Partitioner, c.Workers, FormatNs(c.PredictedNs), FormatNs(c.MeasuredNs), 100*c.Error, len(c.RepetitionErrors), starts, cold, others, attempts)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, "\n"+s.ValidationLine())
	return err
}

func takes(m simulate.Machine) string {
	var s []string
	for _, p := range []string{"static", "dynamic", "guided", "stealing", "auto"} {
		if ts, ok := m.TakeNs[p]; ok {
			var f []string
			for _, t := range ts {
				f = append(f, fmt.Sprintf("%.0f", t))
			}
			s = append(s, p+" "+strings.Join(f, "/"))
		}
	}
	return strings.Join(s, ", ")
}

// perPartitioner formats a figure per partitioner, "static 2, auto 9", or "not measured" if
// there is none (a calibration recorded before the figure was).
func perPartitioner(ns map[string]float64) string {
	var s []string
	for _, p := range []string{"static", "dynamic", "guided", "stealing", "auto"} {
		if f, ok := ns[p]; ok {
			s = append(s, fmt.Sprintf("%s %.1f", p, f))
		}
	}
	if len(s) == 0 {
		return "not measured"
	}
	return strings.Join(s, ", ")
}

// NoiseRow is one workload's line under noise: each stealkit partitioner's time, and how the
// default (auto) compares with the best of the others.
type NoiseRow struct {
	Workload                                     string  // the workload's name
	Static, Dynamic, Guided, Stealing, Auto, Seq float64 // median ns per call; 0 if not run
	StaticSpeedup, StealingSpeedup, AutoSpeedup  float64 // Seq over the partitioner's time; 0 if not run
}

// AutoOverBest returns auto's time over the best time of static, dynamic, guided and stealing
// (above 1: a user gains by naming another partitioner), or 0 if auto or all of them were not
// run.
func (r NoiseRow) AutoOverBest() float64 {
	best := 0.0
	for _, t := range []float64{r.Static, r.Dynamic, r.Guided, r.Stealing} {
		if t > 0 && (best == 0 || t < best) {
			best = t
		}
	}
	if best == 0 || r.Auto == 0 {
		return 0
	}
	return r.Auto / best
}

// NoiseRows picks the partitioners and sequential out of results measured under noise;
// of the parallel ones, those with the most workers that were run (on 2 cores under a burner,
// the count where a preempted worker matters most).
func NoiseRows(rs []runner.Result) []NoiseRow {
	most := 0
	for _, r := range rs {
		if r.Impl != "sequential" {
			most = max(most, r.Workers)
		}
	}
	var rows []NoiseRow
	idx := map[string]int{}
	for _, r := range rs {
		if r.Skipped != "" || (r.Impl != "sequential" && r.Workers != most) {
			continue
		}
		i, ok := idx[r.Workload]
		if !ok {
			i = len(rows)
			idx[r.Workload] = i
			rows = append(rows, NoiseRow{Workload: r.Workload})
		}
		row := &rows[i]
		switch r.Impl {
		case "sequential":
			row.Seq = r.MedianNs
		case "static":
			row.Static, row.StaticSpeedup = r.MedianNs, r.Speedup
		case "dynamic":
			row.Dynamic = r.MedianNs
		case "guided":
			row.Guided = r.MedianNs
		case "stealing":
			row.Stealing, row.StealingSpeedup = r.MedianNs, r.Speedup
		case "auto":
			row.Auto, row.AutoSpeedup = r.MedianNs, r.Speedup
		}
	}
	return rows
}

// WriteNoise writes the summary of a comparison run under noise: each partitioner's time,
// static over stealing, auto's speedup, and auto over the best of the others.
func WriteNoise(w io.Writer, rs []runner.Result, cores float64) error {
	fmt.Fprintf(w, "under noise (a second process burning %.2f cores):\n", cores)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tsequential\tstatic\tdynamic\tguided\tstealing\tauto\tstatic/stealing\tauto speedup\tauto/best other\t")
	for _, r := range NoiseRows(rs) {
		ratio := "-"
		if r.Static > 0 && r.Stealing > 0 {
			ratio = fmt.Sprintf("%.2f", r.Static/r.Stealing)
		}
		speedup, overBest := "-", "-"
		if r.AutoSpeedup > 0 {
			speedup = fmt.Sprintf("%.2f", r.AutoSpeedup)
		}
		if x := r.AutoOverBest(); x > 0 {
			overBest = fmt.Sprintf("%.2f", x)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Workload, orDash(r.Seq), orDash(r.Static), orDash(r.Dynamic), orDash(r.Guided), orDash(r.Stealing), orDash(r.Auto), ratio, speedup, overBest)
	}
	return tw.Flush()
}

func orDash(ns float64) string {
	if ns == 0 {
		return "-"
	}
	return FormatNs(ns)
}

// WriteSpeedups writes, for the workloads of s predicted beside a neighbour (see
// simulate.PredictBeside), each partitioner's speedup over the sequential loop per worker
// count, auto's time over the best of the others' and the ideal speedup: the workers' share
// of the cores, as if the cost of an item did not depend on how many cores are busy.
func WriteSpeedups(w io.Writer, s *simulate.Study) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\nworkload\tworkers\tstatic\tdynamic\tguided\tstealing\tauto\tauto/best other\tideal\t")
	for _, wl := range s.Workloads {
		if wl.Neighbour == nil {
			continue
		}
		for _, k := range s.Workers {
			fmt.Fprintf(tw, "%s\t%d\t", wl.Name, k)
			var auto, best float64
			for _, p := range []string{"static", "dynamic", "guided", "stealing", "auto"} {
				r, ok := wl.Prediction(p, k)
				if !ok {
					fmt.Fprint(tw, "-\t")
					continue
				}
				fmt.Fprintf(tw, "%.3fx\t", r.Efficiency*float64(k))
				if p == "auto" {
					auto = r.MakespanNs
				} else if best == 0 || r.MakespanNs < best {
					best = r.MakespanNs
				}
			}
			over := "-"
			if auto > 0 && best > 0 {
				over = fmt.Sprintf("%.3f", auto/best)
			}
			share := min(1, float64(wl.Neighbour.Cores)/float64(k+1))
			fmt.Fprintf(tw, "%s\t%.3fx\t\n", over, float64(k)*share)
		}
	}
	return tw.Flush()
}
