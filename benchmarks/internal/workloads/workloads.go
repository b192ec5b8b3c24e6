// Package workloads is the benchmark runner's list of workloads: those of
// benchmarks/WORKLOADS.md that the library defines in internal/workload, the seven
// (workload.All) and the three the project adds (workload.More: spmv, matmul, query), with
// what the runner needs to know about them besides their definition: how their work grows
// with n, and whether it is uneven.
package workloads

import (
	"math"

	"github.com/stealkit/stealkit/internal/workload"
)

// Workload is one benchmark workload.
type Workload struct {
	Name  string // as in benchmark names: "workload=" + Name
	N     int    // default number of items
	Calls int    // back-to-back parallel calls per timed repetition (2000 for tiny, else 1)

	// Degree is how the work of one call grows with n: 1 for most workloads, 2 for
	// mandelbrot (n rows of n pixels), 3 for matmul (n rows of n·n multiply-adds).
	Degree int

	// Uneven reports whether the cost of items varies along the range, so that a static
	// split leaves a worker idle (the report draws the timeline of one such workload).
	Uneven bool

	// New builds an instance with n > 0 items.
	New func(n int) workload.Instance
}

// All returns the workloads in report order: the seven of benchmarks/WORKLOADS.md (saxpy,
// uniform, triangular, tailheavy, randomskew, mandelbrot, tiny), then spmv, matmul and query.
func All() []Workload {
	uneven := map[string]bool{"triangular": true, "tailheavy": true, "randomskew": true, "mandelbrot": true, "spmv": true}
	degree := map[string]int{"mandelbrot": 2, "matmul": 3}
	var ws []Workload
	for _, w := range append(workload.All(), workload.More()...) {
		ws = append(ws, Workload{Name: w.Name, N: w.N, Calls: w.Calls, Degree: max(1, degree[w.Name]), Uneven: uneven[w.Name], New: w.New})
	}
	return ws
}

// ByName returns the workload of All with the given name, and reports whether there is one.
func ByName(name string) (Workload, bool) {
	for _, w := range All() {
		if w.Name == name {
			return w, true
		}
	}
	return Workload{}, false
}

// Names returns the names of All, in order.
func Names() []string {
	var s []string
	for _, w := range All() {
		s = append(s, w.Name)
	}
	return s
}

// Size returns the number of items and of calls per repetition for a run. n > 0 sets the
// items directly. Otherwise scale multiplies the work of a repetition: for tiny (Calls > 1)
// the number of back-to-back calls is scaled, since the size of one call is what it
// measures; for the others n is scaled by scale^(1/Degree). Neither result is below 1.
func (w Workload) Size(scale float64, n int) (items, calls int) {
	if n > 0 {
		return n, w.Calls
	}
	if w.Calls > 1 {
		return w.N, max(1, int(math.Round(float64(w.Calls)*scale)))
	}
	return max(1, int(math.Round(float64(w.N)*math.Pow(scale, 1/float64(w.Degree))))), 1
}
