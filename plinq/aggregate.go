package plinq

// Number is the constraint of Sum and Average: integer and floating-point
// types.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// Count returns the number of elements of q. An indexed query (see Select)
// knows its length, so Count does not run it and calls none of its
// functions: O(1). Any other query runs, and its elements are counted, not
// stored: O(n) time, O(1) memory besides q's operators'.
func (q Query[T]) Count() (count int, err error) {
	defer catch(&err)
	x := newExec(q.set)
	f := q.flow(x)
	if f.indexed {
		return f.n, nil
	}
	n := 0
	for _, c := range foldBlocks(x, f, 0, func(c int, b []T) int { return c + len(b) }) {
		n += c
	}
	return n, nil
}

// Sum returns the sum of q's elements, 0 if q is empty. The sum is
// deterministic, as pfor.Reduce's is: the elements are added in blocks
// whose bounds depend only on the length of q's source, each block in
// order and the blocks' sums in block order, so a float sum is the same bit
// for bit in every run, whatever the workers and the partitioner. Integer
// sums wrap around on overflow, as + does. O(n) time, O(1) memory besides
// q's operators'.
func Sum[T Number](q Query[T]) (sum T, err error) {
	defer catch(&err)
	x := newExec(q.set)
	var s T
	for _, p := range foldBlocks(x, q.flow(x), 0, func(s T, b []T) T {
		for _, v := range b {
			s += v
		}
		return s
	}) {
		s += p
	}
	return s, nil
}

// Average returns the mean of q's elements: their sum as float64 values,
// added in blocks as Sum adds (so the same in every run), divided by their
// number. Average panics if q is empty.
func Average[T Number](q Query[T]) (mean float64, err error) {
	defer catch(&err)
	x := newExec(q.set)
	type acc struct {
		sum float64
		n   int
	}
	var a acc
	for _, p := range foldBlocks(x, q.flow(x), acc{}, func(a acc, b []T) acc {
		for _, v := range b {
			a.sum += float64(v)
		}
		a.n += len(b)
		return a
	}) {
		a.sum += p.sum
		a.n += p.n
	}
	if a.n == 0 {
		panic("plinq: Average: empty query")
	}
	return a.sum / float64(a.n), nil
}

// Aggregate folds q into one value in parallel, deterministically, as
// pfor.Reduce does: q's source is cut into blocks whose bounds depend only
// on its length, the elements of each block are folded from identity with
// fold in query order, and the blocks' results are combined with combine in
// block order:
//
//	combine(...combine(combine(fold(fold(identity, q[0]), q[1])..., fold(...)), ...)
//
// combine must be associative and identity an identity of combine; neither
// needs to be commutative. For the same source and the same query (its
// operators and their arguments), the result is the same bits in every
// run, at any worker count, GOMAXPROCS and partitioner. A query of another
// shape (a Where that keeps other elements, Skip or Take, a source of
// another length) cuts other blocks, and may give other bits where combine
// is associative only up to rounding, as floating-point addition is. fold
// is called once per element, concurrently from several goroutines;
// combine once per block but the first, on the calling goroutine.
// Every block starts from a copy of identity, so a map, slice or pointer
// identity would be shared by all blocks: give a nil one and let fold
// allocate a block's own. Aggregate of an empty query is identity.
// Aggregate panics if fold or combine is nil.
func Aggregate[T, A any](q Query[T], identity A, fold func(A, T) A, combine func(A, A) A) (A, error) {
	mustFunc("Aggregate", "fold", fold == nil)
	mustFunc("Aggregate", "combine", combine == nil)
	return aggregate(q, identity, fold, combine)
}

// Reduce is Aggregate with one function: it combines q's elements with op,
// which must be associative with identity as its identity.
//
//	product := q.Reduce(1, func(a, b int) int { return a * b })
//
// Reduce panics if op is nil.
func (q Query[T]) Reduce(identity T, op func(T, T) T) (T, error) {
	mustFunc("Reduce", "op", op == nil)
	return aggregate(q, identity, op, op)
}

func aggregate[T, A any](q Query[T], identity A, fold func(A, T) A, combine func(A, A) A) (_ A, err error) {
	defer catch(&err)
	x := newExec(q.set)
	parts := foldBlocks(x, q.flow(x), identity, func(a A, b []T) A {
		for _, v := range b {
			a = fold(a, v)
		}
		return a
	})
	if len(parts) == 0 {
		return identity, nil
	}
	acc := parts[0]
	guard(func() {
		for _, p := range parts[1:] {
			acc = combine(acc, p)
		}
	})
	return acc, nil
}

// blockLen is the length of the blocks of an index space of n that
// reductions fold separately: it depends on n only, which makes them
// deterministic.
func blockLen(n int) int { return max(1024, n/4096) }

// foldBlocks folds the elements of each block of f's index space (see
// blockLen), batch by batch, from init, and returns the blocks' results in
// block order.
func foldBlocks[T, A any](x *exec, f flow[T], init A, fold func(A, []T) A) []A {
	bl := blockLen(f.n)
	nb := (f.n + bl - 1) / bl
	parts := make([]A, nb)
	type state struct {
		acc A
		run func(lo, hi int) bool
	}
	blocks(x, nb,
		func(w *worker) *state {
			s := &state{}
			s.run = f.open(w, func(b []T) bool { s.acc = fold(s.acc, b); return true })
			return s
		},
		func(s *state, b0, b1 int) bool {
			for b := b0; b < b1; b++ {
				s.acc = init
				s.run(b*bl, min((b+1)*bl, f.n))
				parts[b] = s.acc
			}
			return true
		}, nil)
	return parts
}
