package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// BenchmarkStopLatency measures how long after the decision to stop an
// agent that ignores SIGINT and SIGTERM (and has a grandchild that does
// too) the whole group is gone. The target is grace + 100 ms; the
// overshoot-ms metric is the time beyond the grace period.
func BenchmarkStopLatency(b *testing.B) {
	grace := 100 * time.Millisecond
	dir := b.TempDir()
	var over time.Duration
	n := 0
	for b.Loop() {
		n++
		c := helperCommand(fmt.Sprintf("ignore ; spawn %s stubborn ; lines 1 ; hang", filepath.Join(dir, fmt.Sprint(n))))
		res, err := Run(context.Background(), c, Limits{Grace: grace}, func([]byte) bool { return true })
		if err != nil || res.Stopped != StopRequested || res.LastSignal != syscall.SIGKILL {
			b.Fatalf("%+v, %v", res, err)
		}
		over += res.StopLatency - grace
	}
	b.ReportMetric(float64(over.Microseconds())/float64(n)/1000, "overshoot-ms")
}

// BenchmarkStopLatencyCooperative is the same for an agent that stops on
// SIGINT, as claude does: the stop takes as long as the agent needs.
func BenchmarkStopLatencyCooperative(b *testing.B) {
	var total time.Duration
	n := 0
	for b.Loop() {
		n++
		res, err := Run(context.Background(), helperCommand("lines 1 ; hang"), Limits{Grace: time.Second}, func([]byte) bool { return true })
		if err != nil || res.Stopped != StopRequested {
			b.Fatalf("%+v, %v", res, err)
		}
		total += res.StopLatency
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n)/1000, "stop-ms")
}

// streamFile writes about 10 MB of stream-json shaped like a session (see
// guard/budget's benchmark) and returns its path.
func streamFile(b *testing.B) string {
	path := filepath.Join(b.TempDir(), "stream.jsonl")
	var sb strings.Builder
	out := strings.Repeat("ok  \tgithub.com/x/y/pkg\t0.123s\n", 100)
	code := strings.Repeat("func f(s string) error {\n\treturn fmt.Errorf(\"bad %q\\n\", s)\n}\n", 500)
	line := func(typ string, v map[string]any) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(&sb, `{"type":%q,`, typ)
		sb.Write(data[1:])
		sb.WriteByte('\n')
	}
	usage := map[string]any{"input_tokens": 3, "output_tokens": 120, "cache_creation_input_tokens": 900, "cache_read_input_tokens": 40000}
	for i := 0; sb.Len() < 10<<20; i++ {
		id := fmt.Sprintf("msg_%06d", i)
		line("assistant", map[string]any{"parent_tool_use_id": nil, "message": map[string]any{"id": id, "model": "m", "usage": usage,
			"content": []any{map[string]any{"type": "text", "text": strings.Repeat("I will run the tests. ", 16)}}}})
		line("assistant", map[string]any{"parent_tool_use_id": nil, "message": map[string]any{"id": id, "model": "m", "usage": usage,
			"content": []any{map[string]any{"type": "tool_use", "id": "t" + id, "name": "Bash", "input": map[string]any{"command": "go test ./..."}}}}})
		result := out
		if i%10 == 0 {
			result = code
		}
		line("user", map[string]any{"parent_tool_use_id": nil, "message": map[string]any{"role": "user",
			"content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t" + id, "content": result}}},
			"tool_use_result": map[string]any{"stdout": result}})
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCatCPU is the baseline: the CPU time of `cat` passing the 10 MB
// stream from a pipe to /dev/null, as a wrapper that only forwarded the
// output would.
func BenchmarkCatCPU(b *testing.B) {
	if _, err := exec.LookPath("cat"); err != nil {
		b.Skip("no cat")
	}
	path := streamFile(b)
	var cpu time.Duration
	n := 0
	for b.Loop() {
		n++
		src := exec.Command("cat", path)
		dst := exec.Command("cat")
		pipe, err := src.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		dst.Stdin = pipe
		if err := src.Start(); err != nil {
			b.Fatal(err)
		}
		if err := dst.Run(); err != nil {
			b.Fatal(err)
		}
		src.Wait()
		cpu += dst.ProcessState.UserTime() + dst.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(n)/1000, "cpu-ms/op")
}

// BenchmarkWrapperCPU is the CPU time of this process supervising `cat` of
// the same stream and accounting every line as swarm-guard run does for
// claude (summaries included). Compare cpu-ms/op with BenchmarkCatCPU.
func BenchmarkWrapperCPU(b *testing.B) {
	benchWrapper(b, true)
}

// BenchmarkWrapperCPUNoAccounting splits the cost: supervision and line
// splitting only.
func BenchmarkWrapperCPUNoAccounting(b *testing.B) {
	benchWrapper(b, false)
}

func benchWrapper(b *testing.B, account bool) {
	if _, err := exec.LookPath("cat"); err != nil {
		b.Skip("no cat")
	}
	path := streamFile(b)
	var cpu time.Duration
	n := 0
	for b.Loop() {
		n++
		s := budget.Stream{Details: true}
		before := selfCPU()
		res, err := Run(context.Background(), Command{Path: "cat", Args: []string{path}}, Limits{}, func(line []byte) bool {
			if account {
				s.Line(line)
			}
			return false
		})
		cpu += selfCPU() - before
		if err != nil || res.ExitCode != 0 || (account && s.Turns() == 0) {
			b.Fatalf("%+v, %v", res, err)
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(n)/1000, "cpu-ms/op")
}
