package main

import (
	"fmt"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/report"
	"github.com/stealkit/stealkit/benchmarks/textbook"
)

// matrix prints the textbook matrix examples (package textbook): time and
// speedup over the sequential loop of every variant of the multiply and of
// the addition, at every size of -matmul and -matadd, the addition's
// futures at every base case of -matbase; the report gets a chart of the
// speedups per operation and size, and the tables. Every variant's result
// is checked against the sequential one, entry for entry; matrix returns
// the first mismatch.
func (s *study) matrix() error {
	title := "Matrix multiply c = a × b, n x n float64 (b transposed beforehand, every cell a dot product of two rows)"
	fmt.Fprintln(s.w, title)
	sec := s.section("matrix", "Textbook matrix examples",
		"Bars: speedup of each variant over the sequential loop at each size, with dashed lines at 1x and at GOMAXPROCS; the tables give the median times. Every variant's result equals the sequential one, entry for entry.")
	var rows []matRow
	for _, v := range append([]string{textbook.MulSeq}, textbook.MulVariants...) {
		rows = append(rows, matRow{v, v, 0})
	}
	err := s.matTable(sec, "multiply", s.o.matMul, rows, func(n int) func(r matRow, c *textbook.Matrix) {
		a, bt := textbook.Random(n, 1), textbook.Random(n, 2).Transpose()
		return func(r matRow, c *textbook.Matrix) { textbook.Mul(r.variant, c, a, bt) }
	})
	if err != nil {
		return err
	}

	fmt.Fprintln(s.w, "Matrix addition c = a + b, n x n float64; future: quadrant splitting, a future per quadrant, down to blocks of base x base")
	rows = []matRow{{textbook.AddSeq, textbook.AddSeq, 0}, {textbook.AddRange, textbook.AddRange, 0}}
	for _, b := range s.o.matBase {
		rows = append(rows, matRow{fmt.Sprintf("future, base %d", b), textbook.AddFuture, b})
	}
	err = s.matTable(sec, "addition", s.o.matAdd, rows, func(n int) func(r matRow, c *textbook.Matrix) {
		a, b := textbook.Random(n, 1), textbook.Random(n, 2)
		return func(r matRow, c *textbook.Matrix) { textbook.Add(r.variant, c, a, b, r.base) }
	})
	if err != nil {
		return err
	}
	for _, b := range s.o.matBase {
		line := fmt.Sprintf("base %d: ", b)
		for i, n := range s.o.matAdd {
			if i > 0 {
				line += ", "
			}
			line += fmt.Sprintf("%d futures at n=%d", textbook.AddTasks(n, b), n)
		}
		fmt.Fprintf(s.w, "  %s\n", line)
		sec.Text = append(sec.Text, "Addition, "+line+".")
	}
	fmt.Fprintln(s.w)
	return nil
}

// A matRow is a row of a matrix table: a variant, with the addition's base
// case.
type matRow struct {
	name, variant string
	base          int
}

// matTable times every row at every size, with the inputs setup makes for
// the size, the first row being the sequential baseline; it checks each
// result against the baseline's, prints time and speedup, and adds to sec
// a chart of the speedups per size and the table.
func (s *study) matTable(sec *section, op string, sizes []int, rows []matRow, setup func(n int) func(r matRow, c *textbook.Matrix)) error {
	times := make([][]time.Duration, len(rows))
	for i := range rows {
		times[i] = make([]time.Duration, len(sizes))
	}
	for j, n := range sizes {
		run := setup(n)
		var want *textbook.Matrix
		for i, r := range rows {
			c := textbook.New(n)
			times[i][j] = median(s.o.reps, func() { clear(c.A) }, func() { run(r, c) })
			if i == 0 {
				want = c
				continue
			}
			if err := textbook.Diff(c, want); err != nil {
				return fmt.Errorf("matrix %s, %s, n=%d, differs from %s: %v", op, r.name, n, rows[0].name, err)
			}
		}
	}
	ht := htmlTable{Head: []string{op}}
	tw := tabwriter.NewWriter(s.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "variant\t")
	for _, n := range sizes {
		fmt.Fprintf(tw, "n=%d\tspeedup\t", n)
		ht.Head = append(ht.Head, fmt.Sprintf("n=%d", n), "speedup")
	}
	fmt.Fprintln(tw)
	speedup := func(i, j int) float64 { return float64(times[0][j]) / float64(times[i][j]) }
	for i, r := range rows {
		fmt.Fprintf(tw, "%s\t", r.name)
		row := []string{r.name}
		for j := range sizes {
			fmt.Fprintf(tw, "%v\t%.2fx\t", times[i][j].Round(10*time.Microsecond), speedup(i, j))
			row = append(row, report.FormatNs(float64(times[i][j])), fmt.Sprintf("%.2fx", speedup(i, j)))
		}
		fmt.Fprintln(tw)
		ht.Rows = append(ht.Rows, row)
	}
	tw.Flush()
	for j, n := range sizes {
		var bars []report.Bar
		for i, r := range rows[1:] {
			bars = append(bars, report.Bar{Label: r.name, Value: speedup(i+1, j), Colour: matColour(r.variant),
				Note: fmt.Sprintf("%.2fx (%s)", speedup(i+1, j), report.FormatNs(float64(times[i+1][j])))})
		}
		sec.chart(fmt.Sprintf("%s, n=%d: speedup over %s (%s)", op, n, rows[0].name, report.FormatNs(float64(times[0][j]))),
			bars, 1, float64(runtime.GOMAXPROCS(0)))
	}
	sec.Tables = append(sec.Tables, ht)
	return nil
}
