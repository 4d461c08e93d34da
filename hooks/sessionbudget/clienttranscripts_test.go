package sessionbudget

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// Lines in the shapes the real clients wrote in make e2e-clients
// (2026-11-27), with the other members they carry shortened.
func codexTokenCount(in, cached, out int64) string {
	return fmt.Sprintf(`{"timestamp":"2026-11-27T19:40:47.576Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d},"last_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110},"model_context_window":258400},"rate_limits":null}}`+"\n", in, cached, out, in+out)
}

const codexOther = `{"timestamp":"2026-11-27T19:40:47.100Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"echo token_count\"}","call_id":"call_e2e_000"}}` + "\n"

func geminiMessage(id string, in, cached, out, thoughts int64, toolCalls bool) string {
	calls := ""
	if toolCalls {
		calls = `,"toolCalls":[{"id":"run_shell_command__call_e2e_000","name":"run_shell_command","args":{"command":"ls"},"status":"success"}]`
	}
	return fmt.Sprintf(`{"id":%q,"timestamp":"2026-11-27T19:40:47.576Z","type":"gemini","content":"","thoughts":[],"tokens":{"input":%d,"output":%d,"cached":%d,"thoughts":%d,"tool":0,"total":%d},"model":"gemini-3.8-flash"%s}`+"\n",
		id, in, out, cached, thoughts, in+out+thoughts, calls)
}

const geminiOther = `{"id":"481fc1b9","timestamp":"2026-11-27T19:40:45.276Z","type":"user","content":[{"text":"print \"tokens\""}]}` + "\n" + `{"$set":{"lastUpdated":"2026-11-27T19:40:45.276Z"}}` + "\n"

func qwenAssistant(uuid string, prompt, cached, out, thoughts int64) string {
	return fmt.Sprintf(`{"uuid":%q,"parentUuid":"b5a944d7","sessionId":"e2fdcb31","timestamp":"2026-11-27T19:24:10.077Z","type":"assistant","provenance":"assistant_output","cwd":"/w","version":"0.24.4","model":"mock-model","message":{"role":"model","parts":[{"text":""}]},"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":%d,"thoughtsTokenCount":%d,"totalTokenCount":%d,"cachedContentTokenCount":%d}}`+"\n",
		uuid, prompt, out, thoughts, prompt+out+thoughts, cached)
}

const qwenOther = `{"uuid":"8f41e6f8","type":"tool_result","provenance":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"response":{"output":"usageMetadata"}}}]}}` + "\n"

func copilotUsage(callID string, in, cacheRead, out int64) string {
	return fmt.Sprintf(`{"type":"session.usage_record","data":{"usage":{"model":"mock-model","modelDisplayName":"mock-model","inputTokens":%d,"outputTokens":%d,"cacheReadTokens":%d,"cacheWriteTokens":0,"reasoningTokens":3,"cost":0.0,"duration":108,"initiator":"user","interactionType":"conversation-agent","isByok":true,"apiCallId":%q}},"id":"a1","timestamp":"2026-11-27T23:54:57.102Z"}`+"\n",
		in, out, cacheRead, callID)
}

const copilotOther = `{"type":"hook.start","data":{"hookInvocationId":"5bac7ce9","hookType":"preToolUse","input":{"sessionId":"491fce91","toolName":"bash","toolArgs":{"command":"echo session.usage_record"}}},"id":"a2","timestamp":"2026-11-27T23:54:57.185Z"}` + "\n"

// TestClientTranscripts reads each client's transcript as it grows: only
// complete lines, each model response once, the cached part of the input
// as cache reads (outside the budget), and a limit passed when the
// session's tokens pass it.
func TestClientTranscripts(t *testing.T) {
	cases := []struct {
		client string
		steps  []string // appended before each check
		want   []int64  // budgeted tokens after each step
	}{
		{"codex", []string{
			codexOther + codexTokenCount(100, 0, 10),
			codexOther + codexTokenCount(300, 150, 30) + `{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":900`,
			`,"cached_input_tokens":0,"output_tokens":100}}}}` + "\n",
			`{"type":"event_msg","payload":{"type":"token_count","info":null}}` + "\n",
		}, []int64{110, 180, 1000, 1000}},
		{"gemini", []string{
			geminiOther + geminiMessage("m1", 100, 0, 10, 0, false),
			// The same message again, with its tool calls: counted once.
			geminiMessage("m1", 100, 0, 10, 0, true) + geminiOther,
			geminiMessage("m2", 500, 400, 20, 30, false),
		}, []int64{110, 110, 260}},
		{"copilot", []string{
			copilotOther + copilotUsage("chatcmpl-1", 100, 0, 10),
			copilotOther + copilotUsage("chatcmpl-2", 300, 200, 10),
			copilotUsage("chatcmpl-3", 800, 0, 100),
		}, []int64{110, 220, 1120}},
		{"qwen", []string{
			qwenAssistant("a1", 100, 0, 10, 0),
			qwenOther + qwenAssistant("a2", 300, 200, 10, 5),
			qwenAssistant("a3", 800, 0, 100, 0),
		}, []int64{110, 225, 1125}},
	}
	for _, tc := range cases {
		t.Run(tc.client, func(t *testing.T) {
			dir := t.TempDir()
			transcript := filepath.Join(dir, "session.jsonl")
			req := Request{StateDir: filepath.Join(dir, "state"), SessionID: "s-" + tc.client, TranscriptPath: transcript,
				Client: tc.client, Limits: budget.HookLimits{Tokens: 1000}, Now: time.Unix(0, 0)}
			for i, step := range tc.steps {
				appendTo(t, transcript, step)
				v, err := Check(req)
				if err != nil {
					t.Fatal(err)
				}
				if got := v.Tokens.Budgeted(); got != tc.want[i] {
					t.Fatalf("after step %d: %d tokens, want %d (%v)", i+1, got, tc.want[i], v.Tokens)
				}
				if over := tc.want[i] > 1000; (v.Exceeded != nil) != over {
					t.Fatalf("after step %d: exceeded = %v, want %v", i+1, v.Exceeded, over)
				}
			}
		})
	}
}

// TestClientTranscriptUnread: a client whose transcript swarm-guard does
// not read (opencode names none) counts its tool calls and no tokens,
// even when its event names a file.
func TestClientTranscriptUnread(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(transcript, []byte(assistantLine("m1", 5000, 5000)), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := Check(Request{StateDir: filepath.Join(dir, "state"), SessionID: "d1", TranscriptPath: transcript,
		Client: "opencode", Limits: budget.HookLimits{Tokens: 10, ToolCalls: 5}, Now: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if v.Exceeded != nil || v.ToolCalls != 1 || !v.Tokens.IsZero() {
		t.Fatalf("got %+v, want one tool call, no tokens, nothing exceeded", v)
	}
}

// TestCopilotTranscript: Copilot CLI's session file is found from the
// session id its events carry, and only an id that is a plain file name
// can name one.
func TestCopilotTranscript(t *testing.T) {
	for _, tc := range []struct{ home, id, want string }{
		{"/h/.copilot", "491fce91-bc29-4e02-8eef-821886f6bba5", "/h/.copilot/session-state/491fce91-bc29-4e02-8eef-821886f6bba5/events.jsonl"},
		{"/h/.copilot", "../../etc", ""},
		{"/h/.copilot", "a/b", ""},
		{"/h/.copilot", "", ""},
		{"", "491fce91", ""},
	} {
		if got := CopilotTranscript(tc.home, tc.id); got != tc.want {
			t.Errorf("CopilotTranscript(%q, %q) = %q, want %q", tc.home, tc.id, got, tc.want)
		}
	}
}
