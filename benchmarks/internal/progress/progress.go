// Package progress reports the progress of long phases on a terminal or log: nothing for a
// phase that ends within a second, then the current step at most once a second.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Meter shows the progress of one phase of known length. The zero Meter is not usable; a nil
// *Meter is, and shows nothing. Its methods may be called from any goroutine.
type Meter struct {
	w     io.Writer
	tty   bool // overwrite one line with \r rather than print a line per report
	phase string
	total int
	start time.Time
	every time.Duration

	mu    sync.Mutex
	done  int
	step  string
	shown bool // something was printed, so End finishes the line
	stop  chan struct{}
	wg    sync.WaitGroup
}

// Start begins a phase of total steps and returns its meter. The first report comes a
// second after Start, if the phase is still running then.
func Start(w io.Writer, phase string, total int) *Meter {
	return start(w, phase, total, time.Second)
}

func start(w io.Writer, phase string, total int, every time.Duration) *Meter {
	m := &Meter{w: w, tty: isTerminal(w), phase: phase, total: total, start: time.Now(), every: every, stop: make(chan struct{})}
	m.wg.Go(m.loop)
	return m
}

// Step records that the phase is now on step name, the done-th of total (counting from 0).
func (m *Meter) Step(done int, name string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.done, m.step = done, name
	m.mu.Unlock()
}

// End finishes the phase; if anything was shown, it prints the phase's total time.
func (m *Meter) End() {
	if m == nil {
		return
	}
	close(m.stop)
	m.wg.Wait()
	if m.shown {
		m.print(fmt.Sprintf("%s: done in %s", m.phase, time.Since(m.start).Round(100*time.Millisecond)), true)
	}
}

func (m *Meter) loop() {
	t := time.NewTicker(m.every)
	defer t.Stop()
	last := ""
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
		m.mu.Lock()
		done, step := m.done, m.step
		m.mu.Unlock()
		line := fmt.Sprintf("%s: [%d/%d] %s", m.phase, done, m.total, step)
		if line == last && !m.tty {
			continue
		}
		last = line
		elapsed := time.Since(m.start)
		line += fmt.Sprintf("  %s", elapsed.Round(time.Second))
		if done > 0 && done < m.total {
			left := time.Duration(float64(elapsed) / float64(done) * float64(m.total-done))
			line += fmt.Sprintf(", about %s left", left.Round(time.Second))
		}
		m.print(line, false)
	}
}

// print writes one report: on a terminal it overwrites the previous one.
func (m *Meter) print(line string, final bool) {
	m.shown = true
	switch {
	case !m.tty:
		fmt.Fprintln(m.w, line)
	case final:
		fmt.Fprintf(m.w, "\r\033[K%s\n", line)
	default:
		fmt.Fprintf(m.w, "\r\033[K%s", line)
	}
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
