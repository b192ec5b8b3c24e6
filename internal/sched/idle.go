package sched

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Idle is the sleep protocol of a pool of workers: idle workers search for
// work for a while and then sleep without using CPU, and producers of work
// wake one of them when nobody is searching. It is the Go runtime's
// spinning-M protocol (runtime/proc.go: wakep, resetspinning) over Go
// channels.
//
// # Callers
//
// A worker is in one of three states: running (it has work), searching
// (looking for work) or sleeping. A worker calls StartSearch when it runs
// out of work, and then either StopSearch when it found some (or no longer
// needs any) or Sleep when it gives up; Sleep returns with the worker
// searching again. While searching, it gives up the processor with
// Yield, which does not count it as searching meanwhile. A sleeper that a
// waker moves to searching counts as searching from then on, but Peek
// leaves it out until it runs again. Any goroutine
// calls Notify after it has made work visible. A worker that takes only
// part of the work (a floor, see Parker) and is about to sleep beside work
// it does not take calls WakeFor from Sleep's ready. All methods can be executed by any
// goroutine; each worker drives its own transitions.
//
// # State
//
//	state    atomic.Uint64  searching workers in the low 32 bits, sleeping workers in the next 31,
//	                        and in the top bit the owner's vacancy mark (SetVacant)
//	woken    atomic.Uint32  workers that a waker moved from sleeping to searching and that have not
//	                        run since: a hint for Peek alone, changed under mu
//	mu       sync.Mutex     guards sleepers, every Parker's listed flag, and a listed Parker's floor
//	sleepers []*Parker      the sleeping workers, most recent last
//
// The counts change together with the list, under mu, except that
// StartSearch and StopSearch change the searching count alone (an atomic
// add): they are on the path from running to searching and back, which must
// stay cheap. No add carries into or borrows from the vacancy mark: the
// sleeping count stays below 2^31, and a count is decremented only after it
// was incremented. The protocol ignores the mark; it is in the same word
// so that Peek answers with one load of it what takes a pool two otherwise
// (whether no worker is idle, and whether it has one).
//
// # No lost wake-ups
//
// Work is made visible by an atomic store or add (a deque's bottom, a
// queue's length). Go's atomics are sequentially consistent, so of a
// producer's [publish; load state] and a sleeper's [add to state; ready()],
// one is first in the total order: either the producer sees the sleeper
// (and, if nobody searches, wakes one), or ready() sees the work and the
// sleeper does not block. A producer that sees a searching worker wakes
// nobody and relies on it: that worker either still goes to sleep, and then
// its ready() comes after the producer's publication and sees the work, or
// it stops searching, and then, if it was the last searcher and others
// sleep, StopSearch wakes one to take over the search. So while work is
// visible and some worker sleeps, some worker is running or searching.
//
// That argument assumes that every worker takes every unit of work. A waiter
// (see Worker.HelpUntil) does not take loop jobs posted before its wait
// began: it sleeps with its Parker's floor at the last such job's seq, and
// wakers other than WakeFor ignore floors. So a producer may count on a
// searching waiter, or wake one, for a job it does not take. Such a waiter
// either stops searching, and StopSearch passes the search on as above, or
// sleeps: then its last look, after its announcement, sees the job still
// open, and WakeFor wakes a sleeper whose floor is below the job's seq.
// Either way the job is not left with every worker that takes it asleep,
// though it may wait for that hand-on through the waiter's search (up to
// spinFor): a delay, not a hang, as a loop's caller runs every slot no
// helper claims. Only a waiter whose wait began after the job took its
// seq skips it, and one that went to sleep while the job was open has
// handed it on already.
//
// Direct wake-ups (Parker.Unpark) follow the same pattern on the parker's
// armed flag: the sleeper stores armed = true before ready(); the waker
// publishes its condition, then loads armed.
//
// The interleaving test (interleave_test.go) runs producers, workers and a
// waker over real Idles and Parkers one step at a time (step.go), through
// every interleaving of small scenarios, and checks that no work is left
// while a worker sleeps; each order this argument relies on, reversed by
// hand, makes it fail.
type Idle struct {
	state    atomic.Uint64
	woken    atomic.Uint32
	mu       sync.Mutex
	sleepers []*Parker
}

const (
	oneSearching  uint64 = 1
	oneSleeping   uint64 = 1 << 32
	vacancy       uint64 = 1 << 63               // the vacancy mark
	sleepingBits         = vacancy - oneSleeping // the sleeping count's bits
	searchingBits        = oneSleeping - 1       // the searching count's bits

	// Deltas for state.Add (unsigned: subtracting is adding the complement).
	searchToSleep = oneSleeping - oneSearching
	sleepToSearch = ^searchToSleep + 1
	stopSearching = ^oneSearching + 1
)

// A Parker is one worker's means of sleeping: a channel with room for one
// wake-up token. Tokens are hints: a worker that wakes re-checks what it
// was waiting for, so a stale token costs one spurious wake-up.
type Parker struct {
	wake   chan struct{}
	armed  atomic.Bool // the owner may be blocked on wake, or about to be
	listed bool        // in Idle.sleepers; guarded by Idle.mu

	// floor: the owner takes only numbered work (loop jobs, by seq) above
	// it; 0 takes all. Written by the owner while not listed, read under
	// Idle.mu while listed.
	floor uint64
}

// NewParker returns a Parker for one worker.
func NewParker() *Parker { return &Parker{wake: make(chan struct{}, 1)} }

// Unpark wakes p's worker if it is sleeping or about to. Call it after
// publishing, with an atomic operation, the condition the worker waits for.
func (p *Parker) Unpark() {
	step(stepUnpark)
	if p.armed.Load() {
		p.token()
	}
}

func (p *Parker) token() {
	step(stepToken)
	select {
	case p.wake <- struct{}{}:
	default: // a token is already pending
	}
}

// StartSearch records that the calling worker is looking for work.
func (s *Idle) StartSearch() {
	step(stepStartSearch)
	s.state.Add(oneSearching)
}

// StopSearch records that the calling worker, which was searching, stopped:
// it found work or no longer needs any. If it was the last searcher while
// others sleep, it wakes one, as producers may have relied on it.
func (s *Idle) StopSearch() {
	step(stepStopSearch)
	if st := s.state.Add(stopSearching); uint32(st) == 0 && st&sleepingBits != 0 {
		s.wakeOne()
	}
}

// Yield yields the processor (runtime.Gosched) for the calling worker,
// which is searching, and returns with it searching again. Meanwhile it
// does not count as searching, and wakes nobody for it: it looks for work
// again after Yield, before it stops searching or sleeps, as it would
// have, so a producer that counted on it is still served (see No lost
// wake-ups). A worker waiting for a processor looks at nothing; counted as
// searching, it would make producers count on it, and Pool.Idle report a
// worker free, for as long as the goroutines ahead of it run.
func (s *Idle) Yield() {
	step(stepPause)
	s.state.Add(stopSearching) // uncounts the searcher, waking nobody
	runtime.Gosched()
	s.StartSearch()
}

// Notify wakes a sleeping worker if nobody is searching. Call it after
// making work visible with an atomic operation.
func (s *Idle) Notify() { s.Wake(1) }

// Wake is Notify for n units of work made visible at once (a loop's worker
// slots): it wakes sleeping workers, up to n less the searching ones, and
// reports whether it woke any. Each woken worker that finds work and was
// the last searcher wakes another (see StopSearch), so waking fewer than n
// only delays the rest. Wake panics if n < 1.
func (s *Idle) Wake(n int) (woke bool) {
	if n < 1 {
		panic("sched: Idle.Wake: n < 1")
	}
	step(stepNotify)
	st := s.state.Load()
	if searching := int(uint32(st)); st&sleepingBits != 0 && searching < n {
		return s.wake(n-searching) > 0
	}
	return false
}

// Sleep puts the calling worker, which is searching, to sleep on p unless
// ready, called after the worker announced itself as sleeping, reports true.
// It returns when the worker was woken by Notify, StopSearch or p.Unpark, or
// at once if ready reported true; the worker is searching again. ready must
// report whether there is work, and whatever else the worker waits for.
func (s *Idle) Sleep(p *Parker, ready func() bool) {
	step(stepAnnounce)
	s.mu.Lock()
	s.sleepers = append(s.sleepers, p)
	p.listed = true
	s.state.Add(searchToSleep) // announces the sleeper to producers
	s.mu.Unlock()
	step(stepArm)
	p.armed.Store(true) // announces it to Unpark
	if !ready() {
		step(stepWait)
		<-p.wake
	}
	step(stepDisarm)
	p.armed.Store(false)
	step(stepLeave)
	s.mu.Lock()
	if p.listed { // not woken through the list: take p off it
		for i := len(s.sleepers) - 1; i >= 0; i-- {
			if s.sleepers[i] == p {
				s.sleepers = append(s.sleepers[:i], s.sleepers[i+1:]...)
				break
			}
		}
		p.listed = false
		s.state.Add(sleepToSearch)
	} else { // a waker took p off the list and counted it as woken: it runs now
		s.woken.Add(^uint32(0))
	}
	s.mu.Unlock()
}

// WakeFor moves the most recent sleeper that takes work numbered n (whose
// floor is below n) to searching and wakes it, if there is one. A worker
// that sleeps although it sees work it does not take calls it after it
// announced itself: producers may have counted on it for that work. It
// takes mu; O(sleepers).
func (s *Idle) WakeFor(n uint64) {
	step(stepWakeOne)
	s.mu.Lock()
	var p *Parker
	for i := len(s.sleepers) - 1; i >= 0; i-- {
		if q := s.sleepers[i]; q.floor < n {
			p = q
			s.sleepers = slices.Delete(s.sleepers, i, i+1)
			p.listed = false
			s.state.Add(sleepToSearch)
			s.woken.Add(1)
			break
		}
	}
	s.mu.Unlock()
	if p != nil {
		p.token()
	}
}

// wakeOne moves the most recent sleeper to searching and wakes it.
func (s *Idle) wakeOne() { s.wake(1) }

// wake moves up to k of the most recent sleepers to searching, wakes them,
// and returns how many it woke.
func (s *Idle) wake(k int) (woken int) {
	step(stepWakeOne)
	var batch [8]*Parker // on the stack: more than 8 at once wake in rounds
	for woken < k {
		s.mu.Lock()
		m := min(k-woken, len(s.sleepers), len(batch))
		for i := range m {
			n := len(s.sleepers)
			p := s.sleepers[n-1]
			s.sleepers[n-1] = nil
			s.sleepers = s.sleepers[:n-1]
			p.listed = false
			batch[i] = p
		}
		s.state.Add(uint64(m) * sleepToSearch)
		if m > 0 {
			s.woken.Add(uint32(m))
		}
		s.mu.Unlock()
		for _, p := range batch[:m] {
			p.token()
		}
		woken += m
		if m < len(batch) {
			break
		}
	}
	return woken
}

// Counts returns the number of searching and sleeping workers, as of some
// instant during the call.
func (s *Idle) Counts() (searching, sleeping int) {
	st := s.state.Load()
	return int(uint32(st)), int(st & sleepingBits >> 32)
}

// SetVacant sets or clears the vacancy mark, which the owner sets while it
// has no worker of its own (see Pool.Idle). The protocol ignores it. Calls
// must be serialized by the owner.
func (s *Idle) SetVacant(on bool) {
	if on {
		s.state.Or(vacancy) // publishes the mark
	} else {
		s.state.And(^vacancy) // publishes its end
	}
}

// Peek returns s's counts, woken count and vacancy mark, as a hint. Its
// Busy and Vacant count the workers that a waker moved to searching and
// that have not run since as neither searching nor sleeping: such a
// worker waits for a processor, as one in Yield does, and looks at nothing
// meanwhile. (With more runnable goroutines than processors that wait
// lasts as long as the goroutines ahead of it run; counted, it would have
// Pool.Idle report a worker free all that time, and Do and Join fork for a
// thief that is not there.) Counts and the protocol count it as searching
// all along.
//
// Peek reads the state and the woken count with plain loads, not atomic
// ones, and synchronizes with nothing. Use it only for a choice that is
// correct whatever it returns (Pool.Idle says whose). It may return a value
// older than the latest change, made of two values read at different
// instants, and on platforms whose words are 32 bits one made of the
// halves of two values. Each call loads anew, and caches are coherent on
// every platform Go supports, so calls see a change soon after it is made,
// although the Go memory model promises a racing load no more than some
// value once written.
//
// Atomic loads were rejected: under the race detector, an atomic load is
// an acquire of the word's clock, into which every search transition of
// every worker releases. It costs many times a plain call, and it makes
// each caller synchronize with whatever the workers did before, which
// hides races between the caller and other goroutines from the detector.
// go:norace leaves the loads out of the detector's view (they race by
// design: a stale value is allowed), and go:nocheckptr leaves out the
// check of the conversions below, which -race turns on for every call.
//
//go:norace
//go:nocheckptr
func (s *Idle) Peek() IdleState {
	// An atomic integer's only field of non-zero size is its value, so a
	// pointer to it is a pointer to the value.
	return IdleState{
		st:    *(*uint64)(unsafe.Pointer(&s.state)),
		woken: *(*uint32)(unsafe.Pointer(&s.woken)),
	}
}

// An IdleState is what Idle.Peek returns: the state word and the woken
// count, as read.
type IdleState struct {
	st    uint64
	woken uint32
}

// counts returns the state word read with the woken workers taken off its
// searching count (all of it, if the pair read is stale).
func (st IdleState) counts() uint64 {
	if searching := st.st & searchingBits; uint64(st.woken) < searching {
		return st.st - uint64(st.woken)
	}
	return st.st &^ searchingBits // every searcher woken, or a stale pair
}

// Busy reports whether no worker searched (leaving out those woken that
// had not run yet) or slept and the vacancy mark was clear.
func (st IdleState) Busy() bool { return st.st == 0 || st.counts() == 0 }

// Vacant reports whether no worker searched (as Busy counts) or slept and
// the vacancy mark was set.
func (st IdleState) Vacant() bool { return st.counts() == vacancy }
