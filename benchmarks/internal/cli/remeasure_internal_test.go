package cli

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
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
