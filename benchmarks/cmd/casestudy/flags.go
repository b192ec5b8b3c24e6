package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// allParts lists what -only can run, in the order -only all runs them.
var allParts = []string{"minimax", "octree", "fib", "sort", "matrix", "policies"}

// options are the parsed command line.
type options struct {
	parts      []string // from allParts, in the order given, each once
	lookaheads []int    // minimax, policies
	particles  []int    // octree, policies
	reps       int
	fibN       int   // fib, policies
	cutoffs    []int // fib, policies
	sortN      int
	matMul     []int // matrix
	matAdd     []int // matrix
	matBase    []int // matrix
	out        string
}

const usageHead = `usage: casestudy [flags]

Prints the fork-join case studies (minimax, octree, fib, sort), the textbook
matrix examples (matrix) and three distribution policies on a pool of their own (policies)
as tables, and writes them as charts and tables to casestudy.html in -out.

flags:
`

// parse parses args (without the program name). On a bad flag or value it
// writes the error and the usage to stderr and returns an error; for -h or
// -help it writes the usage and returns flag.ErrHelp.
func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("casestudy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nparts: %s, or all\n", strings.Join(allParts, ", "))
	}
	var o options
	only := fs.String("only", "minimax,octree,fib,sort", "comma-separated `parts` to run, or all (the parts are listed below)")
	looks := fs.String("lookahead", "4,5,6,7", "comma-separated minimax lookaheads (plies)")
	parts := fs.String("particles", "100000,500000,1000000,2000000", "comma-separated octree particle counts")
	fs.IntVar(&o.reps, "reps", 5, "timed runs per cell; the table shows the median")
	fs.IntVar(&o.fibN, "fib", 32, "n of the fib benchmark")
	cuts := fs.String("cutoff", "8,10,12", "comma-separated fib cutoffs: calls with n below one are sequential")
	fs.IntVar(&o.sortN, "sort", 10_000_000, "number of int64s of the sort benchmark")
	mul := fs.String("matmul", "128,256,512", "comma-separated sizes n of the n x n matrix multiply")
	add := fs.String("matadd", "1024,2048", "comma-separated sizes n of the n x n matrix addition")
	base := fs.String("matbase", "8,32,128,512", "comma-separated base-case sizes of the quadrant-splitting addition")
	fs.StringVar(&o.out, "out", "out", "`directory` for casestudy.html, the report")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	fail := func(format string, a ...any) (options, error) {
		err := fmt.Errorf(format, a...)
		fmt.Fprintf(stderr, "casestudy: %v\n", err)
		fs.Usage()
		return o, err
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	for _, p := range strings.Split(*only, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "all":
			for _, q := range allParts {
				if !slices.Contains(o.parts, q) {
					o.parts = append(o.parts, q)
				}
			}
		case !slices.Contains(allParts, p):
			return fail("-only: unknown part %q", p)
		case !slices.Contains(o.parts, p):
			o.parts = append(o.parts, p)
		}
	}
	lists := []struct {
		flag string
		s    *string
		dst  *[]int
		min  int
	}{
		{"lookahead", looks, &o.lookaheads, 0}, {"particles", parts, &o.particles, 0}, {"cutoff", cuts, &o.cutoffs, 0},
		{"matmul", mul, &o.matMul, 1}, {"matadd", add, &o.matAdd, 1}, {"matbase", base, &o.matBase, 1},
	}
	for _, l := range lists {
		var err error
		if *l.dst, err = ints(*l.s, l.min); err != nil {
			return fail("-%s: %v", l.flag, err)
		}
	}
	switch {
	case o.reps < 1:
		return fail("-reps %d: need at least 1", o.reps)
	case o.fibN < 0:
		return fail("-fib %d: must not be negative", o.fibN)
	case o.sortN < 0:
		return fail("-sort %d: must not be negative", o.sortN)
	case o.out == "":
		return fail("-out: need a directory")
	}
	return o, nil
}

// ints parses a comma-separated list of integers of at least lo.
func ints(s string, lo int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < lo {
			return nil, fmt.Errorf("%q is not a whole number of at least %d", f, lo)
		}
		out = append(out, n)
	}
	return out, nil
}
