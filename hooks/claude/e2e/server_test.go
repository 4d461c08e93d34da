package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
)

// post sends one Messages API request and returns the raw answer.
func post(t *testing.T, url, body string) string {
	return e2eharness.Post(t, url+"/v1/messages", body)
}

// TestServerPlaysScript checks the stand-in the client tests rely on: the
// next step follows from the conversation, results and the hook messages
// after them are recorded, and side requests get text.
func TestServerPlaysScript(t *testing.T) {
	srv, err := NewServer([]Call{
		{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		{Tool: "Write", Input: json.RawMessage(`{"file_path":"/x","content":"y"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tools := `"tools":[{"name":"Bash"},{"name":"Write"}]`

	first := post(t, srv.URL(), `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"go"}]}`)
	for _, want := range []string{"event: message_start", `"id":"toolu_e2e_000"`, `"name":"Bash"`, `"partial_json":"{\"command\":\"ls\"}"`, `"stop_reason":"tool_use"`, "event: message_stop"} {
		if !strings.Contains(first, want) {
			t.Errorf("first answer lacks %s:\n%s", want, first)
		}
	}

	second := post(t, srv.URL(), `{"stream":true,`+tools+`,"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_000","name":"Bash","input":{"command":"ls"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_000","content":[{"type":"text","text":"a.txt"}],"is_error":true}]},
		{"role":"system","content":[{"type":"text","text":"PostToolUse:Bash hook blocking error"}]}]}`)
	if !strings.Contains(second, `"id":"toolu_e2e_001"`) || !strings.Contains(second, `"name":"Write"`) {
		t.Errorf("second answer is not the second call:\n%s", second)
	}

	third := post(t, srv.URL(), `{"stream":false,`+tools+`,"messages":[
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_000","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_000","content":"a.txt","is_error":true}]},
		{"role":"system","content":[{"type":"text","text":"PostToolUse:Bash hook blocking error"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_001","name":"Write","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_001","content":"File created"}]}]}`)
	if !strings.Contains(third, FinalText) || !strings.Contains(third, `"stop_reason":"end_turn"`) {
		t.Errorf("after the last call the answer is not the final text:\n%s", third)
	}

	side := post(t, srv.URL(), `{"stream":false,"messages":[{"role":"user","content":"title?"}]}`)
	if !strings.Contains(side, `"type":"text"`) || strings.Contains(side, "tool_use") {
		t.Errorf("a request without tools got %s", side)
	}

	res, arrived := srv.Results()
	if !arrived[0] || !arrived[1] {
		t.Fatalf("results arrived = %v", arrived)
	}
	if res[0].Text != "a.txt" || !res[0].IsError || !strings.Contains(res[0].Told(), "hook blocking error") {
		t.Errorf("call 1 result = %+v", res[0])
	}
	if res[1].Text != "File created" || res[1].IsError || len(res[1].After) != 0 {
		t.Errorf("call 2 result = %+v", res[1])
	}
	if srv.ToolRequests() != 3 {
		t.Errorf("tool requests = %d, want 3", srv.ToolRequests())
	}
}

// TestServerConversations checks that a subagent's conversation, marked by
// its prompt, gets its own calls and the main one the rest.
func TestServerConversations(t *testing.T) {
	srv, err := NewServer([]Call{
		{Tool: "Agent", Input: json.RawMessage(`{"prompt":"[e2e:sub] go"}`)},
		{Tool: "Bash", Input: json.RawMessage(`{"command":"sub"}`), Conv: "sub"},
		{Tool: "Bash", Input: json.RawMessage(`{"command":"main"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tools := `"tools":[{"name":"Bash"}]`
	if got := post(t, srv.URL(), `{`+tools+`,"messages":[{"role":"user","content":"go"}]}`); !strings.Contains(got, `"toolu_e2e_000"`) {
		t.Errorf("main's first call: %s", got)
	}
	sub := `{"role":"user","content":[{"type":"text","text":"[e2e:sub] go"}]}`
	if got := post(t, srv.URL(), `{`+tools+`,"messages":[`+sub+`]}`); !strings.Contains(got, `"toolu_e2e_001"`) {
		t.Errorf("the subagent's first call: %s", got)
	}
	if got := post(t, srv.URL(), `{`+tools+`,"messages":[`+sub+`,
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_001","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_001","content":"ok"}]}]}`); !strings.Contains(got, FinalText) {
		t.Errorf("the subagent after its call: %s", got)
	}
	if got := post(t, srv.URL(), `{`+tools+`,"messages":[{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_000","name":"Agent","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_000","content":"done"}]}]}`); !strings.Contains(got, `"toolu_e2e_002"`) {
		t.Errorf("main's second call: %s", got)
	}
}

// TestBeforeMessage: the "clean" expectation measures what stands before
// swarm-guard's message besides the client's own label.
func TestBeforeMessage(t *testing.T) {
	for _, tc := range []struct {
		told, before string
		ok           bool
	}{
		{"PreToolUse:Bash hook error: swarm-guard blocked this call (rule x): y.", "", true},
		{"(Bash completed with no output)\nPostToolUse:Bash hook additional context: swarm-guard found 1 secret", "", true},
		{`PreToolUse:Bash hook error: [sg_path=$PATH:; exec "$sg" hook; exit 2]: swarm-guard blocked this call`, `[sg_path=$PATH:; exec "$sg" hook; exit 2]: `, true},
		{"Exit code 1\nrm: cannot remove", "", false},
	} {
		before, ok := beforeMessage(tc.told)
		if before != tc.before || ok != tc.ok {
			t.Errorf("%q: %q %v, want %q %v", tc.told, before, ok, tc.before, tc.ok)
		}
	}
}
