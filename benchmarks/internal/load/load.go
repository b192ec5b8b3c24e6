// Package load tells how busy other processes keep the machine's CPUs, so that measurements
// taken on a shared machine can say whether they were disturbed: the processes of this
// machine, and, on a virtual machine, the host's, which take CPU time from its virtual CPUs
// (the steal time). It reads Linux's /proc; elsewhere it reports that it cannot tell.
package load

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// hz is USER_HZ, the unit of the CPU times in /proc on Linux.
const hz = 100

// Sample is the machine's and this process's CPU time at one moment.
type Sample struct {
	busy   int64 // CPU time of all CPUs not idle, in 1/hz s
	stolen int64 // time the host ran something else while a virtual CPU had work, in 1/hz s
	own    int64 // this process's and its waited-for children's CPU time, in 1/hz s
	at     time.Time
	ok     bool
}

// Take samples the CPU times now.
func Take() Sample {
	busy, stolen, ok1 := machineBusy()
	own, ok2 := ownTime()
	return Sample{busy: busy, stolen: stolen, own: own, at: time.Now(), ok: ok1 && ok2}
}

// Span accumulates the CPU time others used over one or more intervals. The zero Span is
// empty and valid.
type Span struct {
	others int64 // in 1/hz s
	stolen int64 // in 1/hz s
	wall   time.Duration
	bad    bool // some interval could not be measured
}

// Add adds the interval from a to b.
func (s *Span) Add(a, b Sample) {
	if !a.ok || !b.ok {
		s.bad = true
		return
	}
	s.others += max(0, (b.busy-a.busy)-(b.own-a.own))
	s.stolen += max(0, b.stolen-a.stolen)
	s.wall += b.at.Sub(a.at)
}

// Cores returns the average number of CPUs that others kept busy over the span's intervals:
// the other processes of the machine and, on a virtual machine, the host (Stolen); or -1 if
// it cannot tell. The CPU times count in steps of 10 ms, so a span shorter than MinSpan
// cannot tell: one step from a process that woke up once would read as a fraction of a CPU.
func (s Span) Cores() float64 {
	if s.bad || s.wall < MinSpan {
		return -1
	}
	return float64(s.others+s.stolen) / hz / s.wall.Seconds()
}

// MinSpan is the shortest span whose load Cores and Stolen report: over it, a 10 ms step of
// CPU time is 0.05 CPUs.
const MinSpan = 200 * time.Millisecond

// Stolen returns the part of Cores that the host of a virtual machine took: the average
// number of CPUs for which it ran something else while the machine had work for them (the
// steal time of /proc/stat), or -1 if it cannot tell. It is 0 on a machine that is not
// virtual, or whose host does not report it.
func (s Span) Stolen() float64 {
	if s.bad || s.wall < MinSpan {
		return -1
	}
	return float64(s.stolen) / hz / s.wall.Seconds()
}

// machineBusy returns the CPU time all CPUs spent not idle and the steal time, from
// /proc/stat (see parseCPULine).
func machineBusy() (busy, stolen int64, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return parseCPULine(line)
}

// parseCPULine returns the busy time (user, nice, system, irq, softirq) and the steal time of
// /proc/stat's cpu line, in 1/hz s; a kernel too old to report steal time reports none.
func parseCPULine(line string) (busy, stolen int64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0, 0, false
	}
	for i, s := range f[1:min(9, len(f))] { // user nice system idle iowait irq softirq steal
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		switch i {
		case 3, 4: // idle and iowait are not busy
		case 7:
			stolen = v
		default:
			busy += v
		}
	}
	return busy, stolen, true
}

// ownTime returns this process's CPU time and that of its waited-for children, from
// /proc/self/stat (utime, stime, cutime, cstime).
func ownTime() (int64, bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	// The command name, field 2, is in parentheses and may hold spaces: count from after it.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return 0, false
	}
	var own int64
	for _, s := range f[11:15] { // fields 14 to 17 of the whole line
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		own += v
	}
	return own, true
}
