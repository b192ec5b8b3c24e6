package cli

import (
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// TestRemeasureEndToEnd: with a tolerance that every check misses, and no measurement counted
// as disturbed, the simulator measures every check again until it has its attempts, and says
// so in the table and in the validation line.
func TestRemeasureEndToEnd(t *testing.T) {
	defer func(tol, cores float64) { tolerance, disturbedCores = tol, cores }(tolerance, disturbedCores)
	tolerance, disturbedCores = -1, 1e9
	var stdout, stderr strings.Builder
	args := []string{"-simulate", "-workloads", "tailheavy", "-workers", "1,2", "-scale", "0.001", "-repeat", "1", "-out", t.TempDir()}
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("Main = %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	checks := 1
	if runtime.GOMAXPROCS(0) >= 2 {
		checks += 5
	}
	row := regexp.MustCompile(`(?m)^ +tailheavy +(inline|static|dynamic|guided|stealing|auto) +[12] .* [-+][0-9.]+% / [-+][0-9.]+% / [-+][0-9.]+% *$`)
	if got := len(row.FindAllString(out, -1)); got != checks {
		t.Errorf("stdout has %d validation rows with 3 attempts; want %d:\n%s", got, checks, out)
	}
	if !strings.Contains(out, "measured again after a miss, the median attempt counting: tailheavy/inline w=1 (") {
		t.Errorf("the validation line does not name the checks measured again:\n%s", out)
	}
}

// TestRemeasureRightAfterTheRound: the checks that are measured again are measured right after
// their workload's round, before the next workload's, so that they find the machine as the
// round that calibrated their prediction left it.
func TestRemeasureRightAfterTheRound(t *testing.T) {
	defer func(tol, cores float64) { tolerance, disturbedCores = tol, cores }(tolerance, disturbedCores)
	tolerance, disturbedCores = -1, 1e9
	var order []string
	testHookMeasure = func(workload, impl string) {
		if impl == "" {
			impl = "round"
		}
		order = append(order, workload+" "+impl)
	}
	defer func() { testHookMeasure = nil }()
	var stdout, stderr strings.Builder
	args := []string{"-simulate", "-workloads", "tailheavy,mandelbrot", "-workers", "1,2", "-scale", "0.001", "-repeat", "1", "-out", t.TempDir()}
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("Main = %d; stderr:\n%s", code, stderr.String())
	}
	// Every check misses, and each is measured until it has its attempts.
	again := simulate.Attempts - 1
	var want []string
	for _, w := range []string{"tailheavy", "mandelbrot"} {
		want = append(want, w+" round")
		cells := []string{"sequential"}
		if runtime.GOMAXPROCS(0) >= 2 {
			for _, p := range impls.Partitioners() {
				cells = append(cells, p.Name)
			}
		}
		for _, c := range cells {
			for range again {
				want = append(want, w+" "+c)
			}
		}
	}
	if !slices.Equal(order, want) {
		t.Errorf("measured in the order\n%s\nwant\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
}
