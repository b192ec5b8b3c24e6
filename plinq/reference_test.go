package plinq_test

import (
	"cmp"
	"slices"

	"github.com/stealkit/stealkit/plinq"
)

// The sequential reference: what each operator means, written as the plain
// loops a user would write. Tests compare plinq against it.

func refWhere[T any](s []T, pred func(T) bool) []T {
	var out []T
	for _, v := range s {
		if pred(v) {
			out = append(out, v)
		}
	}
	return out
}

func refSelect[T, U any](s []T, f func(T) U) []U {
	var out []U
	for _, v := range s {
		out = append(out, f(v))
	}
	return out
}

func refSelectIndexed[T, U any](s []T, f func(int, T) U) []U {
	var out []U
	for i, v := range s {
		out = append(out, f(i, v))
	}
	return out
}

func refSelectMany[T, U any](s []T, f func(T) []U) []U {
	var out []U
	for _, v := range s {
		out = append(out, f(v)...)
	}
	return out
}

func refZip[A, B, C any](a []A, b []B, f func(A, B) C) []C {
	var out []C
	for i := range min(len(a), len(b)) {
		out = append(out, f(a[i], b[i]))
	}
	return out
}

func refSort[T any](s []T, cmp func(a, b T) int) []T {
	out := slices.Clone(s)
	slices.SortStableFunc(out, cmp)
	return out
}

func refKeyCmp[T any, K cmp.Ordered](key func(T) K, desc bool) func(a, b T) int {
	if desc {
		return func(a, b T) int { return cmp.Compare(key(b), key(a)) }
	}
	return func(a, b T) int { return cmp.Compare(key(a), key(b)) }
}

func refReverse[T any](s []T) []T {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

func refTake[T any](s []T, n int) []T { return slices.Clone(s[:min(n, len(s))]) }
func refSkip[T any](s []T, n int) []T { return slices.Clone(s[min(n, len(s)):]) }

func refTakeWhile[T any](s []T, pred func(T) bool) []T {
	var out []T
	for _, v := range s {
		if !pred(v) {
			break
		}
		out = append(out, v)
	}
	return out
}

func refSkipWhile[T any](s []T, pred func(T) bool) []T {
	for i, v := range s {
		if !pred(v) {
			return slices.Clone(s[i:])
		}
	}
	return nil
}

func refDistinctBy[T any, K comparable](s []T, key func(T) K) []T {
	seen := map[K]bool{}
	var out []T
	for _, v := range s {
		if k := key(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

func refUnion[T comparable](a, b []T) []T {
	return refDistinctBy(append(slices.Clone(a), b...), func(v T) T { return v })
}

func refMembers[T comparable](a, b []T, in bool) []T {
	set := map[T]bool{}
	for _, v := range b {
		set[v] = true
	}
	return refWhere(refDistinctBy(a, func(v T) T { return v }), func(v T) bool { return set[v] == in })
}

type refGroup[K comparable, T any] struct {
	Key   K
	Items []T
}

func refGroupBy[T any, K comparable](s []T, key func(T) K) []refGroup[K, T] {
	index := map[K]int{}
	var out []refGroup[K, T]
	for _, v := range s {
		k := key(v)
		g, ok := index[k]
		if !ok {
			g = len(out)
			index[k] = g
			out = append(out, refGroup[K, T]{Key: k})
		}
		out[g].Items = append(out[g].Items, v)
	}
	return out
}

func refJoin[O, I any, K comparable, R any](outer []O, inner []I, ok func(O) K, ik func(I) K, f func(O, I) R) []R {
	var out []R
	for _, o := range outer {
		for _, i := range inner {
			if ok(o) == ik(i) {
				out = append(out, f(o, i))
			}
		}
	}
	return out
}

func refToMap[T any, K comparable, V any](s []T, key func(T) K, value func(T) V) map[K]V {
	m := map[K]V{}
	for _, v := range s {
		m[key(v)] = value(v)
	}
	return m
}

// refCountBy and refAggregateBy give a pair per distinct key, in order of
// first appearance, as a loop that keeps each key's index in a map does;
// a NaN key, never found in the map, gets a pair per element.
func refCountBy[T any, K comparable](s []T, key func(T) K) []plinq.KeyValue[K, int] {
	return refAggregateBy(s, key, 0, func(c int, _ T) int { return c + 1 })
}

func refAggregateBy[T any, K comparable, A any](s []T, key func(T) K, identity A, fold func(A, T) A) []plinq.KeyValue[K, A] {
	var out []plinq.KeyValue[K, A]
	at := map[K]int{}
	for _, v := range s {
		k := key(v)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, plinq.KeyValue[K, A]{Key: k, Value: identity})
		}
		out[i].Value = fold(out[i].Value, v)
	}
	return out
}

func refAggregate[T, A any](s []T, acc A, fold func(A, T) A) A {
	for _, v := range s {
		acc = fold(acc, v)
	}
	return acc
}

// refMinBy returns the first element with the least key; sign +1 for the
// greatest.
func refMinBy[T any, K cmp.Ordered](s []T, key func(T) K, sign int) (best T, ok bool) {
	var bk K
	for _, v := range s {
		if k := key(v); !ok || cmp.Compare(k, bk) == sign {
			best, bk, ok = v, k, true
		}
	}
	return best, ok
}

func refChunk[T any](s []T, n int) [][]T {
	var out [][]T
	for i := 0; i < len(s); i += n {
		out = append(out, slices.Clone(s[i:min(i+n, len(s))]))
	}
	return out
}

func refScan[T any](s []T, identity T, op func(T, T) T, inclusive bool) []T {
	var out []T
	acc := identity
	for _, v := range s {
		if !inclusive {
			out = append(out, acc)
		}
		acc = op(acc, v)
		if inclusive {
			out = append(out, acc)
		}
	}
	return out
}
