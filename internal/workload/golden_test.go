package workload_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

// goldenChecksums is the file of pinned checksums that these tests and the benchmark
// runner's tests both read.
const goldenChecksums = "../../testdata/workloads/checksums.txt"

// pinned is one line of goldenChecksums: the checksum of one repetition of workload Name at
// N items, Calls sequential passes over [0, N) after New.
type pinned struct {
	Name     string
	N        int
	Checksum uint64
}

// readPinned parses goldenChecksums: lines "name n checksum", # comments and blank lines.
func readPinned(t *testing.T) []pinned {
	t.Helper()
	f, err := os.Open(goldenChecksums)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []pinned
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 3 {
			t.Fatalf("%s:%d: %d fields; want name, n and checksum", goldenChecksums, line, len(fields))
		}
		n, err1 := strconv.Atoi(fields[1])
		sum, err2 := strconv.ParseUint(fields[2], 0, 64)
		if err1 != nil || err2 != nil || n < 1 {
			t.Fatalf("%s:%d: %q: want a name, n >= 1 and a checksum", goldenChecksums, line, sc.Text())
		}
		ps = append(ps, pinned{fields[0], n, sum})
	}
	if err := sc.Err(); err != nil {
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
