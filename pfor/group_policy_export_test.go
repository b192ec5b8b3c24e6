package pfor

// SortIn sorts x with Sort's algorithm on p.
func SortIn(p *Pool, x []int64) { sortOrdered(p.Run, x) }

// QueueLens returns the lengths of p's locked queues (Dealing and
// Balancing), its workers' first, then its guests'.
func (p *Pool) QueueLens() []int {
	var ns []int
	for _, w := range *p.tasks.victims.Load() {
		ns = append(ns, w.pol.q.Len())
	}
	return ns
}

// Live reports how many worker goroutines of p run.
func (p *Pool) Live() int { return int(p.tasks.live.Load()) }

// QueueRanks returns the lock ranks of p's locked queues, in the order of
// Stats' workers.
func (p *Pool) QueueRanks() []int {
	var rs []int
	for _, w := range *p.tasks.victims.Load() {
		rs = append(rs, w.pol.q.rank)
	}
	return rs
}
