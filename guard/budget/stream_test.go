package budget

import (
	"strings"
	"testing"
)

// Recorded stream-json shapes (reference §6.2, §6.3), trimmed.
const (
	initLine = `{"type":"system","subtype":"init","cwd":"/r","session_id":"9842","tools":["Bash"],"model":"claude-sonnet-5","permissionMode":"default","claude_code_version":"2.1.240"}`
	// One API response written as two lines, one per content block, sharing
	// the id and usage; output_tokens on the first is the placeholder.
	msg1a   = `{"type":"assistant","message":{"id":"msg_01","model":"claude-sonnet-5","role":"assistant","content":[{"type":"text","text":"Let me look.\nThen fix."}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1,"cache_creation_input_tokens":1033,"cache_read_input_tokens":28193,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":1033},"service_tier":"standard"}},"parent_tool_use_id":null,"session_id":"9842"}`
	msg1b   = `{"type":"assistant","message":{"id":"msg_01","model":"claude-sonnet-5","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"go test ./...\nand more","description":"run tests"}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":14,"cache_creation_input_tokens":1033,"cache_read_input_tokens":28193}},"parent_tool_use_id":null,"session_id":"9842"}`
	toolRes = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok \"quoted\" {braces}"}]},"parent_tool_use_id":null,"session_id":"9842","tool_use_result":{"stdout":"ok"}}`
	subMsg  = `{"type":"assistant","message":{"id":"msg_sub","model":"claude-haiku-5","role":"assistant","content":[{"type":"text","text":"sub"}],"usage":{"input_tokens":50,"output_tokens":20,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}},"parent_tool_use_id":"toolu_1","session_id":"9842"}`
	msg2    = `{"type":"assistant","message":{"id":"msg_02","model":"claude-sonnet-5","role":"assistant","content":[{"type":"text","text":"Done."}],"usage":{"input_tokens":10,"output_tokens":30,"cache_creation_input_tokens":100,"cache_read_input_tokens":29000}},"parent_tool_use_id":null,"session_id":"9842"}`
	result  = `{"type":"result","subtype":"success","is_error":false,"duration_ms":7603,"duration_api_ms":7100,"num_turns":2,"result":"Hi!\nBye","stop_reason":"end_turn","session_id":"9842","total_cost_usd":0.175672,"usage":{"input_tokens":13,"cache_creation_input_tokens":1133,"cache_read_input_tokens":57193,"output_tokens":60},"modelUsage":{"claude-sonnet-5":{"inputTokens":13,"outputTokens":60,"cacheReadInputTokens":57193,"cacheCreationInputTokens":1133,"costUSD":0.17},"claude-haiku-5":{"inputTokens":50,"outputTokens":25,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"costUSD":0.005672}},"permission_denials":[],"terminal_reason":"completed","uuid":"u"}`
)

func TestStreamCounts(t *testing.T) {
	s := Stream{Details: true}
	ev := s.Line([]byte(initLine + "\n"))
	if ev.Kind != EventInit || ev.SessionID != "9842" || ev.Model != "claude-sonnet-5" || ev.Version != "2.1.240" {
		t.Fatalf("init: %+v", ev)
	}
	ev = s.Line([]byte(msg1a))
	if !ev.NewTurn || ev.Turn != 1 || len(ev.Blocks) != 1 || ev.Blocks[0].Text != "Let me look.…" {
		t.Fatalf("first block: %+v", ev)
	}
	ev = s.Line([]byte(msg1b))
	if ev.NewTurn || ev.Turn != 1 || len(ev.Blocks) != 1 || ev.Blocks[0] != (Block{Tool: "Bash", Text: "go test ./...…"}) {
		t.Fatalf("second block of the same message: %+v", ev)
	}
	want := Usage{Input: 3, Output: 14, CacheCreation: 1033, CacheRead: 28193}
	if got := s.Usage(); got != want {
		t.Fatalf("after one message in two lines: usage %+v, want %+v (counted once, placeholder replaced)", got, want)
	}
	if ev := s.Line([]byte(toolRes)); ev.Kind != EventUser {
		t.Fatalf("tool result: %+v", ev)
	}
	ev = s.Line([]byte(subMsg))
	if ev.NewTurn || !ev.Subagent || s.Turns() != 1 {
		t.Fatalf("a subagent message is not a turn: %+v, turns %d", ev, s.Turns())
	}
	s.Line([]byte(msg2))
	if s.Turns() != 2 {
		t.Fatalf("turns = %d, want 2", s.Turns())
	}
	streamed := Usage{Input: 63, Output: 64, CacheCreation: 1133, CacheRead: 57193}
	if got := s.Usage(); got != streamed {
		t.Fatalf("streamed usage %+v, want %+v", got, streamed)
	}
	ev = s.Line([]byte(result))
	r := ev.Result
	if ev.Kind != EventResult || !r.Success() || r.NumTurns != 2 || !r.HasCost || r.CostUSD != 0.175672 || r.Text != "Hi!\nBye" || r.TerminalReason != "completed" || r.DurationMS != 7603 {
		t.Fatalf("result: %+v", r)
	}
	// modelUsage (both models) replaces the streamed estimate.
	final := Usage{Input: 63, Output: 85, CacheCreation: 1133, CacheRead: 57193}
	if got := s.Usage(); got != final {
		t.Fatalf("final usage %+v, want %+v from modelUsage", got, final)
	}
	if got := s.Streamed(); got != streamed {
		t.Fatalf("Streamed changed with the result: %+v", got)
	}
}

func TestStreamResultUsageOnly(t *testing.T) {
	// Without modelUsage, the result's usage covers the main loop only and
	// the streamed subagent usage is added to it.
	var s Stream
	s.Line([]byte(msg1b))
	s.Line([]byte(subMsg))
	s.Line([]byte(`{"type":"result","subtype":"success","is_error":false,"usage":{"input_tokens":3,"output_tokens":40,"cache_creation_input_tokens":1033,"cache_read_input_tokens":28193}}`))
	want := Usage{Input: 53, Output: 60, CacheCreation: 1033, CacheRead: 28193}
	if got := s.Usage(); got != want {
		t.Fatalf("usage %+v, want %+v", got, want)
	}
}

func TestStreamErrorResults(t *testing.T) {
	for _, tc := range []struct {
		line    string
		success bool
		errs    string
	}{
		{`{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":2,"terminal_reason":"max_turns","errors":["Reached maximum number of turns (1)"],"session_id":"x","total_cost_usd":0.01,"usage":{}}`, false, "Reached maximum number of turns (1)"},
		{`{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key"}`, false, ""},
		{`{"type":"result","subtype":"success","is_error":false}`, true, ""},
	} {
		var s Stream
		ev := s.Line([]byte(tc.line))
		if ev.Result.Success() != tc.success || strings.Join(ev.Result.Errors, ";") != tc.errs {
			t.Errorf("%s: %+v", tc.line, ev.Result)
		}
	}
}

func TestStreamIgnoresWhatItDoesNotKnow(t *testing.T) {
	var s Stream
	for _, line := range []string{
		"", "\n", "Error: When using --print, --output-format=stream-json requires --verbose",
		`{"type":"stream_event","event":{"type":"content_block_delta"}}`,
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":5`, // cut off
		`{"type":"assistant","message":{"id":"s","model":"<synthetic>","usage":{"input_tokens":500}}}`,
		`[1,2,3]`, `{"type":`, `{"a":"\"}`, `{"type":"assistant","message":"not an object"}`,
		`{"type":"system","subtype":"api_retry","attempt":1}`,
	} {
		s.Line([]byte(line))
	}
	if !s.Usage().IsZero() || s.Turns() != 0 {
		t.Fatalf("counted something: %+v, %d turns", s.Usage(), s.Turns())
	}
}

func TestTranscriptTally(t *testing.T) {
	var f FileTally
	lines := []string{
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"say \"assistant\""},"uuid":"u1"}`,
		`{"parentUuid":"u1","isSidechain":false,"message":{"id":"msg_1","model":"m","content":[],"usage":{"input_tokens":100,"output_tokens":1,"cache_creation_input_tokens":10,"cache_read_input_tokens":1000}},"requestId":"r","type":"assistant","uuid":"a1"}`,
	}
	for _, l := range lines {
		f.Line([]byte(l))
	}
	// The rest of the message arrives in a later read.
	f.Line([]byte(`{"message":{"id":"msg_1","model":"m","usage":{"input_tokens":100,"output_tokens":40,"cache_creation_input_tokens":10,"cache_read_input_tokens":1000}},"type":"assistant"}`))
	f.Line([]byte(`{"message":{"id":"msg_2","model":"<synthetic>","usage":{"input_tokens":9999}},"type":"assistant"}`))
	f.Line([]byte(`{"isApiErrorMessage":true,"message":{"id":"msg_3","model":"m","usage":{"input_tokens":9999}},"type":"assistant"}`))
	want := Usage{Input: 100, Output: 40, CacheCreation: 10, CacheRead: 1000}
	if f.Usage != want || f.Turns != 1 {
		t.Fatalf("usage %+v turns %d, want %+v and 1", f.Usage, f.Turns, want)
	}
}

func TestSnippetAndUnescape(t *testing.T) {
	for raw, want := range map[string]string{
		`plain`:                        "plain",
		`\n\n  first line\nsecond`:     "first line…",
		`tab\there \"q\" \\ \/ \u00e9`: "tab\there \"q\" \\ / é",
		`emoji \ud83d\ude00`:           "emoji 😀",
		`bad \u12`:                     `bad \u12`,
		strings.Repeat("x", 200):       strings.Repeat("x", 80) + "…",
	} {
		if got := snippet([]byte(raw), 80); got != want {
			t.Errorf("snippet(%q) = %q, want %q", raw, got, want)
		}
	}
}

func FuzzStreamLine(f *testing.F) {
	for _, l := range []string{initLine, msg1a, msg1b, toolRes, subMsg, msg2, result, `{"a":[{"b":"\\"}]}`} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		s := Stream{Details: true}
		s.Line(line) // must not panic or loop
		var ft FileTally
		ft.Line(line)
	})
}
