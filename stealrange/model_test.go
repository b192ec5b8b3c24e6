package stealrange

import (
	"fmt"
	"hash/maphash"
	"math"
	"math/big"
	"math/bits"
	"os"
	"slices"
	"strings"
	"testing"
)

// A model of the protocol, explored exhaustively with state caching.
//
// The model runs take (TryTake(k)), TrySteal, Reset and GiveBack as written in
// range.go, one transition per atomic step, on a state that holds the shared
// words, each thread's pc and locals, and which thread was handed each index.
// Spans carry an identity, so a CAS succeeds iff the thread holds the current span;
// identities are renumbered in order of first use after every step, which
// keeps equal states equal. The search visits every reachable state once,
// counts the interleavings (paths from the start to an end) by dynamic
// programming, and finds the shortest path to a violation breadth first.
//
// The owner's program may also choose: with scenario.anyGives > 0, after each
// successful take of [l, h) it may keep the batch; or process [l, f) and give
// back [f, h) with GiveBack(f), for every f in [l, h]; or process [l, f), hold
// [f, h) for every f in [l, h) and take again, giving back [f, h) if that
// take reports the range exhausted and processing [f, h) if not; up to
// anyGives times. A choice is made in the step that completes the take, so a
// state has one successor per thread and per choice, and the interleavings
// counted are those of every owner program the choices make. Held indices are
// marked 7 in mstate.given.
//
// Each transition names the statement of range.go it mirrors, quoted in
// mirrored, and TestModelMirrorsRangeGo checks that range.go still contains
// every one of them: change the code and the model must be looked at again.
// The model computes spans with the package's own carveMid.

// variant selects the protocol the model runs: the code as written, or the
// code with one step changed.
type variant int

const (
	asWritten variant = iota
	// naiveBatch: a batch reaching into the steal range returns
	// [l, min(l+k, mid)) without a CAS (README.md, "Batch take with an owner CAS").
	naiveBatch
	// resetStealFirst and resetLowFirst: Reset with two writes (README.md,
	// "Three-write Reset and GiveBack").
	resetStealFirst
	resetLowFirst
	// carveRoundsDown: mid = e - (e-l)/4 (README.md, the quarter's
	// rounding; span.go's carve doc).
	carveRoundsDown
	// keepBatchOnLostCAS: after losing its CAS to a thief the owner keeps
	// its whole reservation [l, e) instead of [l, mid).
	keepBatchOnLostCAS
	// claimPastEnd: a winning owner CAS claims [l, e) instead of
	// [l, min(e, end)), ignoring what thieves took above end.
	claimPastEnd
	// shrinkByStore: the owner shrinks with a store instead of a CAS, so it
	// can overwrite a thief's span.
	shrinkByStore
	// thiefIgnoresLow: a thief steals whenever the span is not empty, even
	// when the owner has reserved past mid.
	thiefIgnoresLow
	// noShrink: the owner never shrinks. range.go calls the shrink balance,
	// not correctness (invariant 5); this variant must pass.
	noShrink
	// giveNoClose (g1): GiveBack without the close: its CAS loop, then
	// low = from, with no MaxUint64 window.
	giveNoClose
	// giveStoreNoClose (g1 with a store): GiveBack loads steal, stores
	// carve(from, s.end), then stores low = from.
	giveStoreNoClose
	// giveOpenFirst (g1, the other order): GiveBack stores low = from first,
	// then runs its CAS loop.
	giveOpenFirst
	// giveByStore (g2): GiveBack's set is a store of carve(from, s.end)
	// after the close, instead of a CAS, so it can overwrite a thief's span.
	giveByStore
	// giveLowOnly (g3): GiveBack only stores low = from; the steal range is
	// not carved anew.
	giveLowOnly
)

var variantNames = [...]string{"as written", "naive batch", "Reset: steal then low", "Reset: low then steal",
	"carve rounds down", "keep batch on lost CAS", "claim past end", "shrink by store",
	"thief ignores low", "no shrink", "GiveBack without the close", "GiveBack without the close, by store",
	"GiveBack opening first",
	"GiveBack sets by store", "GiveBack only lowers low"}

func (v variant) String() string { return variantNames[v] }

// mirrored quotes the statements of range.go the model's transitions mirror.
var mirrored = []string{
	"l := r.low.Load()",
	"if l >= r.limit {",
	"e := l + min(k, r.limit-l)",
	"r.low.Store(e)",
	"s := r.steal.Load()",
	"if e <= s.mid {",
	"if d, z := s.mid-e, s.end-s.mid; d/2 < z {",
	"if carveMid(e, s.end) != s.mid {",
	"r.steal.CompareAndSwap(s, r.ownerCarve(e, s.end))",
	"return fromPos(l), fromPos(e), true",
	"if l >= s.end {",
	"r.limit = s.end",
	"c := min(e, s.end)",
	"if r.steal.CompareAndSwap(s, r.ownerCarve(c, s.end)) {",
	"return fromPos(l), fromPos(c), true",
	"r.limit = s.mid",
	"if l < s.mid {",
	"return fromPos(l), fromPos(s.mid), true",
	"if s == nil || s.mid == s.end || l > s.mid {",
	"n = carve(l, s.mid)",
	"n = thief.ownerCarve(l, s.mid)",
	"if !r.steal.CompareAndSwap(s, n) {",
	"return fromPos(s.mid), fromPos(s.end), true",
	"r.low.Store(math.MaxUint64)",
	"r.steal.Store(r.ownerCarve(pl, ph))",
	"s.mid, s.end = carveMid(l, e), e",
	"r.low.Store(pl)",
	"r.limit = ph",
}

// mirroredGiveBack quotes GiveBack's statements the model mirrors, in order:
// TestModelMirrorsRangeGo looks for them in that order in GiveBack's body.
var mirroredGiveBack = []string{
	"p := toPos(from)",
	"if p < r.lastLo || p > r.lastHi || r.lastHi == r.lastLo {",
	"step(stepGiveClose)",
	"r.low.Store(math.MaxUint64)",
	"for {",
	"step(stepGiveLoad)",
	"s := r.steal.Load()",
	"step(stepGiveCAS)",
	"if r.steal.CompareAndSwap(s, r.ownerCarve(p, s.end)) {",
	"break",
	"step(stepGiveOpen)",
	"r.low.Store(p)",
}

// Program counters: the step a thread is parked before. The zero pc is done.
const (
	pcDone = iota
	pcReserve
	pcTakeLoad
	pcShrink
	pcTakeCAS
	pcResetClose
	pcResetSet
	pcResetOpen
	pcResetLowFirst // resetLowFirst: store low = a
	pcResetSetLast  // resetLowFirst: store steal = carve(a, b)
	pcStealLoad
	pcStealLow
	pcStealCAS
	pcGiveClose     // GiveBack: store low = MaxUint64
	pcGiveOpenFirst // giveOpenFirst: store low = from
	pcGiveLoad      // GiveBack: load steal
	pcGiveCAS       // GiveBack: CAS steal to carve(from, s.end)
	pcGiveOpen      // GiveBack: store low = from
)

var pcNames = [...]string{"done", "reserve", "load", "shrink", "cas", "close", "set", "open",
	"open", "set", "load", "low", "cas", "gclose", "gopen", "gload", "gcas", "gopen"}

// Positions are stored as uint16 offsets from the model's base, with
// posMax standing for math.MaxUint64 (Reset's closed low, and the end of a
// range ending at math.MaxInt).
const posMax = math.MaxUint16

// mspan is a span with an identity (0: no span) and the generation of the
// range it belongs to: 0 before Reset's set, 1 after.
type mspan struct {
	id, gen  uint8
	mid, end uint16
}

// mthread is a thread's pc and locals.
type mthread struct {
	pc    uint8
	left  uint8  // thief: attempts left; owner: generation
	l, e  uint16 // owner: the reservation [l, e), or in GiveBack from and the CASes lost; thief: l, the low it read
	limit uint16 // owner: r.limit
	s     mspan  // the span read
	taken uint8  // owner: successful takes so far, up to the last scenario.gives names
	gives uint8  // owner: GiveBack calls left to choose (scenario.anyGives)
}

// mstate is a state of the model: the shared words, the threads (0 is the
// owner), and who was handed what.
type mstate struct {
	low   uint16
	cur   mspan
	th    [maxThreads]mthread
	given uint64 // 3 bits per index, generation 1's after generation 0's: 0, or 1 + the thread handed it, or held
}

// held marks an index of mstate.given the owner holds to give back later.
const held = 7

// A model runs one scenario under one variant.
type model struct {
	sc   *scenario
	v    variant
	k    uint64
	base uint64
	gens [][2]uint64 // in position space
	off  [2]int      // the first bit field of each generation's indices
	// The owner's choice in the step being run, if it completes a take of
	// [l, h) (0: keep the batch; 1+j, j <= h-l: GiveBack(l+j); h-l+2+j, j <
	// h-l: hold [l+j, h)), and how many choices that step offers.
	choice, nchoice int
	maxTaken        uint8 // the cap of mthread.taken
}

// newModel returns the model of sc under v. It panics unless modelled(sc),
// and if the ranges hold more than 21 indices or lie too far apart for
// uint16 positions.
func newModel(sc *scenario, v variant) *model {
	m := &model{sc: sc, v: v, k: uint64(max(1, sc.batch)), gens: sc.gens()}
	if !modelled(sc) {
		panic("model: scenario not modelled")
	}
	m.base = math.MaxUint64
	n := 0
	for g, r := range m.gens {
		m.base = min(m.base, r[0])
		m.off[g] = n
		n += int(r[1] - r[0])
	}
	if n > 21 {
		panic("model: more than 21 indices")
	}
	for _, g := range sc.gives {
		m.maxTaken = max(m.maxTaken, uint8(g.after+1))
	}
	for _, r := range m.gens {
		m.enc(r[0])
		m.enc(r[1])
	}
	return m
}

// modelled reports whether the model runs sc: the owner calls TryTake(k)
// throughout, or TryTakeOne on ranges short enough that it never reserves
// ahead (there it is take(1)); there are at most 3 thieves.
func modelled(sc *scenario) bool {
	for _, r := range sc.gens() {
		if sc.batch == 0 && r[1]-r[0] >= 16*maxAhead {
			return false
		}
	}
	return sc.ones == 0 && len(sc.thieves) < maxThreads
}

func (m *model) dec(x uint16) uint64 {
	if x == posMax {
		return math.MaxUint64
	}
	return m.base + uint64(x)
}

func (m *model) enc(p uint64) uint16 {
	if p == math.MaxUint64 {
		return posMax
	}
	if p < m.base || p-m.base >= posMax {
		panic(fmt.Sprintf("model: position %d outside the model's window", p))
	}
	return uint16(p - m.base)
}

// carve is span.go's carve, or the variant's.
func (m *model) carve(l, e uint64, gen uint8) mspan {
	mid := carveMid(l, e)
	if m.v == carveRoundsDown {
		mid = e - (e-l)/4
	}
	return mspan{id: 7, gen: gen, mid: m.enc(mid), end: m.enc(e)} // 7: fresh until renumbered
}

func (m *model) initial() (mstate, string) {
	var s mstate
	r := m.gens[0]
	s.cur = m.carve(r[0], r[1], 0) // range.go New
	s.low = m.enc(r[0])
	s.th[0].limit = m.enc(r[1])
	s.th[0].gives = uint8(m.sc.anyGives)
	for i, t := range m.sc.thieves {
		if t.attempts > 0 {
			s.th[1+i] = mthread{pc: pcStealLoad, left: uint8(t.attempts)}
		}
	}
	m.takeStart(&s)
	s.renumber()
	return s, m.balance(&s)
}

// renumber renames span identities in order of first use.
func (s *mstate) renumber() {
	var to [8]uint8
	next := uint8(1)
	re := func(sp *mspan) {
		if sp.id == 0 {
			return
		}
		if to[sp.id] == 0 {
			to[sp.id] = next
			next++
		}
		sp.id = to[sp.id]
	}
	re(&s.cur)
	for i := range s.th {
		re(&s.th[i].s)
	}
}

// takeStart runs take's code before its first step, or ends a take loop.
func (m *model) takeStart(s *mstate) {
	o := &s.th[0]
	l, limit := m.dec(s.low), m.dec(o.limit) // l := r.low.Load()
	if l >= limit {                          // if l >= r.limit {
		m.exhausted(s)
		return
	}
	e := l + min(m.k, limit-l) // e := l + min(k, r.limit-l)
	o.pc, o.l, o.e, o.s = pcReserve, m.enc(l), m.enc(e), mspan{}
}

// exhausted is the owner's program after a take reported exhaustion.
func (m *model) exhausted(s *mstate) {
	if f, ok := m.settle(s, 0); ok {
		m.giveBack(s, f) // the last batch taken is the one held
		return
	}
	o := &s.th[0]
	o.pc, o.l, o.e, o.s = pcDone, 0, 0, mspan{}
	if o.left == 0 && m.sc.reset {
		switch m.v {
		case resetStealFirst:
			o.pc = pcResetSet
		case resetLowFirst:
			o.pc = pcResetLowFirst
		default:
			o.pc = pcResetClose
		}
	}
}

// give records that thread th was handed [lo, hi) of generation gen.
func (m *model) give(s *mstate, th int, gen uint8, lo, hi uint64) string {
	r := m.gens[gen]
	switch {
	case lo >= hi:
		return fmt.Sprintf("thread %d was handed [%d, %d): want a non-empty chunk", th, fromPos(lo), fromPos(hi))
	case lo < r[0] || hi > r[1]:
		return fmt.Sprintf("thread %d was handed [%d, %d): want a chunk of range %d, [%d, %d)",
			th, fromPos(lo), fromPos(hi), gen, fromPos(r[0]), fromPos(r[1]))
	}
	for p := lo; p < hi; p++ {
		sh := 3 * (m.off[gen] + int(p-r[0]))
		if got := s.given >> sh & 7; got == held {
			return fmt.Sprintf("index %d of range %d was held by thread 0 and handed to thread %d; want exactly once",
				fromPos(p), gen, th)
		} else if got != 0 {
			return fmt.Sprintf("index %d of range %d was handed to thread %d and to thread %d; want exactly once",
				fromPos(p), gen, got-1, th)
		}
		s.given |= uint64(th+1) << sh
	}
	return ""
}

// settle ends the owner's hold on the indices it holds (they are [f, h) of
// its current range): it processes them (to == 1) or gives them back (to ==
// 0). It reports f, and whether the owner held any.
func (m *model) settle(s *mstate, to uint64) (f uint64, ok bool) {
	gen := s.th[0].left
	r := m.gens[gen]
	for p := r[0]; p < r[1]; p++ {
		if sh := 3 * (m.off[gen] + int(p-r[0])); s.given>>sh&7 == held {
			if !ok {
				f, ok = p, true
			}
			s.given = s.given&^(7<<sh) | to<<sh
		}
	}
	return f, ok
}

// step runs thread th's next step and the code after it up to the step after
// that. It returns a description of a violation, or "".
func (m *model) step(s *mstate, th int) (bad string) {
	defer s.renumber()
	t := &s.th[th]
	if th > 0 {
		return m.stealStep(s, th, t)
	}
	l, e := m.dec(t.l), m.dec(t.e)
	mid, end := m.dec(t.s.mid), m.dec(t.s.end)
	switch t.pc {
	case pcReserve:
		s.low = t.e // r.low.Store(e)
		t.pc = pcTakeLoad
		return ""
	case pcTakeLoad:
		t.s = s.cur // s := r.steal.Load()
		mid, end = m.dec(t.s.mid), m.dec(t.s.end)
		if e <= mid { // if e <= s.mid {
			// if d, z := s.mid-e, s.end-s.mid; d/2 < z {
			// if carveMid(e, s.end) != s.mid {
			if d, z := mid-e, end-mid; d/2 < z && m.carve(e, end, 0).mid != t.s.mid && m.v != noShrink {
				t.pc = pcShrink
				return ""
			}
			return m.takeDone(s, l, e) // return fromPos(l), fromPos(e), true
		}
		if m.v == naiveBatch && l < mid {
			return m.takeDone(s, l, mid)
		}
		if l >= end { // if l >= s.end {
			t.limit = t.s.end // r.limit = s.end
			m.exhausted(s)
			return ""
		}
		t.pc = pcTakeCAS
		return ""
	case pcShrink:
		// r.steal.CompareAndSwap(s, r.ownerCarve(e, s.end))
		if s.cur.id == t.s.id || m.v == shrinkByStore {
			s.cur = m.carve(e, end, t.s.gen)
		}
		return m.takeDone(s, l, e) // return fromPos(l), fromPos(e), true
	case pcTakeCAS:
		c := min(e, end) // c := min(e, s.end)
		// if r.steal.CompareAndSwap(s, r.ownerCarve(c, s.end)) {
		if s.cur.id == t.s.id {
			s.cur = m.carve(c, end, t.s.gen)
			if m.v == claimPastEnd {
				return m.takeDone(s, l, e)
			}
			return m.takeDone(s, l, c) // return fromPos(l), fromPos(c), true
		}
		t.limit = t.s.mid // r.limit = s.mid
		if m.v == keepBatchOnLostCAS {
			return m.takeDone(s, l, e)
		}
		if l < mid { // if l < s.mid {
			return m.takeDone(s, l, mid) // return fromPos(l), fromPos(s.mid), true
		}
		m.exhausted(s)
		return ""
	}
	switch t.pc {
	case pcResetClose:
		s.low = posMax // r.low.Store(math.MaxUint64)
		t.pc = pcResetSet
	case pcResetSet:
		s.cur = m.carve(m.gens[1][0], m.gens[1][1], 1) // r.steal.Store(r.ownerCarve(pl, ph))
		t.pc = pcResetOpen
	case pcResetOpen:
		s.low = m.enc(m.gens[1][0])   // r.low.Store(pl)
		t.limit = m.enc(m.gens[1][1]) // r.limit = ph
		t.left = 1
		m.takeStart(s)
	case pcResetLowFirst:
		s.low = m.enc(m.gens[1][0])
		t.pc = pcResetSetLast
	case pcResetSetLast:
		s.cur = m.carve(m.gens[1][0], m.gens[1][1], 1)
		t.limit = m.enc(m.gens[1][1])
		t.left = 1
		m.takeStart(s)
	case pcGiveClose:
		s.low = posMax // r.low.Store(math.MaxUint64)
		t.pc = pcGiveLoad
	case pcGiveOpenFirst:
		s.low = t.l
		t.pc = pcGiveLoad
	case pcGiveLoad:
		t.s = s.cur // s := r.steal.Load()
		t.pc = pcGiveCAS
	case pcGiveCAS:
		// if r.steal.CompareAndSwap(s, r.ownerCarve(p, s.end)) {
		if s.cur.id != t.s.id && m.v != giveByStore && m.v != giveStoreNoClose {
			// A thief won s. Once the close has run, only a thief that
			// read low before it can, and then only once.
			t.pc, t.s = pcGiveLoad, mspan{}
			if t.e++; int(t.e) > len(m.sc.thieves) {
				return fmt.Sprintf("GiveBack lost its CAS %d times to %d thieves; want at most once per thief", t.e, len(m.sc.thieves))
			}
			return ""
		}
		s.cur = m.carve(l, end, t.s.gen)
		t.pc, t.e, t.s = pcGiveOpen, 0, mspan{} // break
		if m.v == giveOpenFirst {
			m.takeStart(s)
		}
	case pcGiveOpen:
		s.low = t.l // r.low.Store(p)
		m.takeStart(s)
	}
	return ""
}

// takeDone records the owner's take of [lo, hi) and runs the owner's program
// up to its next step. The owner first processes what it held, if anything;
// then it keeps the batch and takes again, or processes [lo, f) and
// GiveBack(f), or processes [lo, f), holds [f, hi) and takes again, as
// scenario.gives says or, with scenario.anyGives, as m.choice chooses
// (setting m.nchoice to the number of choices).
func (m *model) takeDone(s *mstate, lo, hi uint64) string {
	o := &s.th[0]
	m.settle(s, 1) // the owner processes what it held
	f, giving, late := hi, false, false
	if n := hi - lo; o.gives > 0 {
		m.nchoice = 2 + 2*int(n)
		switch c := uint64(m.choice); {
		case c == 0:
		case c <= n+1:
			f, giving = lo+c-1, true
		default:
			f, late = lo+c-n-2, true
		}
		if giving || late {
			o.gives--
		}
	}
	for _, g := range m.sc.gives {
		if g.after == int(o.taken) {
			f, giving, late = lo+min(uint64(g.keep), hi-lo), !g.late, g.late
		}
	}
	o.taken = min(o.taken+1, m.maxTaken)
	if f > lo || !giving && !late {
		if bad := m.give(s, 0, o.left, lo, f); bad != "" {
			return bad
		}
	}
	if late {
		r := m.gens[o.left]
		for p := f; p < hi; p++ {
			s.given |= held << (3 * (m.off[o.left] + int(p-r[0])))
		}
	}
	if giving {
		m.giveBack(s, f)
		return ""
	}
	m.takeStart(s)
	return ""
}

// giveBack starts the owner's GiveBack(f) (its panic check passes: f lies
// in the batch just taken).
func (m *model) giveBack(s *mstate, f uint64) {
	o := &s.th[0]
	o.l, o.e, o.s = m.enc(f), 0, mspan{}
	switch m.v {
	case giveNoClose, giveStoreNoClose:
		o.pc = pcGiveLoad
	case giveOpenFirst:
		o.pc = pcGiveOpenFirst
	case giveLowOnly:
		o.pc = pcGiveOpen
	default:
		o.pc = pcGiveClose // step(stepGiveClose)
	}
}

func (m *model) stealStep(s *mstate, th int, t *mthread) string {
	switch t.pc {
	case pcStealLoad:
		t.s = s.cur // s := r.steal.Load()
		t.pc = pcStealLow
		return ""
	case pcStealLow:
		t.l = s.low // l := r.low.Load()
		// if s == nil || s.mid == s.end || l > s.mid {
		// (The model's spans are never nil: it starts a zero Range as New(MinInt,
		// MinInt), whose empty span backs every thief off at this check, as nil does.)
		if t.s.mid == t.s.end || m.dec(t.l) > m.dec(t.s.mid) && m.v != thiefIgnoresLow {
			m.attemptDone(th, t, false)
			return ""
		}
		t.l = m.enc(min(m.dec(t.l), m.dec(t.s.mid)))
		t.pc = pcStealCAS
		return ""
	}
	// n := carve(l, s.mid)
	// if !r.steal.CompareAndSwap(s, n) {
	if s.cur.id != t.s.id {
		m.attemptDone(th, t, false)
		return ""
	}
	s.cur = m.carve(m.dec(t.l), m.dec(t.s.mid), t.s.gen)
	// return fromPos(s.mid), fromPos(s.end), true
	bad := m.give(s, th, t.s.gen, m.dec(t.s.mid), m.dec(t.s.end))
	m.attemptDone(th, t, true)
	return bad
}

func (m *model) attemptDone(th int, t *mthread, stole bool) {
	*t = mthread{pc: pcStealLoad, left: t.left - 1}
	if t.left == 0 || stole && m.sc.thieves[th-1].once {
		t.pc = pcDone
	}
}

// balance checks span.go's promise that an empty steal range means nothing
// is left: with the range open, every index at or above low (the owner's
// reservations lie below it) has been handed out.
func (m *model) balance(s *mstate) string {
	if s.cur.mid != s.cur.end || s.low == posMax {
		return ""
	}
	r := m.gens[s.cur.gen]
	for p := max(m.dec(s.low), r[0]); p < r[1]; p++ {
		if s.given>>(3*(m.off[s.cur.gen]+int(p-r[0])))&7 == 0 {
			return fmt.Sprintf("the steal range is empty while index %d of range %d is left: thieves cannot steal it", fromPos(p), s.cur.gen)
		}
	}
	return ""
}

// lost reports an index of a terminal state that was never handed out.
func (m *model) lost(s *mstate) string {
	for g, r := range m.gens {
		for p := r[0]; p < r[1]; p++ {
			if s.given>>(3*(m.off[g]+int(p-r[0])))&7 == 0 {
				return fmt.Sprintf("index %d of range %d was never handed out; want exactly once", fromPos(p), g)
			}
		}
	}
	return ""
}

// outcome formats who got each index as tally does.
func (m *model) outcome(s *mstate) string {
	var b strings.Builder
	for g, r := range m.gens {
		for i := range int(r[1] - r[0]) {
			b.WriteByte(byte('0' + s.given>>(3*(m.off[g]+i))&7 - 1))
		}
		b.WriteByte('|')
	}
	return b.String()
}

// A search is the result of exploring a model.
type search struct {
	states   int
	paths    *big.Int        // interleavings from the start to an end
	outcomes map[string]bool // of the ends
	bad      []violation     // the first (shortest) of each kind: descriptions equal but for numbers
}

type violation struct {
	what, path string
}

// graph is the explored state graph. One is kept between searches (the
// model's tests run one at a time) so that its memory is reused.
type graph struct {
	slots  []uint64 // open addressing: hash<<32 | 1+state, 0 if empty
	states []mstate
	hashes []uint64
	parent []int32 // the state a shortest path reaches each state from
	via    []uint8 // and the move that steps there (see move)
	first  []int32 // state i's successors are succ[first[i]:first[i+1]]
	succ   []int32
	order  []int32
	indeg  []int32
	paths  []uint64
}

var modelGraph graph

var modelSeed = maphash.MakeSeed()

// A move is a step of thread th, with the owner's choice ch in it (see
// model.choice): th + maxThreads*ch.
func move(th, ch int) uint8 { return uint8(th + maxThreads*ch) }

// find returns the number of state s, or adds it, from state from by move
// mv, and returns its number.
func (g *graph) find(s *mstate, from int32, mv uint8) int32 {
	if 2*len(g.states) >= len(g.slots) {
		g.rehash(2 * len(g.slots))
	}
	h := maphash.Comparable(modelSeed, *s)
	mask := uint64(len(g.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := g.slots[i]
		if v == 0 {
			g.slots[i] = h&^(1<<32-1) | uint64(len(g.states)+1)
			g.states, g.hashes = append(g.states, *s), append(g.hashes, h)
			g.parent, g.via = append(g.parent, from), append(g.via, mv)
			return int32(len(g.states) - 1)
		}
		if j := int32(v&(1<<32-1)) - 1; v>>32 == h>>32 && g.states[j] == *s {
			return j
		}
	}
}

// rehash makes n slots (a power of 2) and re-enters the states.
func (g *graph) rehash(n int) {
	g.slots = make([]uint64, n)
	mask := uint64(n - 1)
	for j, h := range g.hashes {
		i := h & mask
		for g.slots[i] != 0 {
			i = (i + 1) & mask
		}
		g.slots[i] = h&^(1<<32-1) | uint64(j+1)
	}
}

// explore visits every state reachable from the start, breadth first, and
// records the first violation of each kind (the shortest counterexample).
// Kinds: a bad handout, a lost index, an empty steal range with indices left,
// a GiveBack that loses its CAS more than once per thief, and a cycle
// (threads that never all finish).
func (m *model) explore() *search {
	r := &search{outcomes: map[string]bool{}}
	g := &modelGraph
	g.slots = make([]uint64, 1<<10)
	g.states, g.hashes, g.parent, g.via = g.states[:0], g.hashes[:0], g.parent[:0], g.via[:0]
	g.first, g.succ = g.first[:0], g.succ[:0]
	seen := map[string]bool{}
	report := func(i int32, mv int, what string) {
		kind := strings.Map(func(r rune) rune {
			if r == '-' || '0' <= r && r <= '9' {
				return -1
			}
			return r
		}, what)
		if what == "" || seen[kind] {
			return
		}
		seen[kind] = true
		r.bad = append(r.bad, violation{what, m.path(g, i, mv)})
	}
	s0, bad := m.initial()
	g.find(&s0, -1, 0)
	report(0, -1, bad)
	for i := int32(0); int(i) < len(g.states); i++ {
		g.first = append(g.first, int32(len(g.succ)))
		s := g.states[i]
		end := true
		for th := range s.th {
			if s.th[th].pc == pcDone {
				continue
			}
			end = false
			for ch, n := 0, 1; ch < n; ch++ {
				c := s
				m.choice, m.nchoice = ch, 1
				bad := m.step(&c, th)
				n = m.nchoice
				if bad != "" {
					report(i, int(move(th, ch)), bad)
					continue
				}
				j := g.find(&c, i, move(th, ch))
				g.succ = append(g.succ, j)
				if int(j) == len(g.states)-1 {
					report(j, -1, m.balance(&c))
				}
			}
		}
		if end {
			if bad := m.lost(&s); bad != "" {
				report(i, -1, bad)
			} else {
				r.outcomes[m.outcome(&s)] = true
			}
		}
	}
	g.first = append(g.first, int32(len(g.succ)))
	r.states = len(g.states)
	if !g.topo() {
		for i, d := range g.indeg {
			if d > 0 {
				report(int32(i), -1, "cycle: a reachable state repeats, so some thread never finishes")
				break
			}
		}
		return r
	}
	r.paths = g.count()
	return r
}

// topo puts the states in topological order (Kahn) and reports whether
// there is one: states left over lie on or behind a cycle.
func (g *graph) topo() bool {
	g.indeg = append(g.indeg[:0], make([]int32, len(g.states))...)
	for _, j := range g.succ {
		g.indeg[j]++
	}
	g.order = g.order[:0]
	for i, d := range g.indeg {
		if d == 0 {
			g.order = append(g.order, int32(i))
		}
	}
	for q := 0; q < len(g.order); q++ {
		i := g.order[q]
		for _, j := range g.succ[g.first[i]:g.first[i+1]] {
			if g.indeg[j]--; g.indeg[j] == 0 {
				g.order = append(g.order, j)
			}
		}
	}
	return len(g.order) == len(g.states)
}

// count returns the number of paths from the start to a state where every
// thread is done, in reverse topological order: in uint64 while that is
// exact, else in math/big.
func (g *graph) count() *big.Int {
	g.paths = append(g.paths[:0], make([]uint64, len(g.states))...)
	for q := len(g.order) - 1; q >= 0; q-- {
		i := g.order[q]
		if g.states[i].done() {
			g.paths[i] = 1
		}
		for _, j := range g.succ[g.first[i]:g.first[i+1]] {
			var carry uint64
			if g.paths[i], carry = bits.Add64(g.paths[i], g.paths[j], 0); carry != 0 {
				return g.countBig()
			}
		}
	}
	return new(big.Int).SetUint64(g.paths[0])
}

func (g *graph) countBig() *big.Int {
	paths := make([]big.Int, len(g.states))
	for q := len(g.order) - 1; q >= 0; q-- {
		i := g.order[q]
		if g.states[i].done() {
			paths[i].SetInt64(1)
		}
		for _, j := range g.succ[g.first[i]:g.first[i+1]] {
			paths[i].Add(&paths[i], &paths[j])
		}
	}
	return &paths[0]
}

func (s *mstate) done() bool {
	for _, t := range s.th {
		if t.pc != pcDone {
			return false
		}
	}
	return true
}

// path formats the schedule from the start to state i, then move mv (mv < 0:
// none), as schedule does. A step after which the owner starts GiveBack(f)
// is followed by "+giveback(f)", one after which the owner holds [f, h) to
// give back if its next take reports exhaustion by "+hold(f)".
func (m *model) path(g *graph, i int32, mv int) string {
	var steps []string
	name := func(s, next *mstate, mv int) string {
		th := mv % maxThreads
		who := "o:"
		if th > 0 {
			who = fmt.Sprintf("t%d:", th)
		}
		str := who + pcNames[s.th[th].pc]
		if th > 0 || next == nil {
			return str
		}
		c, d := *s, *next
		_, was := m.settle(&c, held) // held stays held: this only looks
		if f, is := m.settle(&d, held); is && !was {
			str += fmt.Sprintf("+hold(%d)", fromPos(f))
		}
		if next.th[0].pc >= pcGiveClose && s.th[0].pc < pcGiveClose {
			str += fmt.Sprintf("+giveback(%d)", fromPos(m.dec(next.th[0].l)))
		}
		return str
	}
	if mv >= 0 {
		steps = append(steps, name(&g.states[i], nil, mv))
	}
	for ; g.parent[i] >= 0; i = g.parent[i] {
		steps = append(steps, name(&g.states[g.parent[i]], &g.states[i], int(g.via[i])))
	}
	slices.Reverse(steps)
	if len(steps) == 0 {
		return "(the initial state)"
	}
	return strings.Join(steps, " ")
}

// TestModelMirrorsRangeGo: range.go still contains every statement the model
// mirrors. If this fails, range.go changed: update the model to match it.
func TestModelMirrorsRangeGo(t *testing.T) {
	src, err := os.ReadFile("range.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range mirrored {
		if !strings.Contains(string(src), stmt) {
			t.Errorf("range.go does not contain %q, which the model mirrors; want the model updated", stmt)
		}
	}
	const sig = "\nfunc (r *Range) GiveBack(from int) {\n"
	_, body, ok := strings.Cut(string(src), sig)
	if ok {
		body, _, ok = strings.Cut(body, "\n}\n")
	}
	if !ok {
		t.Fatalf("range.go has no %q ending in a line \"}\"; want the model of GiveBack updated", strings.TrimSpace(sig))
	}
	rest := body
	for _, stmt := range mirroredGiveBack {
		_, after, found := strings.Cut(rest, stmt)
		if !found {
			if strings.Contains(body, stmt) {
				t.Errorf("GiveBack in range.go has %q out of order, which the model mirrors; want the model updated", stmt)
			} else {
				t.Errorf("GiveBack in range.go does not contain %q, which the model mirrors; want the model updated", stmt)
			}
			continue
		}
		rest = after
	}
}

// modelRun explores sc under v and fails on any violation.
func modelRun(t *testing.T, sc *scenario, v variant) *search {
	t.Helper()
	r := newModel(sc, v).explore()
	for _, b := range r.bad {
		t.Errorf("%s, %v: %s\nschedule: %s", sc.name, v, b.what, b.path)
	}
	return r
}

// modelSweep explores [lo, lo+n) for every n in ns under v and logs the
// totals.
func modelSweep(t *testing.T, sc scenario, lo int, ns []int, v variant) {
	t.Helper()
	states, paths := 0, new(big.Int)
	var last *search
	for _, n := range ns {
		sc.lo, sc.hi = lo, lo+n
		sc.name = fmt.Sprintf("[%d,%d)", lo, lo+n)
		last = modelRun(t, &sc, v)
		states += last.states
		if last.paths != nil {
			paths.Add(paths, last.paths)
		}
	}
	t.Logf("n=%d..%d: %d states, %v interleavings; n=%d alone: %d states, %v interleavings",
		ns[0], ns[len(ns)-1], states, paths, ns[len(ns)-1], last.states, last.paths)
}

// TestModelExactlyOnce explores every interleaving of the owner's
// TryTake(k) loop against thieves that steal until their attempts run out:
// every index is handed out exactly once, every thread finishes (no state
// repeats), and the steal range is empty only when nothing is left.
func TestModelExactlyOnce(t *testing.T) {
	n, n3 := 10, 4 // largest ranges with 2 and with 3 busy thieves
	if raceEnabled {
		// The model runs on one goroutine: the race detector has nothing
		// to find in it.
		n, n3 = 4, 2
	}
	rows := []struct {
		name    string
		lo      int
		ns      []int
		thieves []thief
		v       variant
	}{
		{"2-thieves-x3", 0, upto(n), []thief{{attempts: 3}, {attempts: 3}}, asWritten},
		{"3-thieves-x1", 0, upto(n), threeThieves, asWritten},
		{"3-thieves-x2", 0, upto(n3), []thief{{attempts: 2}, {attempts: 2}, {attempts: 2}}, asWritten},
		{"3-thieves-x3-stop-after-a-steal", 0, upto(n3 + 2), []thief{{attempts: 3, once: true}, {attempts: 3, once: true}, {attempts: 3, once: true}}, asWritten},
		{"at-MinInt/2-thieves-x2", math.MinInt, upto(n), twoThieves, asWritten},
		{"ending-at-MaxInt/2-thieves-x2", math.MaxInt - n, []int{n}, twoThieves, asWritten},
		// range.go calls the shrink balance, not correctness: without it
		// every index is still handed out exactly once.
		{"without-the-shrink/2-thieves-x3", 0, upto(n), []thief{{attempts: 3}, {attempts: 3}}, noShrink},
	}
	for _, row := range rows {
		// 8 is maxAhead: TryTakeOne's batch far from the steal range.
		for _, k := range []int{1, 2, 3, 4, 8} {
			t.Run(fmt.Sprintf("TryTake(%d)-until-exhausted/%s", k, row.name), func(t *testing.T) {
				modelSweep(t, scenario{batch: k, thieves: row.thieves}, row.lo, row.ns, row.v)
			})
		}
	}
}

// TestModelReset: the owner takes [lo, lo+n1) until exhausted, Resets to
// [rlo, rlo+n2) and takes that until exhausted, while thieves keep stealing
// across the Reset: every index of both ranges is handed out exactly once, in
// the range it belongs to, wherever the new range lies.
func TestModelReset(t *testing.T) {
	n := 3
	if raceEnabled {
		n = 1 // as in TestModelExactlyOnce
	}
	rows := []struct {
		name    string
		lo, rlo int
	}{
		{"below", 10, 0},
		{"same-indices", 0, 0},
		{"overlapping", 0, 1},
		{"adjacent-above", 0, -1}, // rlo = lo + n1
		{"above-with-gap", 0, 12},
		{"at-MinInt", math.MinInt, math.MinInt + 8},
		{"from-the-end-of-MaxInt", math.MaxInt - 12, math.MaxInt - 20},
	}
	for _, row := range rows {
		for k := 1; k <= 2; k++ {
			t.Run(fmt.Sprintf("%s/TryTake(%d)/2-thieves-x3", row.name, k), func(t *testing.T) {
				states, paths := 0, new(big.Int)
				for n1 := range n + 1 {
					for n2 := range n + 1 {
						lo, hi, rlo := row.lo, row.lo+n1, row.rlo
						if row.name == "from-the-end-of-MaxInt" {
							lo, hi = math.MaxInt-n1, math.MaxInt
						}
						if rlo == -1 {
							rlo = hi
						}
						sc := scenario{name: fmt.Sprintf("[%d,%d) then [%d,%d)", lo, hi, rlo, rlo+n2),
							lo: lo, hi: hi, batch: k, reset: true, rlo: rlo, rhi: rlo + n2,
							thieves: []thief{{attempts: 3}, {attempts: 3}}}
						r := modelRun(t, &sc, asWritten)
						states += r.states
						if r.paths != nil {
							paths.Add(paths, r.paths)
						}
					}
				}
				t.Logf("n1, n2 = 0..%d: %d states, %v interleavings", n, states, paths)
			})
		}
	}
}

// TestModelFindsKnownBugs: the checker is not vacuous. For each known-broken
// variant of one step it finds a violation of the kind named, in the first of
// a list of scenarios growing from no thief to two thieves across a Reset,
// and logs the shortest counterexample in that scenario.
func TestModelFindsKnownBugs(t *testing.T) {
	var scs []scenario
	for _, th := range [][]thief{nil, {{attempts: 2}}, twoThieves} {
		for n := 1; n <= 6; n++ {
			for k := 1; k <= 4; k++ {
				scs = append(scs, scenario{name: fmt.Sprintf("TryTake(%d) over [0,%d) with %d thieves", k, n, len(th)),
					lo: 0, hi: n, batch: k, thieves: th})
			}
		}
	}
	for _, th := range [][]thief{{{attempts: 2}}, twoThieves} {
		for _, g := range [][2]int{{10, 0}, {0, 0}, {0, 12}} {
			for n1 := range 4 {
				for n2 := range 4 {
					scs = append(scs, scenario{name: fmt.Sprintf("TryTake(2) over [%d,%d), Reset to [%d,%d), with %d thieves",
						g[0], g[0]+n1, g[1], g[1]+n2, len(th)),
						lo: g[0], hi: g[0] + n1, batch: 2, reset: true, rlo: g[1], rhi: g[1] + n2, thieves: th})
				}
			}
		}
	}
	const (
		twice = "and to thread"
		lost  = "never handed out"
		chunk = "want a chunk"
		empty = "steal range is empty"
	)
	for _, c := range []struct {
		v    variant
		want string
	}{
		{naiveBatch, lost},       // (a)
		{resetStealFirst, chunk}, // (b)
		{resetLowFirst, twice},   // (b)
		// (c) In this protocol rounding down is not a safety bug (the model
		// finds no index lost or handed out twice), but thieves can never
		// steal the last 1 to 3 indices.
		{carveRoundsDown, empty},
		{keepBatchOnLostCAS, twice}, // (d) and on
		{claimPastEnd, twice},
		{shrinkByStore, twice},
		{thiefIgnoresLow, twice},
	} {
		t.Run(c.v.String(), func(t *testing.T) {
			for _, sc := range scs {
				r := newModel(&sc, c.v).explore()
				for _, b := range r.bad {
					if strings.Contains(b.what, c.want) {
						t.Logf("%s: %s\nschedule: %s", sc.name, b.what, b.path)
						return
					}
				}
			}
			t.Errorf("no violation found; want one whose description contains %q", c.want)
		})
	}
}

// TestModelGiveBack explores every interleaving of owners that may give
// back part of any batch, against thieves that steal until their attempts
// run out: after each successful take of [l, h) the owner may keep the
// batch, process [l, f) and GiveBack(f) for any f in [l, h], or hold [f, h)
// and give it back if its next take reports exhaustion, up to a number of
// times (scenario.anyGives), and then takes until exhausted. Every index is
// handed out exactly once, every thread finishes (GiveBack's CAS loop ends:
// it loses at most once per thief, since after the close a thief's next
// attempt backs off), and the steal range is empty only when nothing is
// left. The interleavings counted include the owner's choices.
func TestModelGiveBack(t *testing.T) {
	n, n2 := 8, 4 // largest ranges with cheap and dear rows
	if raceEnabled {
		n, n2 = 2, 1 // as in TestModelExactlyOnce
	}
	rows := []struct {
		name    string
		lo      int
		ns      []int
		thieves []thief
		gives   int
	}{
		{"1-thief-x3/up-to-3-givebacks", 0, upto(n), []thief{{attempts: 3}}, 3},
		{"2-thieves-x2/1-giveback", 0, upto(n), twoThieves, 1},
		{"2-thieves-x2/up-to-2-givebacks", 0, upto(n2), twoThieves, 2},
		{"3-thieves-x1/1-giveback", 0, upto(n2), threeThieves, 1},
		{"at-MinInt/1-thief-x3/up-to-2-givebacks", math.MinInt, upto(n), []thief{{attempts: 3}}, 2},
		{"ending-at-MaxInt/1-thief-x3/up-to-2-givebacks", math.MaxInt - n, []int{n}, []thief{{attempts: 3}}, 2},
		{"ending-at-MaxInt/2-thieves-x2/1-giveback", math.MaxInt - n2, []int{n2}, twoThieves, 1},
	}
	for _, row := range rows {
		for k := 1; k <= 4; k++ {
			t.Run(fmt.Sprintf("TryTake(%d)/%s", k, row.name), func(t *testing.T) {
				modelSweep(t, scenario{batch: k, thieves: row.thieves, anyGives: row.gives}, row.lo, row.ns, asWritten)
			})
		}
	}
}

// TestModelGiveBackReset: as TestModelGiveBack, with a Reset between two
// ranges, wherever the second lies: the owner may give back in either range,
// and thieves keep stealing across the Reset and the GiveBacks.
func TestModelGiveBackReset(t *testing.T) {
	n := 3
	if raceEnabled {
		n = 1
	}
	rows := []struct {
		name    string
		lo, rlo int
		thieves []thief
		gives   int
		ks      []int
	}{
		{"below/1-thief-x3/up-to-2-givebacks", 10, 0, []thief{{attempts: 3}}, 2, []int{1, 2}},
		{"same-indices/1-thief-x3/up-to-2-givebacks", 0, 0, []thief{{attempts: 3}}, 2, []int{1, 2}},
		{"above-with-gap/1-thief-x3/up-to-2-givebacks", 0, 12, []thief{{attempts: 3}}, 2, []int{1, 2}},
		{"from-the-end-of-MaxInt/1-thief-x3/up-to-2-givebacks", math.MaxInt - 12, math.MaxInt - 20, []thief{{attempts: 3}}, 2, []int{1, 2}},
		{"same-indices/2-thieves-x2/1-giveback", 0, 0, twoThieves, 1, []int{2}},
	}
	for _, row := range rows {
		for _, k := range row.ks {
			t.Run(fmt.Sprintf("%s/TryTake(%d)", row.name, k), func(t *testing.T) {
				states, paths := 0, new(big.Int)
				for n1 := range n + 1 {
					for n2 := range n + 1 {
						lo, hi, rlo := row.lo, row.lo+n1, row.rlo
						if row.name[:4] == "from" {
							lo, hi = math.MaxInt-n1, math.MaxInt
						}
						sc := scenario{name: fmt.Sprintf("[%d,%d) then [%d,%d)", lo, hi, rlo, rlo+n2),
							lo: lo, hi: hi, batch: k, reset: true, rlo: rlo, rhi: rlo + n2,
							thieves: row.thieves, anyGives: row.gives}
						r := modelRun(t, &sc, asWritten)
						states += r.states
						if r.paths != nil {
							paths.Add(paths, r.paths)
						}
					}
				}
				t.Logf("n1, n2 = 0..%d: %d states, %v interleavings", n, states, paths)
			})
		}
	}
}

// giveBackScenarios are the scenarios TestModelGiveBackMutants searches:
// owners that may give back once, on ranges of up to maxN[i] indices with
// thieves[i]; then, with reset, owners that may give back twice across a
// Reset.
func giveBackScenarios(maxN []int, thieves [][]thief, reset bool) []scenario {
	var scs []scenario
	for i, th := range thieves {
		for n := 1; n <= maxN[i]; n++ {
			for k := 1; k <= 3; k++ {
				scs = append(scs, scenario{name: fmt.Sprintf("TryTake(%d) over [0,%d) with %d thieves, 1 GiveBack", k, n, len(th)),
					lo: 0, hi: n, batch: k, thieves: th, anyGives: 1})
			}
		}
	}
	for _, g := range [][2]int{{10, 0}, {0, 0}, {0, 12}} {
		for n1 := range 3 {
			if !reset {
				break
			}
			for n2 := range 3 {
				scs = append(scs, scenario{name: fmt.Sprintf("TryTake(2) over [%d,%d), Reset to [%d,%d), with 1 thief, 2 GiveBacks",
					g[0], g[0]+n1, g[1], g[1]+n2),
					lo: g[0], hi: g[0] + n1, batch: 2, reset: true, rlo: g[1], rhi: g[1] + n2,
					thieves: []thief{{attempts: 2}}, anyGives: 2})
			}
		}
	}
	return scs
}

// TestModelGiveBackMutants: for each broken variant of GiveBack the checker
// finds a violation of the kind named, and logs the shortest counterexample
// over giveBackScenarios. Only the variants that set the span by a store
// break exactly-once:
//
//   - (g2) a store after the close: a thief that read low before the close
//     wins the span the owner loaded, and the store puts what it stole back
//     into the range; so does (g1) with a store and no close.
//
// The others are safe: in every scenario every index is handed out exactly
// once and every thread finishes, but the steal range can be empty while
// indices are left, which span.go rules out: thieves cannot steal what was
// handed back.
//
//   - (g1) no close, CAS loop then low = from: a thief pairs the owner's new
//     span with the batch's end, the low it reads before the open, steals,
//     and carves an empty span from it above the indices handed back; and a
//     thief can make GiveBack's CAS fail more than once.
//   - (g1) no close, low = from then the CAS loop: until the CAS the old span
//     is paired with the new low, and it may be empty (the batch reached the
//     end); as above, a thief can make the CAS fail more than once.
//   - (g3) low = from only: the old span stays, empty if the batch reached
//     the end.
//
// Why they are safe: a thief takes [s.mid, s.end) of the current span s, and
// only when the low it read is at most s.mid. GiveBack lowers low to from
// once the owner holds nothing at or above it, and all the owner processed
// lies below from; so a thief that reads from steals nothing processed, and
// nothing at or above s.end has been handed out. A thief that reads low
// between GiveBack's CAS and its open reads the batch's end, higher than
// from, which only makes the span it carves leave more to the owner. What the
// close buys is balance: no thief carves a span from a stale low, and each
// thief wins at most the one CAS it had started before the close.
func TestModelGiveBackMutants(t *testing.T) {
	const (
		twice = "and to thread"
		lost  = "never handed out"
		chunk = "want a chunk"
		cycle = "cycle"
		empty = "steal range is empty"
		retry = "lost its CAS"
	)
	thieves := [][]thief{nil, {{attempts: 1}}, {{attempts: 2}}, twoThieves}
	scs := giveBackScenarios([]int{5, 5, 5, 3}, thieves, true)
	if raceEnabled {
		scs = giveBackScenarios([]int{3, 3, 3}, thieves[:3], false) // as in TestModelExactlyOnce
	}
	for _, c := range []struct {
		v      variant
		want   []string // found, each
		benign bool     // no exactly-once or termination violation
	}{
		{giveByStore, []string{twice}, false},
		{giveStoreNoClose, []string{twice}, false},
		{giveNoClose, []string{empty, retry}, true},
		{giveOpenFirst, []string{empty, retry}, true},
		{giveLowOnly, []string{empty}, true},
	} {
		t.Run(c.v.String(), func(t *testing.T) {
			shortest := make([]violation, len(c.want))
			where := make([]string, len(c.want))
			for _, sc := range scs {
				r := newModel(&sc, c.v).explore()
				for _, b := range r.bad {
					for i, w := range c.want {
						if strings.Contains(b.what, w) && (shortest[i].path == "" || len(strings.Fields(b.path)) < len(strings.Fields(shortest[i].path))) {
							shortest[i], where[i] = b, sc.name
						}
					}
					if c.benign && (strings.Contains(b.what, twice) || strings.Contains(b.what, lost) ||
						strings.Contains(b.what, chunk) || strings.Contains(b.what, cycle) || strings.Contains(b.what, "held by")) {
						t.Errorf("%s: %s\nschedule: %s\nwant no exactly-once or termination violation from this variant", sc.name, b.what, b.path)
					}
				}
			}
			for i, w := range c.want {
				if shortest[i].path == "" {
					t.Errorf("no violation found; want one whose description contains %q", w)
					continue
				}
				t.Logf("%s: %s\nschedule: %s", where[i], shortest[i].what, shortest[i].path)
			}
		})
	}
}
