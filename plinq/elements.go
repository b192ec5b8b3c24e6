package plinq

import "fmt"

// First returns q's first element in query order. It runs q over windows of
// its source that double in length from 4096 indices and stops after the
// first window that yields an element; within that window, chunks after the
// one that found it skip their work, while the chunks before it finish, so
// the element returned is the first, not just any. On an indexed query (see
// Select) it evaluates one element. First panics if q is empty.
func (q Query[T]) First() T {
	v, ok := q.first()
	if !ok {
		panic("plinq: First: empty query")
	}
	return v
}

// FirstOrDefault is First, but returns the zero T if q is empty.
func (q Query[T]) FirstOrDefault() T {
	v, _ := q.first()
	return v
}

func (q Query[T]) first() (v T, ok bool) {
	x := newExec(q.set)
	if s := prefix(x, q.flow(x), 1); len(s) == 1 {
		return s[0], true
	}
	return v, false
}

// Last returns q's last element in query order. On an indexed query it
// evaluates one element; on any other it runs q over windows from the end of
// its source, doubling, and stops after the first that yields an element.
// Last panics if q is empty.
func (q Query[T]) Last() T {
	x := newExec(q.set)
	v, ok := last(x, q.flow(x))
	if !ok {
		panic("plinq: Last: empty query")
	}
	return v
}

// ElementAt returns the element at position i of q's results in query
// order. On an indexed query it evaluates one element; on any other it runs
// as Take(i+1) does. ElementAt panics if i < 0 or q has at most i elements.
func (q Query[T]) ElementAt(i int) T {
	if i < 0 {
		panic(fmt.Sprintf("plinq: ElementAt(%d): negative index", i))
	}
	x := newExec(q.set)
	f := q.flow(x)
	if f.indexed {
		if i >= f.n {
			panic(fmt.Sprintf("plinq: ElementAt(%d): index out of range [0, %d)", i, f.n))
		}
		return collectIndexed(x, f, i, i+1)[0]
	}
	s := prefix(x, f, i+1)
	if len(s) <= i {
		panic(fmt.Sprintf("plinq: ElementAt(%d): index out of range [0, %d)", i, len(s)))
	}
	return s[i]
}
