package main

import (
	"flag"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/stealkit/stealkit/benchmarks/textbook"
)

// Flags of the matrix part, here rather than in main so that the part
// keeps to its file.
var (
	matMul  = flag.String("matmul", "128,256,512", "comma-separated sizes n of the n x n matrix multiply")
	matAdd  = flag.String("matadd", "1024,2048", "comma-separated sizes n of the n x n matrix addition")
	matBase = flag.String("matbase", "8,32,128,512", "comma-separated base-case sizes of the quadrant-splitting addition")
)

// matrixBench prints the textbook matrix examples (package textbook):
// time and speedup over the sequential loop of every variant of the
// multiply and of the addition, at every size of -matmul and -matadd, the
// addition's futures at every base case of -matbase. Every variant's
// result is checked against the sequential one, entry for entry; a
// mismatch ends the command with status 1.
func matrixBench(reps int) {
	muls, err := ints(*matMul)
	if err != nil {
		fail(fmt.Errorf("-matmul: %v", err))
	}
	adds, err := ints(*matAdd)
	if err != nil {
		fail(fmt.Errorf("-matadd: %v", err))
	}
	bases, err := ints(*matBase)
	if err != nil {
		fail(fmt.Errorf("-matbase: %v", err))
	}
	for _, b := range bases {
		if b < 1 {
			fail(fmt.Errorf("-matbase: base case %d: need at least 1", b))
		}
	}

	fmt.Println("Matrix multiply c = a × b, n x n float64 (b transposed beforehand, every cell a dot product of two rows)")
	var rows []matRow
	for _, v := range append([]string{textbook.MulSeq}, textbook.MulVariants...) {
		rows = append(rows, matRow{v, v, 0})
	}
	matTable(muls, rows, reps, func(n int) func(r matRow, c *textbook.Matrix) {
		a, bt := textbook.Random(n, 1), textbook.Random(n, 2).Transpose()
		return func(r matRow, c *textbook.Matrix) { textbook.Mul(r.variant, c, a, bt) }
	})

	fmt.Println("Matrix addition c = a + b, n x n float64; future: quadrant splitting, a future per quadrant, down to blocks of base x base")
	rows = []matRow{{textbook.AddSeq, textbook.AddSeq, 0}, {textbook.AddRange, textbook.AddRange, 0}}
	for _, b := range bases {
		rows = append(rows, matRow{fmt.Sprintf("future, base %d", b), textbook.AddFuture, b})
	}
	matTable(adds, rows, reps, func(n int) func(r matRow, c *textbook.Matrix) {
		a, b := textbook.Random(n, 1), textbook.Random(n, 2)
		return func(r matRow, c *textbook.Matrix) { textbook.Add(r.variant, c, a, b, r.base) }
	})
	for _, b := range bases {
		fmt.Printf("  base %d: ", b)
		for i, n := range adds {
			if i > 0 {
				fmt.Print(", ")
			}
			fmt.Printf("%d futures at n=%d", textbook.AddTasks(n, b), n)
		}
		fmt.Println()
	}
	fmt.Println()
}

// A matRow is a row of a matrix table: a variant, with the addition's base
// case.
type matRow struct {
	name, variant string
	base          int
}

// matTable times every row at every size, with the inputs setup makes for
// the size, the first row being the sequential baseline; it checks each
// result against the baseline's and prints time and speedup.
func matTable(sizes []int, rows []matRow, reps int, setup func(n int) func(r matRow, c *textbook.Matrix)) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "variant\t")
	for _, n := range sizes {
		fmt.Fprintf(tw, "n=%d\tspeedup\t", n)
	}
	fmt.Fprintln(tw)
	times := make([][]time.Duration, len(rows))
	for i := range rows {
		times[i] = make([]time.Duration, len(sizes))
	}
	for j, n := range sizes {
		run := setup(n)
		var want *textbook.Matrix
		for i, r := range rows {
			c := textbook.New(n)
			times[i][j] = median(reps, func() { clear(c.A) }, func() { run(r, c) })
			if i == 0 {
				want = c
				continue
			}
			if err := textbook.Diff(c, want); err != nil {
				tw.Flush()
				fmt.Fprintf(os.Stderr, "casestudy: %s, n=%d, differs from %s: %v\n", r.name, n, rows[0].name, err)
				os.Exit(1)
			}
		}
	}
	for i, r := range rows {
		fmt.Fprintf(tw, "%s\t", r.name)
		for j := range sizes {
			fmt.Fprintf(tw, "%v\t%.2fx\t", times[i][j].Round(10*time.Microsecond), float64(times[0][j])/float64(times[i][j]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
