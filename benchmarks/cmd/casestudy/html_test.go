package main

import (
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

// TestWriteHTMLEscapes: names from the command line or the workloads are
// escaped in the meta table, the section text, the table cells and the
// charts, and the page stays well-formed.
func TestWriteHTMLEscapes(t *testing.T) {
	bad := `<b>"x" & 'y'</b>`
	p := &page{Meta: report.Meta{Command: "casestudy -out " + bad, CPU: bad}, Reps: 1}
	sec := &section{ID: "policies", Title: "title " + bad, Text: []string{"text " + bad},
		Tables: []htmlTable{{Head: []string{"head " + bad}, Rows: [][]string{{"cell " + bad}}}}}
	sec.chart("chart "+bad, []report.Bar{{Label: "label " + bad, Value: 1, Colour: "#000000", Note: "note " + bad}}, 1)
	p.Sections = append(p.Sections, sec)
	var b strings.Builder
	if err := writeHTML(&b, p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	ids, svgs := charts(t, page)
	if len(ids) != 1 || svgs["policies"] != 1 {
		t.Errorf("sections %q with %v charts; want policies with 1", ids, svgs)
	}
	if strings.Contains(page, "<b>") {
		t.Errorf("report contains an unescaped <b>:\n%s", page)
	}
	for _, where := range []string{"casestudy -out", "title", "text", "head", "cell", "chart", "label", "note"} {
		if !strings.Contains(page, where+" &lt;b&gt;") {
			t.Errorf("report lacks the escaped name after %q", where)
		}
	}
}
