package stealrange_test

import (
	"fmt"
	"math"
	"math/bits"
	"testing"

	"github.com/stealkit/stealkit/stealrange"
)

// FuzzSequential checks one goroutine's calls against a sequential model.
// The input decodes into a range [lo, hi) anywhere in the int domain
// (touching math.MinInt or math.MaxInt, or as wide as the domain) and a
// sequence of operations: TryTakeOne, TryTake(k) for small and huge k,
// TrySteal, and Reset to a sub-range of a chunk stolen earlier (after taking
// what is left, as Reset requires). With no other goroutine:
//
//   - every index is handed out at most once per range the owner owns, and
//     lies in that range;
//   - the owner's takes are non-empty, contiguous and ascending from lo, and
//     TryTake(k) returns at most k indices;
//   - steals are non-empty, contiguous and descending from hi;
//   - once a take reports the range exhausted, every index has been handed
//     out exactly once.
func FuzzSequential(f *testing.F) {
	// Layout: mode, length (one byte, or eight if mode&4), where (one byte, or
	// eight if mode&3 == 2), then one byte per operation (see do).
	f.Add([]byte{3, 0, 0, 0, 4, 2, 3})                                            // empty, around 0
	f.Add([]byte{3, 1, 0, 0, 4, 0})                                               // one index
	f.Add([]byte{3, 1, 0, 4, 0, 6, 0, 0, 255, 0})                                 // one index stolen, Reset to it
	f.Add([]byte{0, 10, 0, 4, 0, 2, 7, 5, 1, 0, 6, 0, 0, 255, 0, 4, 0})           // at MinInt
	f.Add([]byte{1, 10, 0, 4, 2, 3, 4, 1, 6, 0, 128, 255, 1, 4, 1})               // ending at MaxInt
	f.Add([]byte{4, 255, 255, 255, 255, 255, 255, 255, 255, 0, 4, 3, 9, 4, 1, 2}) // the whole domain
	f.Add([]byte{3, 200, 0, 0, 0, 4, 4, 2, 5, 6, 1, 64, 192, 0, 0, 4, 0})         // TryTakeOne reserves ahead
	f.Fuzz(func(t *testing.T, data []byte) {
		in := fuzzInput{data: data}
		lo, hi := in.rangeOf()
		c := newSeqChecker(t, lo, hi)
		for !in.empty() {
			c.do(&in)
		}
		c.drain()
	})
}

// fuzzInput reads the fuzz bytes; past the end it reads zeros.
type fuzzInput struct {
	data []byte
}

func (in *fuzzInput) empty() bool { return len(in.data) == 0 }

func (in *fuzzInput) byte() byte {
	if len(in.data) == 0 {
		return 0
	}
	b := in.data[0]
	in.data = in.data[1:]
	return b
}

func (in *fuzzInput) uint64() uint64 {
	var u uint64
	for range 8 {
		u = u<<8 | uint64(in.byte())
	}
	return u
}

// Positions: seqPos maps ints monotonically onto uint64, so that range
// arithmetic cannot overflow (as in the package).
func seqPos(i int) uint64      { return uint64(int64(i)) ^ 1<<63 }
func seqIndex(p uint64) int    { return int(int64(p ^ 1<<63)) }
func seqLen(lo, hi int) uint64 { return seqPos(hi) - seqPos(lo) }

// rangeOf decodes the range: a first byte picks where it lies (bits 0-1)
// and whether its length is a byte or eight (bit 2).
func (in *fuzzInput) rangeOf() (lo, hi int) {
	mode := in.byte()
	var n uint64
	if mode&4 != 0 {
		n = in.uint64()
	} else {
		n = uint64(in.byte())
	}
	minP, maxP := seqPos(math.MinInt), seqPos(math.MaxInt)
	switch mode & 3 {
	case 0: // at MinInt
		p := minP + uint64(in.byte())
		return seqIndex(p), seqIndex(p + min(n, maxP-p))
	case 1: // ending at MaxInt
		p := maxP - uint64(in.byte())
		return seqIndex(p - min(n, p-minP)), seqIndex(p)
	case 2: // anywhere
		u := in.uint64()
		if maxP-minP != math.MaxUint64 { // 32-bit int
			u %= maxP - minP + 1
		}
		p := minP + u
		return seqIndex(p), seqIndex(p + min(n, maxP-p))
	default: // around 0
		p := seqPos(int(int8(in.byte())))
		return seqIndex(p), seqIndex(p + min(n, maxP-p))
	}
}

// seqChunk is [lo, hi) in position space.
type seqChunk struct{ lo, hi uint64 }

// A seqChecker runs the operations on a Range and checks them against the
// sequential model: the owner's takes tile [lo, owned) from the bottom, the
// steals tile [stolen, hi) from the top, and nothing is handed out twice.
type seqChecker struct {
	t      *testing.T
	r      *stealrange.Range
	lo, hi uint64     // the range the owner owns, since New or the last Reset
	owned  uint64     // the owner's takes so far are [lo, owned)
	stolen uint64     // the steals so far are [stolen, hi)
	loot   []seqChunk // every chunk stolen, for Reset
	ops    []string
}

func newSeqChecker(t *testing.T, lo, hi int) *seqChecker {
	c := &seqChecker{t: t, r: stealrange.New(lo, hi)}
	c.start(lo, hi, fmt.Sprintf("New(%d, %d)", lo, hi))
	return c
}

func (c *seqChecker) start(lo, hi int, op string) {
	c.lo, c.hi = seqPos(lo), seqPos(hi)
	c.owned, c.stolen = c.lo, c.hi
	c.ops = append(c.ops, op)
}

func (c *seqChecker) fatalf(format string, args ...any) {
	c.t.Helper()
	c.t.Fatalf("after %v: %s", c.ops, fmt.Sprintf(format, args...))
}

// do runs the operation the next bytes name.
func (c *seqChecker) do(in *fuzzInput) {
	switch op := in.byte(); op % 8 {
	case 0, 1:
		i, ok := c.r.TryTakeOne()
		c.took(fmt.Sprintf("TryTakeOne() = %d, %t", i, ok), seqPos(i), seqPos(i)+1, ok)
	case 2: // a small batch
		k := 1 + int(in.byte()%16)
		a, b, ok := c.r.TryTake(k)
		c.took(fmt.Sprintf("TryTake(%d) = %d, %d, %t", k, a, b, ok), seqPos(a), seqPos(b), ok)
		if ok && seqLen(a, b) > uint64(k) {
			c.fatalf("TryTake(%d) returned %d indices; want at most %d", k, seqLen(a, b), k)
		}
	case 3: // a huge batch
		k := max(1, math.MaxInt>>(in.byte()%64))
		a, b, ok := c.r.TryTake(k)
		c.took(fmt.Sprintf("TryTake(%d) = %d, %d, %t", k, a, b, ok), seqPos(a), seqPos(b), ok)
	case 4, 5:
		a, b, ok := c.r.TrySteal()
		c.stole(fmt.Sprintf("TrySteal() = %d, %d, %t", a, b, ok), seqPos(a), seqPos(b), ok)
	case 6:
		c.reset(in)
	default:
		c.drain()
	}
}

// took checks an owner take of [a, b) (ok == false: exhausted).
func (c *seqChecker) took(op string, a, b uint64, ok bool) {
	c.ops = append(c.ops, op)
	if !ok {
		if c.owned != c.stolen {
			c.fatalf("%s: [%d, %d) was never handed out; want exhausted only when everything was",
				op, seqIndex(c.owned), seqIndex(c.stolen))
		}
		return
	}
	if a != c.owned || a >= b || b > c.stolen {
		c.fatalf("%s; want a non-empty chunk starting at %d and ending by %d (the owner's takes so far are [%d, %d), the steals [%d, %d))",
			op, seqIndex(c.owned), seqIndex(c.stolen), seqIndex(c.lo), seqIndex(c.owned), seqIndex(c.stolen), seqIndex(c.hi))
	}
	c.owned = b
}

// stole checks a steal of [a, b).
func (c *seqChecker) stole(op string, a, b uint64, ok bool) {
	c.ops = append(c.ops, op)
	if !ok {
		return
	}
	if b != c.stolen || a >= b || a < c.owned {
		c.fatalf("%s; want a non-empty chunk ending at %d and starting at or above %d (the owner's takes so far are [%d, %d), the steals [%d, %d))",
			op, seqIndex(c.stolen), seqIndex(c.owned), seqIndex(c.lo), seqIndex(c.owned), seqIndex(c.stolen), seqIndex(c.hi))
	}
	c.stolen = a
	c.loot = append(c.loot, seqChunk{a, b})
}

// drain takes until the range reports exhaustion: a few huge takes at most.
func (c *seqChecker) drain() {
	for range 64 {
		a, b, ok := c.r.TryTake(math.MaxInt)
		c.took(fmt.Sprintf("TryTake(MaxInt) = %d, %d, %t", a, b, ok), seqPos(a), seqPos(b), ok)
		if !ok {
			return
		}
	}
	c.fatalf("64 TryTake(MaxInt) calls did not exhaust the range; want a few")
}

// reset drains the range and Resets it to a sub-range of a chunk stolen
// earlier, which the next bytes pick.
func (c *seqChecker) reset(in *fuzzInput) {
	if len(c.loot) == 0 {
		return
	}
	c.drain()
	ch := c.loot[int(in.byte())%len(c.loot)]
	n := ch.hi - ch.lo
	a := ch.lo + seqScale(n, in.byte())
	b := a + seqScale(ch.hi-a, in.byte())
	c.r.Reset(seqIndex(a), seqIndex(b))
	c.start(seqIndex(a), seqIndex(b), fmt.Sprintf("Reset(%d, %d)", seqIndex(a), seqIndex(b)))
}

// scale returns n*f/255 without overflow.
func seqScale(n uint64, f byte) uint64 {
	hi, lo := bits.Mul64(n, uint64(f))
	q, _ := bits.Div64(hi, lo, 255)
	return q
}
