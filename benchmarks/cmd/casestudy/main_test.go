package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tiny are the smallest sizes of every part: the whole command runs in
// well under a second.
var tiny = []string{"-reps", "1", "-fib", "16", "-cutoff", "10", "-lookahead", "2", "-particles", "1000",
	"-sort", "1000", "-matmul", "16", "-matadd", "16", "-matbase", "4"}

// charts parses page as XML, failing t if it is not well-formed, and
// returns the ids of its sections (h2 elements) in order and the number of
// svg elements in each.
func charts(t *testing.T, page string) (ids []string, svgs map[string]int) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(page))
	dec.Entity = xml.HTMLEntity
	svgs = map[string]int{}
	cur := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return ids, svgs
		}
		if err != nil {
			t.Fatalf("report is not well-formed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "h2":
			for _, a := range se.Attr {
				if a.Name.Local == "id" {
					cur = a.Value
					ids = append(ids, cur)
				}
			}
		case "svg":
			svgs[cur]++
		}
	}
}

// TestRunWritesReport runs the command in-process at tiny sizes and checks
// that it prints the tables and writes a self-contained, well-formed
// report with a section per part and a chart per row of each table.
func TestRunWritesReport(t *testing.T) {
	for _, tc := range []struct {
		only string
		ids  []string
		svgs map[string]int
	}{
		// policies: one chart per workload (fib, minimax, octree at one size each);
		// matrix: one per operation and size.
		{"policies,matrix", []string{"policies", "matrix"}, map[string]int{"policies": 3, "matrix": 2}},
		{"all", allParts, map[string]int{"minimax": 1, "octree": 1, "fib": 1, "sort": 1, "matrix": 2, "policies": 3}},
	} {
		t.Run(tc.only, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "new")
			var stdout, stderr bytes.Buffer
			args := append([]string{"-only", tc.only, "-out", dir}, tiny...)
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("run(%q) = %d; want 0\nstderr:\n%s", args, code, stderr.String())
			}
			path := filepath.Join(dir, "casestudy.html")
			if !strings.Contains(stdout.String(), "report: "+path) {
				t.Errorf("stdout does not name the report %s:\n%s", path, stdout.String())
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			ids, svgs := charts(t, page)
			if !slices.Equal(ids, tc.ids) {
				t.Errorf("report sections %q; want %q", ids, tc.ids)
			}
			for id, want := range tc.svgs {
				if svgs[id] != want {
					t.Errorf("section %s has %d charts; want %d", id, svgs[id], want)
				}
			}
			for _, bad := range []string{"http://", "https://", "<script", "<link"} {
				if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/`, ""), bad) {
					t.Errorf("report contains %q: it must be self-contained", bad)
				}
			}
		})
	}
}

// TestRunPolicyTable: the policy section's table has a row per workload and
// policy, and an idle column per worker, the caller last.
func TestRunPolicyTable(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"-only", "policies", "-out", dir}, tiny...), &stdout, &stderr); code != 0 {
		t.Fatalf("run = %d; want 0\nstderr:\n%s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "casestudy.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<th>migrated/run</th>", "<th>idle w0</th>", "<th>idle guest</th>",
		"<td>dealing</td>", "<td>balancing</td>", "<td class=\"l\">octree, 1000 particles</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %s", want)
		}
	}
	if got := strings.Count(page, "<td>stealing</td>"); got != 3 {
		t.Errorf("%d table rows under stealing; want 3, one per workload", got)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-only", "matrix,nope"},
		{"-only", ""},
		{"-reps", "0"},
		{"-lookahead", "4,x"},
		{"-matbase", "0"},
		{"-matmul", ""},
		{"-out", ""},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d; want 2", args, code)
		}
		if !strings.Contains(stderr.String(), "usage: casestudy") || !strings.Contains(stderr.String(), "parts: minimax, octree, fib, sort, matrix, policies, or all") {
			t.Errorf("run(%q) wrote no usage with the parts:\n%s", args, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"-h"}, io.Discard, &stderr); code != 0 || !strings.Contains(stderr.String(), "-only parts") {
		t.Errorf("run(-h) = %d, usage %q; want 0 and the usage", code, stderr.String())
	}
}

func TestParseOnly(t *testing.T) {
	for _, tc := range []struct {
		only string
		want []string
	}{
		{"policies,matrix", []string{"policies", "matrix"}},
		{" fib , fib,sort", []string{"fib", "sort"}},
		{"matrix,all", []string{"matrix", "minimax", "octree", "fib", "sort", "policies"}},
	} {
		o, err := parse([]string{"-only", tc.only}, io.Discard)
		if err != nil {
			t.Errorf("parse(-only %q): %v", tc.only, err)
			continue
		}
		if !slices.Equal(o.parts, tc.want) {
			t.Errorf("parse(-only %q) parts = %q; want %q", tc.only, o.parts, tc.want)
		}
	}
	o, err := parse(nil, io.Discard)
	if err != nil || !slices.Equal(o.parts, []string{"minimax", "octree", "fib", "sort"}) || o.out != "out" {
		t.Errorf("parse() = parts %q, out %q, %v; want the four case studies and out", o.parts, o.out, err)
	}
}
