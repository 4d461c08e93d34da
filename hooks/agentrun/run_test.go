package agentrun

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

func TestClaudeArgv(t *testing.T) {
	for _, tc := range []struct {
		in        string
		turns     int64
		turnsSet  bool
		want      string
		own       int64
		streaming bool
	}{
		{"claude -p hi", 100, false, "claude -p hi --output-format stream-json --verbose --max-turns 100", 0, true},
		{"claude -p hi", 7, true, "claude -p hi --output-format stream-json --verbose --max-turns 7", 0, true},
		{"claude -p hi", 0, true, "claude -p hi --output-format stream-json --verbose", 0, true},
		{"claude -p hi --max-turns=3 --verbose", 100, false, "claude -p hi --max-turns=3 --verbose --output-format stream-json", 3, true},
		{"claude --output-format json -p hi", 100, false, "claude --output-format json -p hi --max-turns 100", 0, false},
		{"claude -p --output-format=stream-json -- --max-turns", 100, false, "claude -p --output-format=stream-json --verbose --max-turns 100 -- --max-turns", 0, true},
	} {
		got, own, streaming := claudeArgv(strings.Fields(tc.in), tc.turns, tc.turnsSet)
		if strings.Join(got, " ") != tc.want || own != tc.own || streaming != tc.streaming {
			t.Errorf("claudeArgv(%q) = %q, %d, %v; want %q, %d, %v", tc.in, strings.Join(got, " "), own, streaming, tc.want, tc.own, tc.streaming)
		}
	}
}

func TestBackoffDelay(t *testing.T) {
	for failed, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 20: maxBackoff} {
		if got := backoffDelay(time.Second, failed); got != want {
			t.Errorf("backoffDelay(1s, %d) = %v, want %v", failed, got, want)
		}
	}
}

// TestStatusLine: on a terminal the summary keeps a status line at the
// bottom, cleared before each permanent line.
func TestStatusLine(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	o := newRunOutput(&buf, func() time.Time { return now })
	o.tty = true
	o.begin(now.Add(-75*time.Second), true)
	var s budget.Stream
	s.Details = true
	line := []byte(`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","name":"Bash","input":{"command":"go test ./..."}}],"usage":{"input_tokens":1200,"output_tokens":300}},"parent_tool_use_id":null}`)
	o.show(s.Line(line), line, s.Usage())
	o.end()
	want := "[1:15] turn 1 · Bash: go test ./...\n\r\x1b[K… 1:15 · turn 1 · 1.5k tokens · Bash: go test ./...\r\x1b[K"
	if got := buf.String(); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// Not a terminal: plain lines only.
	buf.Reset()
	o = newRunOutput(&buf, func() time.Time { return now })
	o.begin(now, true)
	o.show(s.Line(line), line, s.Usage())
	o.end()
	if got := buf.String(); strings.Contains(got, "\r") || got != "[0:00] turn 1 · Bash: go test ./...\n" {
		t.Fatalf("plain output %q", got)
	}
}
