package progress

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuilder is a strings.Builder safe for the meter's goroutine and the test.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestQuietWhenShort(t *testing.T) {
	var out syncBuilder
	m := start(&out, "phase", 3, time.Hour)
	m.Step(1, "one")
	m.End()
	if out.String() != "" {
		t.Errorf("a phase shorter than the first report printed %q; want nothing", out.String())
	}
}

func TestReportsWhenLong(t *testing.T) {
	var out syncBuilder
	m := start(&out, "phase", 4, 5*time.Millisecond)
	m.Step(1, "tailheavy")
	// The first report comes when the meter's goroutine has run after a tick: wait for it
	// however long that takes, then leave room for ten more ticks, which must print nothing.
	for deadline := time.Now().Add(time.Minute); !strings.Contains(out.String(), "[1/4] tailheavy"); {
		if time.Now().After(deadline) {
			t.Fatalf("no report of the step a minute after it, with a report due every 5 ms: %q", out.String())
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	m.End()
	got := out.String()
	if !strings.Contains(got, "phase: [1/4] tailheavy") || !strings.Contains(got, "left") || !strings.Contains(got, "phase: done in") {
		t.Errorf("progress output %q; want the step with an estimate, then the total", got)
	}
	if n := strings.Count(got, "[1/4]"); n != 1 {
		t.Errorf("an unchanged step was reported %d times; want once (not a terminal)", n)
	}
}

func TestNilMeter(t *testing.T) {
	var m *Meter
	m.Step(0, "x")
	m.End()
}
