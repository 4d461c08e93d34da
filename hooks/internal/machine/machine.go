package machine

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Describe is the CPU model (where /proc/cpuinfo tells it), the CPU count
// and the OS and architecture, e.g. "AMD EPYC, 2 CPUs, linux/amd64".
func Describe() string {
	s := fmt.Sprintf("%d CPUs, %s/%s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	if model := cpuModel(); model != "" {
		s = model + ", " + s
	}
	return s
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Load is the load average over 1, 5 and 15 minutes as /proc/loadavg
// gives it, e.g. "1.86 2.45 5.01"; "" where the machine does not say.
func Load() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
