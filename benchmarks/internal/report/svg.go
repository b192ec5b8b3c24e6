package report

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/stealkit/stealkit/benchmarks/internal/runner"
)

// Colours, from Paul Tol's colour-blind safe palettes.
const (
	colOwn    = "#4477aa"
	colStolen = "#ee7733"
	colAxis   = "#888888"
)

var groupColour = map[string]string{"baseline": "#bbbbbb", "stealkit": "#4477aa", "peer": "#228833"}

var partitionerColour = map[string]string{
	"static": "#cc3311", "dynamic": "#ee7733", "guided": "#009988", "stealing": "#33bbee", "auto": "#0077bb",
}

// esc escapes text for SVG and XHTML.
func esc(s string) string { return html.EscapeString(s) }

// bar is one bar of a bar chart.
type bar struct {
	label  string
	value  float64
	colour string
	note   string // printed after the bar
}

// barChart draws horizontal bars with a dashed marker at each of marks (for example 1 and
// the ideal speedup), with at least 90 pixels for the labels.
// The label column is as wide as the widest label needs, and the chart as wide as its title
// and the notes after the bars need, so that no text is clipped.
func barChart(title string, bars []bar, marks []float64) chart {
	const plotW, rowH, top, labelGap = 300, 18, 28, 6
	labelW := 90.0
	maxV := 0.0
	for _, b := range bars {
		maxV = max(maxV, b.value)
		labelW = max(labelW, textWidth(b.label, 12, false)+labelGap+2)
	}
	for _, m := range marks {
		maxV = max(maxV, m)
	}
	maxV = niceCeil(maxV * 1.05)
	x := func(v float64) float64 { return labelW + plotW*v/maxV }
	w := max(labelW+plotW+110, textWidth(title, 16, true)+2)
	for _, b := range bars {
		w = max(w, x(b.value)+4+textWidth(b.note, 11, false)+2)
	}
	h := float64(top + rowH*len(bars) + 24)
	var s strings.Builder
	w, h = svgOpen(&s, w, h, title)
	fmt.Fprintf(&s, `<text x="0" y="16" font-weight="bold">%s</text>`, esc(title))
	for i, b := range bars {
		y := top + rowH*i
		fmt.Fprintf(&s, `<text x="%g" y="%d" text-anchor="end" font-size="12">%s</text>`, labelW-labelGap, y+13, esc(b.label))
		fmt.Fprintf(&s, `<rect x="%g" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s</title></rect>`,
			labelW, y+2, x(b.value)-labelW, rowH-4, b.colour, esc(b.label), esc(b.note))
		fmt.Fprintf(&s, `<text x="%.1f" y="%d" font-size="11">%s</text>`, x(b.value)+4, y+13, esc(b.note))
	}
	bottom := top + rowH*len(bars)
	for _, m := range marks {
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="4 3"/>`, x(m), top-4, x(m), bottom, colAxis)
		fmt.Fprintf(&s, `<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="%s">%gx</text>`, x(m), bottom+14, colAxis, m)
	}
	s.WriteString(`</svg>`)
	return chart{w, h, s.String()}
}

// chart is one chart: an svg element of w by h pixels.
type chart struct {
	w, h float64
	svg  string
}

// svgOpen writes the opening tag of a chart w by h pixels, rounded up to whole pixels, with
// a viewBox of the same size so that the chart scales as a whole when shown smaller, and
// returns the rounded size.
func svgOpen(s *strings.Builder, w, h float64, title string) (float64, float64) {
	w, h = math.Ceil(w), math.Ceil(h)
	fmt.Fprintf(s, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="%s">`, w, h, w, h, esc(title))
	return w, h
}

// gantt draws a timeline: a lane per worker, a bar per chunk, coloured own or stolen, on a
// time axis of maxNs so that several timelines share one scale. Chunks narrower than a
// pixel that follow one another on a lane with the same colour are drawn as one bar.
func gantt(tl runner.Timeline, maxNs int64) string {
	const plotW, laneH, top = 760, 22, 28
	labelW := max(70, textWidth(fmt.Sprintf("worker %d", tl.Workers-1), 12, false)+8)
	h := top + laneH*tl.Workers + 30
	scale := float64(plotW) / float64(max(maxNs, 1))
	step := niceStep(float64(maxNs) / 6)
	var s strings.Builder
	title := fmt.Sprintf("%s: %s on %d workers, makespan %s, imbalance %.2f, %d chunks, %d steals",
		tl.Partitioner, tl.Workload, tl.Workers, FormatNs(float64(tl.MakespanNs)), tl.Imbalance, len(tl.Chunks), tl.Steals)
	w := labelW + plotW + 20
	w = max(w, textWidth(title, 16, true)+2)
	for t := 0.0; t <= float64(maxNs); t += step {
		w = max(w, labelW+t*scale+textWidth(FormatNs(t), 10, false)/2+2) // tick labels are centred
	}
	svgOpen(&s, w, float64(h), title)
	fmt.Fprintf(&s, `<text x="0" y="16" font-weight="bold">%s</text>`, esc(title))
	for w := range tl.Workers {
		y := top + laneH*w
		fmt.Fprintf(&s, `<text x="%g" y="%d" text-anchor="end" font-size="12">worker %d</text>`, labelW-6, y+15, w)
		fmt.Fprintf(&s, `<rect x="%g" y="%d" width="%.1f" height="%d" fill="#f2f2f2"/>`, labelW, y+2, float64(tl.MakespanNs)*scale, laneH-4)
	}
	type run struct {
		x0, x1 float64
		stolen bool
		lo, hi int
	}
	flush := func(w int, r run) {
		colour := colOwn
		if r.stolen {
			colour = colStolen
		}
		fmt.Fprintf(&s, `<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s"><title>worker %d: items [%d, %d)</title></rect>`,
			labelW+r.x0, top+laneH*w+2, max(r.x1-r.x0, 0.3), laneH-4, colour, w, r.lo, r.hi)
	}
	open := map[int]*run{}
	for _, c := range tl.Chunks {
		x0, x1 := float64(c.StartNs)*scale, float64(c.EndNs)*scale
		if r := open[c.Worker]; r != nil {
			if r.stolen == c.Stolen && x0-r.x1 < 0.5 && x1-r.x0 < 1 {
				r.x1, r.hi = x1, c.Hi
				continue
			}
			flush(c.Worker, *r)
		}
		open[c.Worker] = &run{x0, x1, c.Stolen, c.Lo, c.Hi}
	}
	for w := range tl.Workers {
		if r := open[w]; r != nil {
			flush(w, *r)
		}
	}
	axisY := top + laneH*tl.Workers + 4
	for t := 0.0; t <= float64(maxNs); t += step {
		x := labelW + t*scale
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>`, x, axisY, x, axisY+4, colAxis)
		fmt.Fprintf(&s, `<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="%s">%s</text>`, x, axisY+16, colAxis, FormatNs(t))
	}
	s.WriteString(`</svg>`)
	return s.String()
}

// series is one line of a line chart.
type series struct {
	name   string
	colour string
	ys     []float64
}

// lineChart draws series over xs (worker counts, on a log2 axis) with the y axis from 0 to
// yMax (0: the largest value); yFmt formats tick labels.
func lineChart(title string, xs []int, ss []series, yMax float64, yFmt func(float64) string) string {
	const plotW, plotH, top = 300, 150, 28
	if yMax == 0 {
		for _, sr := range ss {
			for _, y := range sr.ys {
				yMax = max(yMax, y)
			}
		}
		yMax = niceCeil(yMax * 1.05)
	}
	yMax = max(yMax, 1e-9)
	left := 50.0 // room for the y axis's tick labels, right-aligned 4 pixels left of the plot
	for i := 0; i <= 5; i++ {
		left = max(left, textWidth(yFmt(yMax*float64(i)/5), 10, false)+6)
	}
	lx := func(x int) float64 { return math.Log2(float64(max(x, 1))) }
	x0, x1 := lx(xs[0]), lx(xs[len(xs)-1])
	px := func(x int) float64 {
		if x1 == x0 {
			return left + plotW/2
		}
		return left + plotW*(lx(x)-x0)/(x1-x0)
	}
	py := func(y float64) float64 { return top + plotH*(1-min(y, yMax)/yMax) }
	w := max(left+plotW+110, textWidth(title, 13, true)+2)
	for _, sr := range ss {
		w = max(w, left+plotW+8+textWidth(sr.name, 11, false)+2)
	}
	var s strings.Builder
	svgOpen(&s, w, top+plotH+36, title)
	fmt.Fprintf(&s, `<text x="0" y="16" font-weight="bold" font-size="13">%s</text>`, esc(title))
	fmt.Fprintf(&s, `<rect x="%g" y="%d" width="%d" height="%d" fill="none" stroke="%s"/>`, left, top, plotW, plotH, colAxis)
	for i := 0; i <= 5; i++ {
		y := yMax * float64(i) / 5
		fmt.Fprintf(&s, `<text x="%g" y="%.1f" font-size="10" text-anchor="end" fill="%s">%s</text>`, left-4, py(y)+3, colAxis, esc(yFmt(y)))
	}
	for _, x := range xs {
		fmt.Fprintf(&s, `<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="%s">%d</text>`, px(x), top+plotH+14, colAxis, x)
	}
	fmt.Fprintf(&s, `<text x="%g" y="%d" font-size="10" text-anchor="middle" fill="%s">workers</text>`, left+plotW/2, top+plotH+30, colAxis)
	for i, sr := range ss {
		var pts []string
		for j, y := range sr.ys {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(xs[j]), py(y)))
		}
		fmt.Fprintf(&s, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"><title>%s</title></polyline>`, strings.Join(pts, " "), sr.colour, esc(sr.name))
		fmt.Fprintf(&s, `<text x="%g" y="%d" font-size="11" fill="%s">%s</text>`, left+plotW+8, top+12+14*i, sr.colour, esc(sr.name))
	}
	s.WriteString(`</svg>`)
	return s.String()
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// niceStep returns a tick step near v: 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
