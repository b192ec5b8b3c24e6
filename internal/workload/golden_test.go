package workload_test

import (
	"testing"

	"github.com/stealkit/stealkit/internal/golden"
	"github.com/stealkit/stealkit/internal/workload"
)

// goldenChecksums is the file of pinned checksums that these tests and the benchmark
// runner's tests both read.
const goldenChecksums = "../../testdata/workloads/checksums.txt"

// readPinned reads goldenChecksums.
func readPinned(t *testing.T) []golden.Checksum {
	t.Helper()
	ps, err := golden.ReadChecksums(goldenChecksums)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestChecksumsPinned checks every workload against its checksums pinned in the golden file,
// so that a change to any bit of a workload's inputs or outputs fails here; each workload
// of All and More must have a line.
func TestChecksumsPinned(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range readPinned(t) {
		w, ok := workload.ByName(p.Name)
		if !ok {
			t.Errorf("%s: unknown workload %q", goldenChecksums, p.Name)
			continue
		}
		seen[p.Name] = true
		inst := w.New(p.N)
		for range w.Calls {
			inst.Chunk(0, p.N)
		}
		if got := inst.Checksum(); got != p.Checksum {
			t.Errorf("%s New(%d), %d passes of Chunk(0, %d): Checksum() = %#016x; want %#016x as pinned", p.Name, p.N, w.Calls, p.N, got, p.Checksum)
		}
	}
	for _, w := range every() {
		if !seen[w.Name] {
			t.Errorf("%s pins no checksum of %s", goldenChecksums, w.Name)
		}
	}
}
