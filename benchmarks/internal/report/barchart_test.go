package report_test

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

// TestBarChart: the chart is one well-formed svg element with a bar per
// Bar and a line per mark, escapes its text, and widens its label column
// for long labels only.
func TestBarChart(t *testing.T) {
	bars := []report.Bar{
		{Label: "stealing", Value: 120, Colour: "#4477aa", Note: "120 tasks/ms"},
		{Label: "a <long> & \"quoted\" label", Value: 80, Colour: "#ee7733", Note: "80 <tasks>/ms"},
	}
	svg := report.BarChart("fib & <friends>", bars, []float64{1, 2})
	dec := xml.NewDecoder(strings.NewReader(svg))
	elements := map[string]int{}
	var firstText string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("BarChart is not well-formed: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elements[tok.Name.Local]++
		case xml.CharData:
			if firstText == "" {
				firstText = string(tok)
			}
		}
	}
	if elements["svg"] != 1 || elements["rect"] != 2 || elements["line"] != 2 {
		t.Errorf("BarChart has %d svg, %d rect, %d line elements; want 1, 2 (a bar each), 2 (a mark each)", elements["svg"], elements["rect"], elements["line"])
	}
	if firstText != "fib & <friends>" {
		t.Errorf("BarChart's title reads %q; want %q", firstText, "fib & <friends>")
	}
	if strings.Contains(svg, "<long>") || strings.Contains(svg, "<tasks>") {
		t.Errorf("BarChart did not escape a label or note:\n%s", svg)
	}
	if short, long := width(t, report.BarChart("t", bars[:1], nil)), width(t, svg); short != 90+300+110 || long <= short {
		t.Errorf("BarChart widths %d (short labels), %d (a long label); want 500 and more", short, long)
	}
}

// width returns the width attribute of svg.
func width(t *testing.T, svg string) int {
	t.Helper()
	_, rest, _ := strings.Cut(svg, `width="`)
	w, _, _ := strings.Cut(rest, `"`)
	n, err := strconv.Atoi(w)
	if err != nil {
		t.Fatalf("svg width %q: %v", w, err)
	}
	return n
}
