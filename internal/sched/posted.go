package sched

import "sync/atomic"

// Posted is the table of loop jobs whose slots workers may claim. A loop
// call adds its job to a free entry and bumps gen; searching workers see
// the job within a round of their search, claim worker slots of the newest
// posted job that has some left (the innermost of nested calls, whose
// caller the outer ones wait for), and run them, while the calling
// goroutine runs slot 0 and then every slot no worker has claimed. Adding
// and claiming take no lock. Every method can be executed by any
// goroutine.
//
// Invariants: an entry holds a job from its Add to its Remove, and at most
// one job at a time; entries at or above high have never been used; a
// job's seq is above that of every job added before it.
//
// Linearization points: an Add at the entry's CAS (the job's seq is taken
// before, gen bumped after: a worker watching gen sees every job added up
// to it); a Remove at the entry's store of nil; a claim at the job's CAS of
// claims.
//
// The counters come before the entries, so that a post into one of the
// first entries writes one cache line, and a searching worker that sees gen
// move finds the job on the line it just read.
type Posted struct {
	high    atomic.Int32                   // entries[high:] has never been used
	gen     atomic.Uint64                  // bumped by every Add, after the job is in entries
	seqs    atomic.Uint64                  // bumped by every Add, before: the last job's seq
	entries [MaxPosted]atomic.Pointer[Job] // jobs whose slots workers may claim; nil: a free entry
}

// MaxPosted bounds the jobs posted at once; a call that finds no free
// entry runs on its caller alone.
const MaxPosted = 128

// Add makes j's unclaimed slots visible to claimers and returns the entry
// that holds j, for Remove, or -1 if every entry was taken. j's fields
// must be set (Start): a worker may claim a slot as soon as it is posted.
func (t *Posted) Add(j *Job) int {
	// seq orders the job before it is visible, so that a waiter that found
	// it in entries, ran a slot of it and waits in its body reads seqs at
	// or past seq, and skips it (see Claim). gen, bumped after, is what
	// searching workers watch.
	j.seq.Store(t.seqs.Add(1))
	e := -1
	for i := range t.entries {
		if t.entries[i].Load() == nil && t.entries[i].CompareAndSwap(nil, j) { // commits the entry to j
			e = i
			break
		}
	}
	if e < 0 {
		return -1
	}
	for h := t.high.Load(); h <= int32(e); h = t.high.Load() {
		if t.high.CompareAndSwap(h, int32(e)+1) {
			break
		}
	}
	t.gen.Add(1) // publishes the post to searching workers
	return e
}

// Remove frees entry e, which Add returned (or does nothing if e is -1);
// the job's slots are all claimed by then.
func (t *Posted) Remove(e int) {
	if e >= 0 {
		t.entries[e].Store(nil)
	}
}

// Gen returns the number of Adds so far, counted after each job is in
// its entry.
func (t *Posted) Gen() uint64 { return t.gen.Load() }

// Seqs returns the seq of the last job added, counted before each job is
// in its entry: a waiter passes it, read when its wait began, to Claim.
func (t *Posted) Seqs() uint64 { return t.seqs.Load() }

// Claim returns a job whose seq is above since and a slot of it, newest
// job first, or nil: since 0 takes any job; a waiter passes Seqs as it was
// when its wait began, and takes only jobs posted after that. It never
// changes a job whose slots are all claimed.
func (t *Posted) Claim(since uint64) (*Job, int) {
	for {
		best := t.Open(since)
		if best == nil {
			return nil, 0
		}
		if s, ok := best.claim(); ok {
			return best, s
		}
	}
}

// Open returns the newest posted job whose seq is above since and that may
// have slots left to claim, or nil.
func (t *Posted) Open(since uint64) *Job {
	var best *Job
	var seq uint64
	for i := range t.high.Load() {
		if j := t.entries[i].Load(); j != nil && j.open() {
			if q := j.seq.Load(); q > since && (best == nil || q > seq) {
				best, seq = j, q
			}
		}
	}
	return best
}

// Len reports how many entries hold a job.
func (t *Posted) Len() int {
	n := 0
	for i := range t.high.Load() {
		if t.entries[i].Load() != nil {
			n++
		}
	}
	return n
}
