// Package noise plays a noisy neighbour: a second process that keeps one core busy while the
// comparison runs, as another tenant of a shared machine would. The burner is this same
// executable, re-executed with an environment variable that makes MaybeBurn take over.
package noise

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// envBurn, set to "1" in a process's environment, makes MaybeBurn burn a core.
const envBurn = "STEALBENCH_BURN"

// maxBurn bounds a burner's life in case its parent dies without closing its standard input.
const maxBurn = time.Hour

// MaybeBurn returns at once unless this process was started by Start. In a burner it writes
// one byte to standard output (the signal that it runs), keeps one core busy until its
// standard input reaches end of file (Stop closes it) or maxBurn passes, and exits. main,
// and TestMain in tests that start burners, call it first.
func MaybeBurn() {
	if os.Getenv(envBurn) != "1" {
		return
	}
	runtime.GOMAXPROCS(1)
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin) // returns when the parent closes the pipe or dies
		close(done)
	}()
	os.Stdout.Write([]byte{1})
	deadline := time.Now().Add(maxBurn)
	x := 0.5
	for {
		for range 1 << 16 {
			x = x*0.9999999 + 1e-6
		}
		select {
		case <-done:
			os.Exit(0)
		default:
		}
		if time.Now().After(deadline) {
			os.Exit(0)
		}
		burnSink = x
	}
}

// burnSink keeps the burner's arithmetic from being optimised away.
var burnSink float64

// Burner is a running burner process.
type Burner struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	start time.Time
	wall  time.Duration // set by Stop
}

// Start starts a burner and returns once it is burning.
func Start() (*Burner, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("noise: cannot find this executable to re-run it as the burner: %w", err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envBurn+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("noise: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("noise: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("noise: starting the burner: %w", err)
	}
	var b [1]byte
	if _, err := io.ReadFull(stdout, b[:]); err != nil {
		stdin.Close()
		cmd.Wait()
		return nil, fmt.Errorf("noise: the burner did not start (is MaybeBurn called first in main?): %w", err)
	}
	return &Burner{cmd: cmd, stdin: stdin, start: time.Now()}, nil
}

// Pid returns the burner's process id.
func (b *Burner) Pid() int { return b.cmd.Process.Pid }

// Stop ends the burner and waits for it to exit.
func (b *Burner) Stop() error {
	err := b.stdin.Close()
	err = errors.Join(err, b.cmd.Wait())
	b.wall = time.Since(b.start)
	return err
}

// Cores returns the CPU time the burner used over its lifetime, in cores (1 means it had a
// core to itself all along). It is valid after Stop.
func (b *Burner) Cores() float64 {
	if b.wall == 0 || b.cmd.ProcessState == nil {
		return 0
	}
	cpu := b.cmd.ProcessState.UserTime() + b.cmd.ProcessState.SystemTime()
	return float64(cpu) / float64(b.wall)
}
