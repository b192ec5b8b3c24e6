package report

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// WriteSVG writes the comparison's speedup charts, the report's first section, as one
// standalone SVG image (for a README, say): a heading naming the machine and the date, the
// colour key, then the charts two to a row, on a white background. It returns an error if
// the report has no results to chart.
func WriteSVG(w io.Writer, r *Report) error {
	charts := speedupCharts(r.Results)
	if len(charts) == 0 {
		return errors.New("report: WriteSVG: no results to chart")
	}
	const cols, gap, top = 2, 24, 60
	m := r.Meta
	heading := fmt.Sprintf("stealkit: speedup over the sequential loop, %s, GOMAXPROCS %d, %s", m.CPU, m.GOMAXPROCS, m.Date)
	colW := 0.0
	for _, c := range charts {
		colW = max(colW, c.w)
	}
	width := max(cols*colW+gap, textWidth(heading, 16, true)+2)
	var body strings.Builder
	y := float64(top)
	for i := 0; i < len(charts); i += cols {
		rowH := 0.0
		for j, c := range charts[i:min(i+cols, len(charts))] {
			fmt.Fprintf(&body, "<g transform=\"translate(%g,%g)\">%s</g>\n", float64(j)*(colW+gap), y, c.svg)
			rowH = max(rowH, c.h)
		}
		y += rowH
	}
	var key strings.Builder
	x := 0.0
	for _, k := range []struct{ name, colour string }{{"stealkit", groupColour["stealkit"]}, {"peers", groupColour["peer"]}, {"hand-written baselines", groupColour["baseline"]}} {
		fmt.Fprintf(&key, "<rect x=\"%g\" y=\"32\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%g\" y=\"43\" font-size=\"12\">%s</text>\n", x, k.colour, x+16, esc(k.name))
		x += 16 + textWidth(k.name, 12, false) + 16
	}
	const dashes = "dashed lines at 1x and at the ideal, the worker count"
	fmt.Fprintf(&key, "<text x=\"%g\" y=\"43\" font-size=\"12\">%s</text>\n", x, dashes)
	width = max(width, x+textWidth(dashes, 12, false)+2)
	var s strings.Builder
	width, height := svgOpen(&s, width, y, heading)
	fmt.Fprintf(&s, "\n<rect width=\"%g\" height=\"%g\" fill=\"white\"/>\n<g font-family=\"system-ui, sans-serif\">\n", width, height)
	fmt.Fprintf(&s, "<text x=\"0\" y=\"18\" font-weight=\"bold\">%s</text>\n", esc(heading))
	s.WriteString(key.String())
	s.WriteString(body.String())
	s.WriteString("</g>\n</svg>\n")
	_, err := io.WriteString(w, s.String())
	return err
}
