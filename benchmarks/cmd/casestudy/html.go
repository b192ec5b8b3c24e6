package main

import (
	"html/template"
	"io"
	"strings"

	"github.com/stealkit/stealkit/benchmarks/casestudy"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

// A page is the HTML report: one section per part run, in the order run.
type page struct {
	Meta     report.Meta
	Reps     int
	Sections []*section
}

// A section is one part's charts and tables. Text and table cells are
// plain text, escaped when written; the charts are SVG from
// report.BarChart, which escapes its own text.
type section struct {
	ID, Title string
	Text      []string
	Charts    []template.HTML
	Tables    []htmlTable
}

// An htmlTable is a table of the report; its first column is left-aligned.
type htmlTable struct {
	Head []string
	Rows [][]string
}

// chart adds a bar chart to s.
func (s *section) chart(title string, bars []report.Bar, marks ...float64) {
	s.Charts = append(s.Charts, template.HTML(report.BarChart(title, bars, marks)))
}

// colours are the bars' fills by scheme, policy or kind of matrix variant,
// from Paul Tol's colour-blind safe palette as in stealbench's report:
// blue for stealkit's work stealing, grey for the sequential reference.
var colours = map[string]string{
	casestudy.Sequential: "#bbbbbb", casestudy.Static: "#cc3311", casestudy.Steal: "#4477aa",
	casestudy.Group: "#33bbee", casestudy.Goroutine: "#ee7733",
	"stealing": "#4477aa", "dealing": "#ee7733", "balancing": "#009988",
	"cell": "#cc3311", "task": "#009988", "range": "#4477aa",
}

// matColour returns the fill of a matrix variant: a goroutine per cell,
// a task or future per row or quadrant, or pfor.Range.
func matColour(variant string) string {
	switch {
	case variant == "cell":
		return colours["cell"]
	case strings.HasPrefix(variant, "range"):
		return colours["range"]
	}
	return colours["task"]
}

// writeHTML writes p as one self-contained page: inline CSS and SVG, no
// script, no network. The markup is well-formed XML (XHTML syntax), which
// the tests check.
func writeHTML(w io.Writer, p *page) error { return pageTemplate.Execute(w, p) }

var pageTemplate = template.Must(template.New("casestudy").Parse(`<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>stealkit case studies</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
svg { font-family: system-ui, sans-serif; display: block; margin: 1em 0; }
table { border-collapse: collapse; font-size: 13px; margin: 1em 0; }
td, th { padding: 2px 8px; text-align: right; }
th { border-bottom: 1px solid #888; }
td.l, th.l { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 0 2em; }
</style>
</head>
<body>
<h1>stealkit case studies</h1>
<table>
<tr><th class="l">date</th><td class="l">{{.Meta.Date}}</td></tr>
<tr><th class="l">command</th><td class="l"><code>{{.Meta.Command}}</code></td></tr>
<tr><th class="l">machine</th><td class="l">{{.Meta.CPU}}, {{.Meta.NumCPU}} CPUs, GOMAXPROCS {{.Meta.GOMAXPROCS}}, {{.Meta.OS}}/{{.Meta.Arch}}, load average at start {{.Meta.LoadAvg}}</td></tr>
<tr><th class="l">Go</th><td class="l">{{.Meta.GoVersion}}</td></tr>
<tr><th class="l">settings</th><td class="l">median of {{.Reps}} timed runs after a warm-up; took {{printf "%.1f" .Meta.Elapsed}} s</td></tr>
</table>
{{range .Sections}}
<h2 id="{{.ID}}">{{.Title}}</h2>
{{range .Text}}<p>{{.}}</p>
{{end}}<div class="charts">
{{range .Charts}}{{.}}
{{end}}</div>
{{range .Tables}}<table>
<tr>{{range $i, $h := .Head}}<th{{if eq $i 0}} class="l"{{end}}>{{$h}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if eq $i 0}} class="l"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{end}}
</body>
</html>
`))
