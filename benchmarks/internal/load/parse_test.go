package load

import "testing"

func TestParseCPULine(t *testing.T) {
	for _, tc := range []struct {
		line         string
		busy, stolen int64
		ok           bool
	}{
		// user nice system idle iowait irq softirq steal guest guest_nice
		{"cpu  100 20 30 1000 7 1 2 50 0 0", 153, 50, true},
		{"cpu  100 20 30 1000 7 1 2", 153, 0, true}, // no steal field
		{"cpu  100 20 30 1000 7 1", 0, 0, false},    // too short
		{"cpu0 100 20 30 1000 7 1 2 50", 0, 0, false},
		{"cpu  100 x 30 1000 7 1 2 50", 0, 0, false},
	} {
		busy, stolen, ok := parseCPULine(tc.line)
		if busy != tc.busy || stolen != tc.stolen || ok != tc.ok {
			t.Errorf("parseCPULine(%q) = %d, %d, %v; want %d, %d, %v", tc.line, busy, stolen, ok, tc.busy, tc.stolen, tc.ok)
		}
	}
}

func TestSpanCountsStolenTime(t *testing.T) {
	a := Sample{busy: 100, stolen: 10, own: 50, ok: true}
	b := a
	b.busy, b.stolen, b.own = 300, 60, 150 // others 100, host 50, over one second
	b.at = a.at.Add(1e9)
	var s Span
	s.Add(a, b)
	if got, want := s.Cores(), 1.5; got != want {
		t.Errorf("Cores() = %g; want %g (others and host)", got, want)
	}
	if got, want := s.Stolen(), 0.5; got != want {
		t.Errorf("Stolen() = %g; want %g", got, want)
	}
}
