package stealrange_test

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/stealrange"
)

// FuzzSequential checks one goroutine's calls against a sequential model.
// The input decodes into a range [lo, hi) anywhere in the int domain
// (touching math.MinInt or math.MaxInt, or as wide as the domain) and a
// sequence of operations: TryTakeOne, TryTake(k) for small and huge k,
// TrySteal, GiveBack(from) of a suffix of the last batch taken, and Reset to a
// sub-range of a chunk stolen earlier (after taking what is left, as Reset
// requires). With no other goroutine:
//
//   - every index is handed out at most once per range the owner owns, and
//     lies in that range, except that GiveBack(from) hands [from, hi) of the
//     last batch [lo, hi) back: those count as not handed out, and are handed
//     out again later;
//   - the owner's takes are non-empty, contiguous and ascending from lo (from
//     after a GiveBack), and TryTake(k) returns at most k indices;
//   - steals are non-empty, contiguous and descending from hi;
//   - once a take reports the range exhausted, every index has been handed
//     out exactly once;
//   - GiveBack panics, naming from, when from is outside the last batch, or
//     there is none (after New, Reset or GiveBack). A take that reports
//     exhaustion leaves the last batch in place, so GiveBack may follow it.
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
	f.Add([]byte{3, 10, 0, 2, 3, 5, 128, 4, 0, 5, 0, 7})                          // give back half a batch, then a whole one
	f.Add([]byte{3, 2, 0, 3, 0, 3, 0, 5, 128, 7})                                 // give back after a take reported exhaustion
	f.Add([]byte{3, 4, 0, 5, 0, 2, 1, 133, 0, 5, 255, 5, 0, 7})                   // GiveBack with no batch, outside it, twice
	f.Add([]byte{3, 200, 0, 0, 5, 0, 0, 2, 15, 5, 100, 4, 6, 0, 0, 255, 5, 0, 7}) // give back indices reserved ahead; Reset
	f.Add([]byte{1, 3, 0, 3, 0, 5, 0, 4, 3, 0, 5, 255, 7})                        // give back ending at MaxInt
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
	owned  uint64     // the owner's takes so far are [lo, owned), less what it gave back
	stolen uint64     // the steals so far are [stolen, hi)
	loot   []seqChunk // every chunk stolen, for Reset
	last   seqChunk   // the last batch taken, which GiveBack may hand back a suffix of
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
	c.last = seqChunk{}
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
	case 4:
		a, b, ok := c.r.TrySteal()
		c.stole(fmt.Sprintf("TrySteal() = %d, %d, %t", a, b, ok), seqPos(a), seqPos(b), ok)
	case 5: // with op >= 128, from outside the last batch
		c.giveBack(in.byte(), op >= 128)
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
	c.last = seqChunk{a, b}
}

// giveBack hands back a suffix of the last batch [lo, hi): [from, hi) for
// from = lo + (hi-lo)*f/255. With outside set, or with no last batch, it
// checks that GiveBack panics naming from instead, and changes nothing.
func (c *seqChecker) giveBack(f byte, outside bool) {
	b := c.last
	from, ok := b.lo+seqScale(b.hi-b.lo, f), b.lo < b.hi
	switch {
	case !ok:
		from = c.owned
	case !outside:
	case b.hi < seqPos(math.MaxInt):
		from, ok = b.hi+1, false
	case b.lo > seqPos(math.MinInt):
		from, ok = b.lo-1, false
	default:
		return // the batch is the whole domain
	}
	op := fmt.Sprintf("GiveBack(%d)", seqIndex(from))
	c.ops = append(c.ops, op)
	if !ok {
		defer func() {
			if e := recover(); e == nil {
				c.fatalf("%s returned, with last batch [%d, %d); want a panic", op, seqIndex(b.lo), seqIndex(b.hi))
			} else if msg := fmt.Sprint(e); !strings.Contains(msg, fmt.Sprint(seqIndex(from))) {
				c.fatalf("%s panicked with %q; want the message to name %d", op, msg, seqIndex(from))
			}
		}()
		c.r.GiveBack(seqIndex(from))
		return
	}
	if b.hi != c.owned {
		c.fatalf("the checker's last batch [%d, %d) does not end at %d, where the owner's takes do", seqIndex(b.lo), seqIndex(b.hi), seqIndex(c.owned))
	}
	c.r.GiveBack(seqIndex(from))
	c.owned = from // [from, hi) is to be handed out again
	c.last = seqChunk{}
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
