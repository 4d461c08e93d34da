package budget

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// cpuTime is this process's CPU time. The benchmarks report it per
// operation too (cpu-ns/op), because on a shared machine the wall-clock
// ns/op also measures everybody else.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// benchStream is about 10 MB of stream-json shaped like a real session:
// per turn a thinking-free text block, a tool call, and a tool result of a
// few kilobytes (every tenth one a 40 kB file with quotes and escapes).
var benchStream = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	code := strings.Repeat("func f(s string) error {\n\treturn fmt.Errorf(\"bad %q\\n\", s)\n}\n", 500)
	out := strings.Repeat("ok  \tgithub.com/x/y/pkg\t0.123s\n", 100)
	// Claude writes "type" first; encoding/json sorts map keys.
	line := func(v map[string]any) {
		typ := v["type"]
		delete(v, "type")
		data, _ := json.Marshal(v)
		fmt.Fprintf(&b, `{"type":%q,`, typ)
		b.Write(data[1:])
		b.WriteByte('\n')
	}
	usage := map[string]any{"input_tokens": 3, "output_tokens": 120, "cache_creation_input_tokens": 900, "cache_read_input_tokens": 40000, "service_tier": "standard"}
	for i := 0; b.Len() < 10<<20; i++ {
		id := fmt.Sprintf("msg_%06d", i)
		msg := func(block map[string]any) map[string]any {
			return map[string]any{"type": "assistant", "parent_tool_use_id": nil, "session_id": "s",
				"message": map[string]any{"id": id, "model": "claude-sonnet-5", "role": "assistant", "content": []any{block}, "usage": usage}}
		}
		line(msg(map[string]any{"type": "text", "text": strings.Repeat("I will run the tests and look at the failures. ", 8)}))
		line(msg(map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": "Bash", "input": map[string]any{"command": "go test ./... 2>&1 | tail -50", "description": "run the tests"}}))
		result := out
		if i%10 == 0 {
			result = code
		}
		line(map[string]any{"type": "user", "parent_tool_use_id": nil, "session_id": "s",
			"message":         map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_" + id, "content": result}}},
			"tool_use_result": map[string]any{"stdout": result, "stderr": "", "interrupted": false}})
	}
	line(map[string]any{"type": "result", "subtype": "success", "is_error": false, "total_cost_usd": 1.5, "usage": usage,
		"modelUsage": map[string]any{"claude-sonnet-5": map[string]any{"inputTokens": 1, "outputTokens": 2}}})
	return b.Bytes()
})

// readLines is what the supervisor does with every line, minus the
// accounting: the baseline the accounting is compared with.
func readLines(r io.Reader, fn func([]byte)) {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, chunk...)
			continue
		}
		if len(long) > 0 {
			long = append(long, chunk...)
			fn(long)
			long = long[:0]
		} else if len(chunk) > 0 {
			fn(chunk)
		}
		if err != nil {
			return
		}
	}
}

// BenchmarkReadLines is the cost of reading the stream line by line.
func BenchmarkReadLines(b *testing.B) {
	data := benchStream()
	b.SetBytes(int64(len(data)))
	n := 0
	start := cpuTime()
	for b.Loop() {
		readLines(bytes.NewReader(data), func(l []byte) { n += len(l) })
	}
	reportCPU(b, start)
}

// BenchmarkStreamAccounting is reading plus accounting, with the summaries
// the wrapper shows for claude.
func BenchmarkStreamAccounting(b *testing.B) {
	data := benchStream()
	b.SetBytes(int64(len(data)))
	start := cpuTime()
	for b.Loop() {
		s := Stream{Details: true}
		readLines(bytes.NewReader(data), func(l []byte) { s.Line(l) })
		if s.Turns() == 0 {
			b.Fatal("nothing counted")
		}
	}
	reportCPU(b, start)
}

// BenchmarkTranscriptTally is the hook's first read of a transcript.
func BenchmarkTranscriptTally(b *testing.B) {
	data := benchStream()
	b.SetBytes(int64(len(data)))
	start := cpuTime()
	for b.Loop() {
		var f FileTally
		readLines(bytes.NewReader(data), func(l []byte) { f.Line(l) })
		if f.Turns == 0 {
			b.Fatal("nothing counted")
		}
	}
	reportCPU(b, start)
}

// BenchmarkStreamAccountingNoDetails is the accounting alone, without the
// summaries (what a wrapped program other than claude costs).
func BenchmarkStreamAccountingNoDetails(b *testing.B) {
	data := benchStream()
	b.SetBytes(int64(len(data)))
	start := cpuTime()
	for b.Loop() {
		var s Stream
		readLines(bytes.NewReader(data), func(l []byte) { s.Line(l) })
		if s.Turns() == 0 {
			b.Fatal("nothing counted")
		}
	}
	reportCPU(b, start)
}
