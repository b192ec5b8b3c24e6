package report

// A Bar is one bar of a BarChart: the label left of it, its length, its fill (a CSS colour)
// and a note printed after it and in its tooltip.
type Bar struct {
	Label  string  // left of the bar
	Value  float64 // the bar's length, in the chart's unit
	Colour string  // the bar's fill, a CSS colour
	Note   string  // printed after the bar and in its tooltip
}

// BarChart returns an SVG element, for inline use in an XHTML page, that draws bars as
// horizontal bars on one scale from 0, with a dashed line at each of marks labelled as a
// factor ("1x"; for a speedup chart, 1 and the ideal). The labels get the room the widest
// needs, 90 pixels at least as in the report's speedup charts, and the chart is as wide as
// its title and its notes need. Title, labels and notes are escaped. Values must not be
// negative.
func BarChart(title string, bars []Bar, marks []float64) string {
	bs := make([]bar, len(bars))
	for i, b := range bars {
		bs[i] = bar{label: b.Label, value: b.Value, colour: b.Colour, note: b.Note}
	}
	return barChart(title, bs, marks).svg
}
