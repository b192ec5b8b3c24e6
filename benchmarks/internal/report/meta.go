// Package report formats the runner's results: the text tables on standard output, the JSON
// file and the self-contained HTML report with inline SVG charts.
package report

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// Report is everything one run of the runner produced.
type Report struct {
	Meta      Meta              `json:"meta"`                 // how the run was made
	Results   []runner.Result   `json:"results,omitempty"`    // the comparison's cells
	Timelines []runner.Timeline `json:"timelines,omitempty"`  // one run per stealkit partitioner, chunk by chunk
	Study     *simulate.Study   `json:"simulation,omitempty"` // the scaling study, with -simulate
}

// Meta describes the run: when, where, with what and how.
type Meta struct {
	Date       string    `json:"date"`                  // when the run started, RFC 3339 in UTC
	Command    string    `json:"command"`               // the command line
	GoVersion  string    `json:"go_version"`            // runtime.Version()
	OS         string    `json:"os"`                    // runtime.GOOS
	Arch       string    `json:"arch"`                  // runtime.GOARCH
	CPU        string    `json:"cpu"`                   // the CPU's model name, or GOARCH where /proc/cpuinfo has none
	NumCPU     int       `json:"num_cpu"`               // runtime.NumCPU()
	GOMAXPROCS int       `json:"gomaxprocs"`            // runtime.GOMAXPROCS(0)
	LoadAvg    string    `json:"load_average"`          // /proc/loadavg's first three fields at the start
	Versions   []Version `json:"versions"`              // the modules in the build
	Scale      float64   `json:"scale"`                 // -scale
	N          int       `json:"n,omitempty"`           // -n, 0 if not given
	Repeat     int       `json:"repeat"`                // -repeat
	PeerTasks  int       `json:"peer_tasks_per_worker"` // chunks per worker given to the task-pool peers
	Noise      bool      `json:"noise"`                 // -noise
	NoiseCores float64   `json:"noise_cores,omitempty"` // CPU the burner used, in cores
	Elapsed    float64   `json:"elapsed_s"`             // the run's wall time, in seconds
	OtherLoad  float64   `json:"other_load_cores"`      // cores kept busy by others during the run (processes, and the host's part), -1 if unknown
	HostLoad   float64   `json:"host_load_cores"`       // the host's part of OtherLoad (steal time), -1 if unknown
}

// Version is one module in the build.
type Version struct {
	Path    string `json:"path"` // module path
	Version string `json:"version"`
	Replace string `json:"replace,omitempty"` // where a replaced module came from
}

// CollectMeta describes the machine it runs on and the build; the caller fills in the run's
// settings.
func CollectMeta(args []string, start time.Time) Meta {
	m := Meta{
		Date:       start.UTC().Format(time.RFC3339),
		Command:    strings.Join(args, " "),
		GoVersion:  runtime.Version(),
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		CPU:        cpuModel(),
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		LoadAvg:    loadAvg(),
		Versions:   versions(),
	}
	return m
}

// versions lists stealkit and the peers' modules from the build information, as
// runtime/debug.ReadBuildInfo reports them.
func versions() []Version {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	var vs []Version
	for _, d := range bi.Deps {
		v := Version{Path: d.Path, Version: d.Version}
		if d.Replace != nil {
			v.Replace = d.Replace.Path
			if d.Replace.Version != "" {
				v.Version = d.Replace.Version
			}
		}
		if v.Version == "" {
			v.Version = "(devel)"
		}
		vs = append(vs, v)
	}
	return vs
}

// cpuModel returns the first "model name" of /proc/cpuinfo, or GOARCH where there is none.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH
}

// loadAvg returns the 1, 5 and 15 minute load averages, or "" where /proc/loadavg is missing.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
