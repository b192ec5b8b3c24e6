package simulate

// queue is a min-heap of the simulation's drivers (see Run), ordered by clock, then by
// index, so that runs are deterministic.
type queue struct {
	ws    []int
	clock []float64
}

func (q queue) Len() int { return len(q.ws) }
func (q queue) Less(i, j int) bool {
	a, b := q.ws[i], q.ws[j]
	return q.clock[a] < q.clock[b] || q.clock[a] == q.clock[b] && a < b
}
func (q queue) Swap(i, j int) { q.ws[i], q.ws[j] = q.ws[j], q.ws[i] }
func (q *queue) Push(x any)   { q.ws = append(q.ws, x.(int)) }
func (q *queue) Pop() any {
	x := q.ws[len(q.ws)-1]
	q.ws = q.ws[:len(q.ws)-1]
	return x
}
