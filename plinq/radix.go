package plinq

// Parallel stable radix sort, for sorts whose keys are all integers or
// floats (see radixBits).
//
// The elements are paired with their keys' images, (k uint64, v T), and the
// pairs are sorted by k, one key at a time from the last ThenBy to the
// OrderBy, each sort stable so that the earlier keys decide and the later
// ones break ties (the classic LSD order across keys). Within one key, only
// the 8-bit digits in which some keys differ are sorted on. The most
// significant of them is one parallel counting pass over fixed blocks: each
// block counts its digits, a prefix sum over (digit, block) in that order
// gives every block its own stable place in each of the 256 buckets, and the
// blocks scatter in parallel. The buckets, now independent, are sorted on
// the remaining digits in parallel, each by a sequential LSD radix sort
// that fits in cache, or, for buckets too big for that, recursively.
//
// Every bucket is sorted on the same digits, so every one ends in the same
// one of the two buffers (the passes alternate between them), and no copy
// is needed to bring them together.

// A pair is an element with the image of its sort key.
type pair[T any] struct {
	k uint64
	v T
}

var (
	radixBlock = 1 << 15 // elements per counting block of a parallel pass
	radixSmall = 1 << 16 // buckets at most this long are sorted sequentially
)

// radixSort returns the elements of src sorted stably by keys[0], ties
// broken by keys[1], and so on, where each key is an order-preserving
// image. Each key function is called once per element.
func radixSort[T any](x *exec, src []T, keys []func(T) uint64) []T {
	n := len(src)
	if n == 0 {
		return []T{}
	}
	p, tmp := make([]pair[T], n), make([]pair[T], n)
	nb := (n + radixBlock - 1) / radixBlock
	ands, ors := make([]uint64, nb), make([]uint64, nb)
	for i := len(keys) - 1; i >= 0; i-- {
		key, first := keys[i], i == len(keys)-1
		each(x, nb, func(b0, b1 int) {
			for b := b0; b < b1; b++ {
				lo, hi := b*radixBlock, min((b+1)*radixBlock, n)
				and, or := ^uint64(0), uint64(0)
				for j := lo; j < hi; j++ {
					v := p[j].v // in the previous key's order
					if first {
						v = src[j]
					}
					k := key(v)
					p[j] = pair[T]{k, v}
					and &= k
					or |= k
				}
				ands[b], ors[b] = and, or
			}
		})
		and, or := ^uint64(0), uint64(0)
		for b := range nb {
			and &= ands[b]
			or |= ors[b]
		}
		var shifts []uint // the digits in which keys differ, least significant first
		for s := uint(0); s < 64; s += 8 {
			if (and^or)>>s&0xff != 0 {
				shifts = append(shifts, s)
			}
		}
		if r := radixPairs(x, p, tmp, shifts); &r[0] != &p[0] {
			p, tmp = tmp, p
		}
	}
	out := make([]T, n)
	each(x, nb, func(b0, b1 int) {
		for j := b0 * radixBlock; j < min(b1*radixBlock, n); j++ {
			out[j] = p[j].v
		}
	})
	return out
}

// radixPairs sorts p stably by the digits of k at shifts (ascending), with
// tmp, as long as p, for scratch, and returns whichever of p and tmp holds
// the result: p if len(shifts) is even, tmp if it is odd. p is not empty.
func radixPairs[T any](x *exec, p, tmp []pair[T], shifts []uint) []pair[T] {
	if len(shifts) == 0 {
		return p
	}
	if len(p) <= radixSmall {
		return lsd(p, tmp, shifts)
	}
	rest := shifts[:len(shifts)-1]
	bounds := scatter(x, p, tmp, shifts[len(shifts)-1])
	each(x, 256, func(d0, d1 int) {
		for d := d0; d < d1; d++ {
			if lo, hi := bounds[d], bounds[d+1]; lo < hi && hi-lo <= radixSmall {
				lsd(tmp[lo:hi], p[lo:hi], rest)
			}
		}
	})
	for d := range 256 {
		if lo, hi := bounds[d], bounds[d+1]; hi-lo > radixSmall {
			radixPairs(x, tmp[lo:hi], p[lo:hi], rest)
		}
	}
	if len(rest)%2 == 0 {
		return tmp
	}
	return p
}

// scatter moves the pairs of src to dst stably ordered by the digit at
// shift, in parallel over blocks, and returns where each digit's bucket
// starts in dst (bounds[256] = len(src)).
func scatter[T any](x *exec, src, dst []pair[T], shift uint) (bounds [257]int) {
	n := len(src)
	nb := (n + radixBlock - 1) / radixBlock
	counts := make([]int, nb*256) // counts[b*256+d]: block b's pairs with digit d, then their first place in dst
	each(x, nb, func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			c := counts[b*256 : (b+1)*256]
			for _, e := range src[b*radixBlock : min((b+1)*radixBlock, n)] {
				c[byte(e.k>>shift)]++
			}
		}
	})
	sum := 0
	for d := range 256 {
		bounds[d] = sum
		for b := range nb {
			c := counts[b*256+d]
			counts[b*256+d] = sum
			sum += c
		}
	}
	bounds[256] = sum
	each(x, nb, func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			var next [256]int
			copy(next[:], counts[b*256:])
			for _, e := range src[b*radixBlock : min((b+1)*radixBlock, n)] {
				d := byte(e.k >> shift)
				dst[next[d]] = e
				next[d]++
			}
		}
	})
	return bounds
}

// lsd is the sequential LSD radix sort of radixPairs, with the same
// contract: the result is in p if len(shifts) is even, else in tmp. One read
// counts every digit; a digit on which all of p agrees is skipped, and if
// that leaves the result in the other buffer it is copied over.
func lsd[T any](p, tmp []pair[T], shifts []uint) []pair[T] {
	var counts [8][256]int
	for _, e := range p {
		for i, s := range shifts {
			counts[i][byte(e.k>>s)]++
		}
	}
	src, dst := p, tmp
	for i, s := range shifts {
		count := &counts[i]
		if count[byte(src[0].k>>s)] == len(src) {
			continue
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, e := range src {
			d := byte(e.k >> s)
			dst[count[d]] = e
			count[d]++
		}
		src, dst = dst, src
	}
	want := p
	if len(shifts)%2 == 1 {
		want = tmp
	}
	if &src[0] != &want[0] {
		copy(want, src)
	}
	return want
}
