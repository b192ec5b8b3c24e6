package plinq

import "fmt"

// First returns q's first element in query order. On an indexed query (see
// Select) it evaluates that one element. On any other it runs q over
// windows of its source that double in length from a few thousand indices
// and stops after the first window that yields an element: q's functions
// are called for at most about twice the elements that precede the answer,
// plus a window. First panics if q is empty.
func (q Query[T]) First() (T, error) {
	v, ok, err := q.first()
	if err == nil && !ok {
		panic("plinq: First: empty query")
	}
	return v, err
}

// FirstOrDefault is First, but returns the zero T if q is empty, so it
// cannot tell an empty q from one whose first element is the zero T. Where
// that matters, q.Take(1).ToSlice() evaluates the same prefix and returns
// no element for an empty q.
func (q Query[T]) FirstOrDefault() (T, error) {
	v, _, err := q.first()
	return v, err
}

func (q Query[T]) first() (v T, ok bool, err error) {
	defer catch(&err)
	x := newExec(q.set)
	if s := prefix(x, q.flow(x), 1); len(s) == 1 {
		return s[0], true, nil
	}
	return v, false, nil
}

// Last returns q's last element in query order. On an indexed query it
// evaluates that one element; on any other it runs q over windows from the
// end of its source, doubling, and stops after the first that yields an
// element. Last panics if q is empty.
func (q Query[T]) Last() (T, error) {
	v, ok, err := q.last()
	if err == nil && !ok {
		panic("plinq: Last: empty query")
	}
	return v, err
}

// LastOrDefault is Last, but returns the zero T if q is empty, so it
// cannot tell an empty q from one whose last element is the zero T. Where
// that matters, q.Any with a pred that reports true tells whether q has an
// element, in a run of its own that stops at the first element found.
func (q Query[T]) LastOrDefault() (T, error) {
	v, _, err := q.last()
	return v, err
}

func (q Query[T]) last() (v T, ok bool, err error) {
	defer catch(&err)
	x := newExec(q.set)
	v, ok = last(x, q.flow(x))
	return v, ok, nil
}

// Single returns q's only element. It evaluates at most q's first two
// elements in query order, as First and Take(2) do. Single panics if q is
// empty or has more than one element.
func (q Query[T]) Single() (elem T, err error) {
	defer catch(&err)
	x := newExec(q.set)
	s := prefix(x, q.flow(x), 2)
	switch len(s) {
	case 0:
		panic("plinq: Single: empty query")
	case 1:
		return s[0], nil
	}
	panic("plinq: Single: more than one element")
}

// ElementAt returns the element at position i of q's results in query
// order. On an indexed query it evaluates that one element; on any other it
// runs as Take(i+1) does. ElementAt panics if i < 0 or q has at most i
// elements.
func (q Query[T]) ElementAt(i int) (elem T, err error) {
	if i < 0 {
		panic(fmt.Sprintf("plinq: ElementAt(%d): negative index", i))
	}
	defer catch(&err)
	x := newExec(q.set)
	f := q.flow(x)
	if f.indexed {
		if i >= f.n {
			panic(fmt.Sprintf("plinq: ElementAt(%d): index out of range [0, %d)", i, f.n))
		}
		return collectIndexed(x, f, i, i+1)[0], nil
	}
	s := prefix(x, f, i+1)
	if len(s) <= i {
		panic(fmt.Sprintf("plinq: ElementAt(%d): index out of range [0, %d)", i, len(s)))
	}
	return s[i], nil
}
