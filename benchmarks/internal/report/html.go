package report

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// WriteHTML writes the report as one self-contained page: inline CSS and SVG, no script, no
// network. The markup is well-formed XML (XHTML syntax), which the tests check.
func WriteHTML(w io.Writer, r *Report) error {
	return page.Execute(w, view(r))
}

type htmlView struct {
	M          Meta
	Versions   string
	Speedups   []template.HTML
	Table      []tableRow
	Legend     string
	Noise      []NoiseRow
	Timelines  []template.HTML
	TLWorkload string
	Study      *simulate.Study
	Calib      string
	Validation string
	SimCharts  []template.HTML
}

type tableRow struct {
	Workload, N, Impl, Group, Time, Speedup, Eff, Peer, Steals, Imb, Skipped string
	Workers                                                                  int
	First                                                                    bool // first row of a workload
}

func view(r *Report) htmlView {
	v := htmlView{M: r.Meta, Legend: TableLegend, Study: r.Study}
	var vs []string
	for _, x := range r.Meta.Versions {
		s := x.Path + " " + x.Version
		if x.Replace != "" {
			s += " (=> " + x.Replace + ")"
		}
		vs = append(vs, s)
	}
	v.Versions = strings.Join(vs, "; ")
	for _, c := range speedupCharts(r.Results) {
		v.Speedups = append(v.Speedups, template.HTML(c.svg))
	}
	last := ""
	for _, x := range r.Results {
		row := tableRow{Workload: x.Workload, N: fmt.Sprint(x.N), Impl: x.Impl, Group: x.Group, Workers: x.Workers, Skipped: x.Skipped, First: x.Workload != last}
		last = x.Workload
		if x.Calls > 1 {
			row.N = fmt.Sprintf("%d ×%d", x.N, x.Calls)
		}
		if x.Skipped == "" {
			row.Time, row.Speedup, row.Eff = FormatNs(x.MedianNs), fmt.Sprintf("%.2f", x.Speedup), fmt.Sprintf("%.2f", x.Efficiency)
			row.Peer, row.Steals, row.Imb = "-", "-", "-"
			if x.VsPeer > 0 {
				row.Peer = fmt.Sprintf("%.2f", x.VsPeer)
			}
			if x.Measured {
				row.Steals, row.Imb = formatCount(x.Steals), fmt.Sprintf("%.2f", x.Imbalance)
			}
		}
		v.Table = append(v.Table, row)
	}
	if r.Meta.Noise {
		v.Noise = NoiseRows(r.Results)
	}
	var maxNs int64
	for _, tl := range r.Timelines {
		maxNs = max(maxNs, tl.MakespanNs)
		v.TLWorkload = tl.Workload
	}
	for _, tl := range r.Timelines {
		v.Timelines = append(v.Timelines, template.HTML(gantt(tl, maxNs)))
	}
	if s := r.Study; s != nil {
		var b strings.Builder
		WriteStudy(&b, s)
		v.Calib = b.String()
		v.Validation = s.ValidationLine()
		v.SimCharts = studyCharts(s)
	}
	return v
}

// speedupCharts draws one bar chart per workload and worker count: speedup over sequential
// of every implementation that ran, with marks at 1 and at the ideal.
func speedupCharts(rs []runner.Result) []chart {
	type key struct {
		w string
		k int
	}
	var order []key
	byKey := map[key][]bar{}
	for _, r := range rs {
		if r.Skipped != "" || r.Impl == "sequential" {
			continue
		}
		k := key{r.Workload, r.Workers}
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], bar{label: r.Impl, value: r.Speedup, colour: groupColour[r.Group],
			note: fmt.Sprintf("%.2fx (%s)", r.Speedup, FormatNs(r.MedianNs))})
	}
	var out []chart
	for _, k := range order {
		title := fmt.Sprintf("%s, %d workers: speedup over sequential", k.w, k.k)
		out = append(out, barChart(title, byKey[k], []float64{1, float64(k.k)}))
	}
	return out
}

// studyCharts draws, per workload, the predicted efficiency and imbalance against workers.
func studyCharts(s *simulate.Study) []template.HTML {
	var out []template.HTML
	pct := func(y float64) string { return fmt.Sprintf("%.0f%%", 100*y) }
	two := func(y float64) string { return strconv.FormatFloat(y, 'g', 4, 64) }
	for _, wl := range s.Workloads {
		var eff, imb []series
		for _, p := range impls.Partitioners() {
			e := series{name: p.Name, colour: partitionerColour[p.Name]}
			i := series{name: p.Name, colour: partitionerColour[p.Name]}
			for _, k := range s.Workers {
				r, _ := wl.Prediction(p.Name, k)
				e.ys = append(e.ys, r.Efficiency)
				i.ys = append(i.ys, r.Imbalance)
			}
			eff, imb = append(eff, e), append(imb, i)
		}
		out = append(out,
			template.HTML(lineChart(wl.Name+": predicted efficiency", s.Workers, eff, 1, pct)),
			template.HTML(lineChart(wl.Name+": predicted imbalance", s.Workers, imb, 0, two)))
	}
	return out
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{"ns": FormatNs}).Parse(`<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>stealkit benchmarks</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
svg { font-family: system-ui, sans-serif; display: block; margin: 1em 0; }
table { border-collapse: collapse; font-size: 13px; }
td, th { padding: 2px 8px; text-align: right; }
th { border-bottom: 1px solid #888; }
tr.first td { border-top: 1px solid #ccc; }
td.l, th.l { text-align: left; }
.stealkit { color: #4477aa; } .peer { color: #228833; } .baseline { color: #666; }
.charts { display: flex; flex-wrap: wrap; gap: 0 2em; }
pre { font-size: 12px; background: #f6f6f6; padding: 1em; overflow-x: auto; }
.key span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: middle; }
</style>
</head>
<body>
<h1>stealkit benchmarks</h1>
<table>
<tr><th class="l">date</th><td class="l">{{.M.Date}}</td></tr>
<tr><th class="l">command</th><td class="l"><code>{{.M.Command}}</code></td></tr>
<tr><th class="l">machine</th><td class="l">{{.M.CPU}}, {{.M.NumCPU}} CPUs, GOMAXPROCS {{.M.GOMAXPROCS}}, {{.M.OS}}/{{.M.Arch}}, load average at start {{.M.LoadAvg}}</td></tr>
<tr><th class="l">Go</th><td class="l">{{.M.GoVersion}}</td></tr>
<tr><th class="l">modules</th><td class="l">{{.Versions}}</td></tr>
<tr><th class="l">settings</th><td class="l">scale {{.M.Scale}}{{if .M.N}}, n {{.M.N}}{{end}}, {{.M.Repeat}} timed repetitions after a warm-up, peers get {{.M.PeerTasks}} tasks per worker{{if .M.Noise}}, under noise ({{printf "%.2f" .M.NoiseCores}} cores burned){{end}}; took {{printf "%.1f" .M.Elapsed}} s{{if ge .M.OtherLoad 0.0}}, while other processes kept {{printf "%.2f" .M.OtherLoad}} CPUs busy{{if gt .M.HostLoad 0.0}} (the host&#39;s steal time {{printf "%.2f" .M.HostLoad}} of it){{end}}{{end}}</td></tr>
</table>
{{if .Speedups}}
<h2 id="speedup">Speedup over sequential</h2>
<p class="key">colours:<span style="background:#4477aa"></span>stealkit<span style="background:#228833"></span>peers<span style="background:#bbbbbb"></span>hand-written baselines; dashed lines: 1x and the ideal (workers)x.</p>
<div class="charts">
{{range .Speedups}}{{.}}
{{end}}</div>
<h2 id="table">Table</h2>
<table>
<tr><th class="l">workload</th><th>n</th><th class="l">impl</th><th>workers</th><th>time</th><th>speedup</th><th>eff</th><th>t/peer</th><th>steals</th><th>imbal</th></tr>
{{range .Table}}<tr{{if .First}} class="first"{{end}}><td class="l">{{.Workload}}</td><td>{{.N}}</td><td class="l {{.Group}}">{{.Impl}}</td><td>{{.Workers}}</td>{{if .Skipped}}<td class="l" colspan="6">skipped: {{.Skipped}}</td>{{else}}<td>{{.Time}}</td><td>{{.Speedup}}</td><td>{{.Eff}}</td><td>{{.Peer}}</td><td>{{.Steals}}</td><td>{{.Imb}}</td>{{end}}</tr>
{{end}}</table>
<pre>{{.Legend}}</pre>
{{end}}
{{if .Noise}}
<h2 id="noise">Under noise: static vs stealing</h2>
<table>
<tr><th class="l">workload</th><th>sequential</th><th>static</th><th>stealing</th><th>static speedup</th><th>stealing speedup</th></tr>
{{range .Noise}}<tr><td class="l">{{.Workload}}</td><td>{{ns .Seq}}</td><td>{{ns .Static}}</td><td>{{ns .Stealing}}</td><td>{{printf "%.2f" .StaticSpeedup}}</td><td>{{printf "%.2f" .StealingSpeedup}}</td></tr>
{{end}}</table>
<p>median time per call, all under the same noise.</p>
{{end}}
{{if .Timelines}}
<h2 id="timeline">Timeline: {{.TLWorkload}}, one run per partitioner</h2>
<p class="key">each bar is a chunk on its worker's lane:<span style="background:#4477aa"></span>from the worker's own block<span style="background:#ee7733"></span>stolen; grey is idle time before the run ends. All charts share one time axis.</p>
{{range .Timelines}}{{.}}
{{end}}
{{end}}
{{if .Study}}
<h2 id="simulator">Scaling simulator</h2>
<pre><strong>{{.Validation}}</strong></pre>
<div class="charts">
{{range .SimCharts}}{{.}}
{{end}}</div>
<pre>{{.Calib}}</pre>
{{end}}
</body>
</html>
`))
