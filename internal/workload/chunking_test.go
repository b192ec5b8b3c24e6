package workload_test

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

// TestChunkingAgrees checks the Instance contract: however [0, n) is cut into disjoint chunks,
// in whatever order and on whatever goroutines they run, one pass gives the checksum of one
// sequential pass; Reset restores the checksum New started with; two instances built alike
// agree.
func TestChunkingAgrees(t *testing.T) {
	for _, w := range every() {
		t.Run(w.Name, func(t *testing.T) {
			n := testSizes[w.Name]
			inst := w.New(n)
			if got := inst.Len(); got != n {
				t.Fatalf("New(%d).Len() = %d", n, got)
			}
			initial := inst.Checksum()

			inst.Chunk(0, n)
			want := inst.Checksum()
			if want == initial {
				t.Fatalf("Chunk(0, %d) left the checksum at its initial value %#x", n, initial)
			}

			rng := rand.New(rand.NewPCG(1, uint64(n)))
			passes := []struct {
				name string
				run  func()
			}{
				{"item by item", func() {
					for i := range n {
						inst.Item(i)
					}
				}},
				{"items in random order", func() {
					for _, i := range rng.Perm(n) {
						inst.Item(i)
					}
				}},
				{"random chunks in random order", func() {
					for _, c := range randomChunks(rng, n) {
						inst.Chunk(c[0], c[1])
					}
				}},
				{"random chunks on 4 goroutines", func() {
					runConcurrently(randomChunks(rng, n), 4, inst.Chunk)
				}},
			}
			for _, p := range passes {
				inst.Reset()
				if got := inst.Checksum(); got != initial {
					t.Fatalf("before %s: Checksum() after Reset = %#x; want the initial %#x", p.name, got, initial)
				}
				p.run()
				if got := inst.Checksum(); got != want {
					t.Errorf("%s: Checksum() = %#x; want %#x as after Chunk(0, %d)", p.name, got, want, n)
				}
			}

			twin := w.New(n)
			if got := twin.Checksum(); got != initial {
				t.Errorf("second New(%d): initial Checksum() = %#x; want %#x", n, got, initial)
			}
			twin.Chunk(0, n)
			if got := twin.Checksum(); got != want {
				t.Errorf("second New(%d): Checksum() after Chunk(0, %d) = %#x; want %#x", n, n, got, want)
			}
			for i := range n {
				if a, b := inst.Cost(i), twin.Cost(i); a != b || !(a >= 0) {
					t.Fatalf("Cost(%d) = %v and %v on two instances; want equal and not negative", i, a, b)
				}
			}
		})
	}
}

// TestTinyAccumulates checks that tiny's checksum tells how many times each item ran: two
// passes differ from one, and two passes done differently agree.
func TestTinyAccumulates(t *testing.T) {
	w, _ := workload.ByName("tiny")
	a, b := w.New(0), w.New(0)
	a.Chunk(0, a.Len())
	once := a.Checksum()
	a.Chunk(0, a.Len())
	if a.Checksum() == once {
		t.Fatalf("tiny: a second Chunk(0, n) did not change the checksum")
	}
	rng := rand.New(rand.NewPCG(2, 2))
	runConcurrently(randomChunks(rng, b.Len()), 3, b.Chunk)
	runConcurrently(randomChunks(rng, b.Len()), 3, b.Chunk)
	if got, want := b.Checksum(), a.Checksum(); got != want {
		t.Errorf("tiny: two concurrent chunked passes give %#x; want %#x as two sequential passes", got, want)
	}
}

// randomChunks cuts [0, n) into disjoint chunks of random lengths, some empty, and returns
// them in random order.
func randomChunks(rng *rand.Rand, n int) [][2]int {
	var chunks [][2]int
	for lo := 0; lo < n; {
		hi := min(n, lo+rng.IntN(n/8+2))
		chunks = append(chunks, [2]int{lo, hi})
		lo = hi
	}
	rng.Shuffle(len(chunks), func(i, j int) { chunks[i], chunks[j] = chunks[j], chunks[i] })
	return chunks
}

// runConcurrently calls chunk for every element of chunks on workers goroutines, which take
// the next chunk from a shared counter, and returns when all have run.
func runConcurrently(chunks [][2]int, workers int, chunk func(lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for k := next.Add(1) - 1; k < int64(len(chunks)); k = next.Add(1) - 1 {
				chunk(chunks[k][0], chunks[k][1])
			}
		})
	}
	wg.Wait()
}
