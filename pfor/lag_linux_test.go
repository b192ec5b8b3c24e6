package pfor_test

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// burnEnv, set in a re-executed test binary's environment, makes it burn a
// core until it is killed (see TestMain).
const burnEnv = "STEALKIT_PFOR_TEST_BURN"

func TestMain(m *testing.M) {
	if os.Getenv(burnEnv) != "" {
		for x := 0; ; x++ { // burn until killed
		}
	}
	os.Exit(m.Run())
}

// TestLaggingUnderBurners: with other processes burning half the cores,
// short calls back to back put the pool in the lagging state; once the
// burners stop and the process is quiet, the state ends. This is the
// detector at work on the threads' real waits for a core, with the
// operating system doing the preempting. (The second half waits without
// calls, so that the process's own threads do not count.)
func TestLaggingUnderBurners(t *testing.T) {
	// One P per core, as the detector's threshold is per P (under GOMAXPROCS above the core
	// count, the process's own threads would take the cores from one another).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(runtime.NumCPU()))
	var burners []*exec.Cmd
	stop := func() {
		for _, b := range burners {
			b.Process.Kill()
			b.Wait()
		}
		burners = nil
	}
	defer stop()
	for range max(1, runtime.NumCPU()/2) {
		b := exec.Command(os.Args[0], "-test.run=^$")
		b.Env = append(os.Environ(), burnEnv+"=1")
		if err := b.Start(); err != nil {
			t.Fatalf("starting a burner process: %v", err)
		}
		burners = append(burners, b)
	}

	out := make([]int, 1000)
	calls := func(d time.Duration, until func() bool) bool {
		for end := time.Now().Add(d); time.Now().Before(end); {
			pfor.Range(0, len(out), func(i int) { out[i]++ })
			if until() {
				return true
			}
		}
		return false
	}
	if !calls(10*time.Second, pfor.Lagging) {
		t.Fatalf("10 s of short calls with %d processes burning %d cores: the pool never lagged", len(burners), runtime.NumCPU())
	}
	stop()
	for end := time.Now().Add(10 * time.Second); pfor.Lagging(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the burners stopped, and the pool still lagged 10 s later")
		}
	}
}
