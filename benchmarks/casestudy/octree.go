package casestudy

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/pfor"
)

// Octree partitioning: a task is a cubic octant with the particles inside
// it, a contiguous range of the particle array. If it holds more than
// octThreshold particles, the task partitions its range in place into the
// eight sub-octants and creates a task for each sub-octant that again holds
// more than octThreshold; the others are leaves. Octants at octMaxDepth are
// leaves whatever they hold (duplicate points could not be separated).
const (
	octThreshold = 32
	octMaxDepth  = 21
)

// A Particle is a point in the unit cube.
type Particle struct{ X, Y, Z float32 }

// Particles returns n points of the unit cube from a fixed seed: 70% in
// eight Gaussian clusters of different widths, the rest uniform, so that
// octants differ widely in how deep they subdivide.
func Particles(n int, seed uint64) []Particle {
	rng := rand.New(rand.NewPCG(seed, 0x0c7))
	type cluster struct{ x, y, z, sigma float64 }
	var cs [8]cluster
	for i := range cs {
		cs[i] = cluster{rng.Float64(), rng.Float64(), rng.Float64(), 0.002 + 0.05*rng.Float64()*rng.Float64()}
	}
	clamp := func(v float64) float32 { return min(max(float32(v), 0), math.Nextafter32(1, 0)) }
	ps := make([]Particle, n)
	for i := range ps {
		if rng.IntN(10) < 3 {
			ps[i] = Particle{clamp(rng.Float64()), clamp(rng.Float64()), clamp(rng.Float64())}
			continue
		}
		c := cs[rng.IntN(len(cs))]
		ps[i] = Particle{clamp(c.x + c.sigma*rng.NormFloat64()), clamp(c.y + c.sigma*rng.NormFloat64()), clamp(c.z + c.sigma*rng.NormFloat64())}
	}
	return ps
}

// An Octant is a cube [X, X+Size) x [Y, Y+Size) x [Z, Z+Size) with the
// particles ps[Lo:Hi].
type Octant struct {
	X, Y, Z, Size float32
	Lo, Hi        int32
	Depth         int8
}

// OctreeResult is what a partitioning produced.
type OctreeResult struct {
	Leaves    int64 // leaf octants holding at least one particle
	Particles int64 // particles in the leaves: all of them
}

// split partitions o's particles in place into its eight sub-octants and
// returns them, in the order x, then y, then z halves (bit 0 of the index:
// upper x half, bit 1: upper y, bit 2: upper z).
func split(ps []Particle, o Octant) [8]Octant {
	h := o.Size / 2
	mx, my, mz := o.X+h, o.Y+h, o.Z+h
	zs := partition(ps, o.Lo, o.Hi, func(p *Particle) bool { return p.Z < mz })
	var cut [9]int32 // sub-octant k holds [cut[k], cut[k+1])
	cut[0], cut[4], cut[8] = o.Lo, zs, o.Hi
	for _, zh := range [2]int{0, 4} {
		ys := partition(ps, cut[zh], cut[zh+4], func(p *Particle) bool { return p.Y < my })
		cut[zh+2] = ys
		cut[zh+1] = partition(ps, cut[zh], ys, func(p *Particle) bool { return p.X < mx })
		cut[zh+3] = partition(ps, ys, cut[zh+4], func(p *Particle) bool { return p.X < mx })
	}
	var kids [8]Octant
	for k := range kids {
		kids[k] = Octant{X: o.X, Y: o.Y, Z: o.Z, Size: h, Lo: cut[k], Hi: cut[k+1], Depth: o.Depth + 1}
		if k&1 != 0 {
			kids[k].X = mx
		}
		if k&2 != 0 {
			kids[k].Y = my
		}
		if k&4 != 0 {
			kids[k].Z = mz
		}
	}
	return kids
}

// partition reorders ps[lo:hi] so that the particles for which low holds
// come first, and returns where the others start.
func partition(ps []Particle, lo, hi int32, low func(*Particle) bool) int32 {
	i, j := lo, hi-1
	for {
		for i <= j && low(&ps[i]) {
			i++
		}
		for i <= j && !low(&ps[j]) {
			j--
		}
		if i >= j {
			return i
		}
		ps[i], ps[j] = ps[j], ps[i]
	}
}

// octTask runs one task: it splits o and returns the sub-octants that are
// tasks in turn (kids[:n]), and the leaves and particles among the others.
func octTask(ps []Particle, o Octant) (kids [8]Octant, n int, leaves, inLeaves int64) {
	for _, k := range split(ps, o) {
		switch c := k.Hi - k.Lo; {
		case c > octThreshold && k.Depth < octMaxDepth:
			kids[n] = k
			n++
		case c > 0:
			leaves++
			inLeaves += int64(c)
		}
	}
	return kids, n, leaves, inLeaves
}

// rootOctant is the unit cube with all of ps.
func rootOctant(ps []Particle) Octant { return Octant{Size: 1, Hi: int32(len(ps))} }

// Octree partitions ps in place with the named scheme. The root is a task
// unless it holds octThreshold particles or fewer. Octree panics on an
// unknown scheme.
func Octree(scheme string, ps []Particle, tr *Tracker) OctreeResult {
	root := rootOctant(ps)
	if len(ps) <= octThreshold {
		return OctreeResult{Leaves: min(int64(len(ps)), 1), Particles: int64(len(ps))}
	}
	switch scheme {
	case Sequential:
		var r OctreeResult
		octreeSeq(ps, root, &r, tr)
		return r
	case Static:
		return octreeStatic(ps, root, tr)
	case Steal:
		return octreeSteal(ps, root, tr)
	case Group:
		return octreeGroup(ps, root, tr)
	case Goroutine:
		return octreeGoroutine(ps, root, tr)
	}
	panic("casestudy: Octree: unknown scheme " + scheme)
}

func octreeSeq(ps []Particle, o Octant, r *OctreeResult, tr *Tracker) {
	tr.create(1)
	kids, n, leaves, in := octTask(ps, o)
	r.Leaves += leaves
	r.Particles += in
	for _, k := range kids[:n] {
		octreeSeq(ps, k, r, tr)
	}
	tr.finish(1)
}

// octTotals collects the leaves and particles of the parallel schemes: one
// atomic add per task, tasks being at least octThreshold particles of work.
type octTotals struct{ leaves, particles atomic.Int64 }

func (t *octTotals) add(leaves, in int64) {
	if leaves != 0 {
		t.leaves.Add(leaves)
		t.particles.Add(in)
	}
}

func (t *octTotals) result() OctreeResult {
	return OctreeResult{Leaves: t.leaves.Load(), Particles: t.particles.Load()}
}

// octreeStatic runs the tasks level by level (see static.go). A level needs
// only the one above, so two arrays are stored at a time.
func octreeStatic(ps []Particle, root Octant, tr *Tracker) OctreeResult {
	var tot octTotals
	in := []Octant{root}
	tr.create(1)
	for len(in) > 0 {
		out := make([]Octant, 8*len(in))
		tr.store(int64(len(out)))
		var next atomic.Int64
		staticBlocks(len(in), func(lo, hi int) {
			for _, o := range in[lo:hi] {
				kids, n, leaves, inLeaves := octTask(ps, o)
				tot.add(leaves, inLeaves)
				if n > 0 {
					at := next.Add(int64(n)) - int64(n) // claims out[at:at+n]
					copy(out[at:], kids[:n])
				}
			}
		})
		tr.finish(int64(cap(in)))
		in = out[:next.Load()]
		tr.count(int64(len(in)))
	}
	return tot.result()
}

// octKids is a Both argument: the sub-octants kids[lo:hi] to run as tasks.
type octKids struct {
	ps     []Particle
	tot    *octTotals
	tr     *Tracker
	kids   [8]Octant
	lo, hi int
}

// octreeSteal forks the sub-octants of each task with pfor.Both, halving
// the list down to single tasks.
func octreeSteal(ps []Particle, root Octant, tr *Tracker) OctreeResult {
	var tot octTotals
	tr.create(1)
	pfor.Run(func(w *pfor.Worker) {
		octJoin(w, octKids{ps: ps, tot: &tot, tr: tr, kids: [8]Octant{root}, lo: 0, hi: 1})
	})
	return tot.result()
}

func octJoin(w *pfor.Worker, k octKids) struct{} {
	if k.hi-k.lo > 1 {
		mid := (k.lo + k.hi) / 2
		lo, hi := k, k
		lo.hi, hi.lo = mid, mid
		pfor.Both(w, octJoin, lo, hi)
		return struct{}{}
	}
	kids, n, leaves, inLeaves := octTask(k.ps, k.kids[k.lo])
	k.tot.add(leaves, inLeaves)
	k.tr.create(int64(n))
	k.tr.finish(1) // this task is done; only its children's join remains
	if n > 0 {
		octJoin(w, octKids{ps: k.ps, tot: k.tot, tr: k.tr, kids: kids, lo: 0, hi: n})
	}
	return struct{}{}
}

// octreeGroup spawns each task onto the spawning worker's deque, into one
// pfor.Group.
func octreeGroup(ps []Particle, root Octant, tr *Tracker) OctreeResult {
	var tot octTotals
	g := new(pfor.Group)
	var run func(w *pfor.Worker, o Octant)
	run = func(w *pfor.Worker, o Octant) {
		kids, n, leaves, inLeaves := octTask(ps, o)
		tot.add(leaves, inLeaves)
		tr.create(int64(n))
		for _, k := range kids[:n] {
			w.Go(g, func(w *pfor.Worker) error { run(w, k); return nil })
		}
		tr.finish(1)
	}
	tr.create(1)
	g.Go(func(w *pfor.Worker) error { run(w, root); return nil })
	g.Wait()
	return tot.result()
}

// octreeGoroutine starts a goroutine per task.
func octreeGoroutine(ps []Particle, root Octant, tr *Tracker) OctreeResult {
	var tot octTotals
	var wg sync.WaitGroup
	var run func(o Octant)
	run = func(o Octant) {
		defer wg.Done()
		kids, n, leaves, inLeaves := octTask(ps, o)
		tot.add(leaves, inLeaves)
		tr.create(int64(n))
		wg.Add(n)
		for _, k := range kids[:n] {
			go run(k)
		}
		tr.finish(1)
	}
	tr.create(1)
	wg.Add(1)
	go run(root)
	wg.Wait()
	return tot.result()
}
