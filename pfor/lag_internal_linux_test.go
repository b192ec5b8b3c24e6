package pfor

import (
	"fmt"
	"maps"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSecondField: the run-queue wait is the second field of a schedstat line.
func TestSecondField(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4415123 132853 17\n", 132853, true},
		{"0 0 0", 0, true},
		{"4415123", 0, false},
		{"", 0, false},
	} {
		if got, ok := secondField([]byte(tc.in)); got != tc.want || ok != tc.ok {
			t.Errorf("secondField(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRunqueueWait: the threads' waits can be read here, and they never
// shrink while the threads stay (this test's process keeps its threads).
func TestRunqueueWait(t *testing.T) {
	a, ok := runqueueWait()
	if !ok {
		t.Fatalf("runqueueWait: not available on Linux")
	}
	b, _ := runqueueWait()
	if a < 0 || b < a {
		t.Errorf("runqueueWait: %d, then %d; want a count that does not shrink", a, b)
	}
}

// TestRunqueueWaitAllocatesNothing: a call that looks at the waits must not
// show allocations that its body did not make.
func TestRunqueueWaitAllocatesNothing(t *testing.T) {
	if a := testing.AllocsPerRun(20, func() { runqueueWait() }); a != 0 {
		t.Errorf("runqueueWait allocates %v times a call; want 0", a)
	}
}

// lockedThreads starts k goroutines, each locked to a thread of its own, and
// returns the threads' ids and a function that ends the goroutines, and with
// them (locked as they are) their threads, and waits until the threads are
// gone from /proc/self/task. (A goroutine that runs on the main thread
// leaves it running, wedged, when it ends: that thread is not among those
// returned.)
func lockedThreads(t *testing.T, k int) (tids []int, end func()) {
	t.Helper()
	ids := make(chan int)
	release := make(chan struct{})
	for range k {
		go func() {
			runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
			ids <- syscall.Gettid()
			<-release
		}()
	}
	for range k {
		if tid := <-ids; tid != os.Getpid() {
			tids = append(tids, tid)
		}
	}
	ended := false
	end = func() {
		if ended {
			return
		}
		ended = true
		close(release)
		for _, tid := range tids {
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
				if _, err := os.Stat(fmt.Sprintf("/proc/self/task/%d", tid)); err != nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("thread %d still there 10 s after its goroutine ended", tid)
				}
			}
		}
	}
	t.Cleanup(end)
	return tids, end
}

// keptThreads returns the threads whose schedstat files runqueueWait keeps.
func keptThreads() map[int]bool {
	threadFiles.mu.Lock()
	defer threadFiles.mu.Unlock()
	kept := map[int]bool{}
	for _, f := range threadFiles.kept[:threadFiles.n] {
		kept[int(f.tid)] = true
	}
	return kept
}

// openSchedstats returns the threads whose schedstat files the process has
// open.
func openSchedstats(t *testing.T) map[int]bool {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("listing open files: %v", err)
	}
	open := map[int]bool{}
	for _, e := range ents {
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil || !strings.HasSuffix(target, "/schedstat") {
			continue
		}
		f := strings.Split(target, "/") // "", "proc", pid, "task", tid, "schedstat"
		tid, err := strconv.Atoi(f[len(f)-2])
		if err != nil {
			t.Fatalf("open file %s: %v", target, err)
		}
		open[tid] = true
	}
	return open
}

// referenceWait is the sum of the threads' waits read the plain way.
func referenceWait(t *testing.T) int64 {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatalf("listing threads: %v", err)
	}
	var sum int64
	for _, e := range ents {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/schedstat")
		if err != nil {
			continue // the thread has exited
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			t.Fatalf("schedstat of thread %s: %q", e.Name(), b)
		}
		w, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatalf("schedstat of thread %s: %q: %v", e.Name(), b, err)
		}
		sum += w
	}
	return sum
}

// TestRunqueueWaitKeepsTheThreadsFiles: the threads' files stay open from one
// look to the next, and they are the only schedstat files open; a thread that
// starts is kept from the next look on, and one that exits is dropped and its
// file closed.
func TestRunqueueWaitKeepsTheThreadsFiles(t *testing.T) {
	tids, end := lockedThreads(t, 3)
	if _, ok := runqueueWait(); !ok {
		t.Fatalf("runqueueWait: not available on Linux")
	}
	kept := keptThreads()
	for _, tid := range tids {
		if !kept[tid] {
			t.Errorf("thread %d started before the look: not kept (kept %v)", tid, kept)
		}
	}
	if open := openSchedstats(t); !maps.Equal(open, kept) {
		t.Errorf("schedstat files open of threads %v; want those kept, %v", open, kept)
	}
	end()
	runqueueWait()
	kept = keptThreads()
	for _, tid := range tids {
		if kept[tid] {
			t.Errorf("thread %d exited before the look: still kept", tid)
		}
	}
	if open := openSchedstats(t); !maps.Equal(open, kept) {
		t.Errorf("after threads exited, schedstat files open of threads %v; want those kept, %v", open, kept)
	}
}

// TestRunqueueWaitReadsEveryThread: the sum covers every thread, also beyond
// those whose files it keeps: read the plain way between two looks, the sum
// lies between theirs, and a look sees the waits grow (the files are read
// afresh, not once and for all). The threads stay meanwhile.
func TestRunqueueWaitReadsEveryThread(t *testing.T) {
	_, end := lockedThreads(t, maxOpenThreads+4)
	defer end()
	runqueueWait()
	first, ok := runqueueWait() // lists again if a thread kept by the first look exited
	if !ok {
		t.Fatalf("runqueueWait: not available on Linux")
	}
	if n := len(keptThreads()); n != maxOpenThreads {
		t.Errorf("%d threads' files kept, with more threads than that; want %d", n, maxOpenThreads)
	}
	for try := 0; ; try++ {
		a, _ := runqueueWait()
		ref := referenceWait(t)
		b, _ := runqueueWait()
		if a > ref || ref > b {
			t.Fatalf("looks %d and %d around the plain sum %d; want it between them", a, b, ref)
		}
		if b > first {
			break // the waits grew, and the looks saw it
		}
		if try == 1000 {
			t.Fatalf("the threads' waits did not grow over 1,000 looks: %d", b)
		}
		Range(0, 10_000, func(int) {}) // helpers waking up wait for a core now and then
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkRunqueueWait: one look at the threads' waits, back to back (a
// look inside a loop of calls, once every 10 ms, finds colder caches and
// takes longer).
func BenchmarkRunqueueWait(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		runqueueWait()
	}
}
