package noise_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/noise"
)

func TestMain(m *testing.M) {
	noise.MaybeBurn() // the test binary is re-executed as the burner
	os.Exit(m.Run())
}

// TestBurnerBurnsAndStops: a started burner burns CPU until Stop, which ends it; over its
// life it used some CPU and at most about one core. How large a share of a core it gets
// depends on what else the machine runs, so where /proc tells (Linux) the test asks no
// share: it waits until the burner has burned 100 ms of CPU, however long that takes
// (failing after a minute).
func TestBurnerBurnsAndStops(t *testing.T) {
	b, err := noise.Start()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	const burn = 100 * time.Millisecond
	if _, ok := procCPU(b.Pid()); ok {
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
			if cpu, _ := procCPU(b.Pid()); cpu >= burn {
				break
			}
			if time.Now().After(deadline) {
				b.Stop()
				t.Fatalf("the burner used less than %v of CPU in a minute", burn)
			}
		}
	} else {
		time.Sleep(200 * time.Millisecond)
	}
	if err := b.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if c := b.Cores(); c <= 0 || c > 1.5 {
		t.Errorf("burner used %.2f cores; want more than 0, at most about 1", c)
	}
}

// procFields returns the fields of a /proc stat file after the command name: the state
// first; none if it cannot be read.
func procFields(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
}

// procCPU returns the user and system CPU time of process pid from /proc/pid/stat, counting
// clock ticks of 10 ms (USER_HZ), and whether it could read them.
func procCPU(pid int) (time.Duration, bool) {
	// State, then 10 fields, then utime and stime.
	f := procFields("/proc/" + strconv.Itoa(pid) + "/stat")
	if len(f) < 13 {
		return 0, false
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(user+sys) * 10 * time.Millisecond, true
}
