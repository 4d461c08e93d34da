package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
)

var post = e2eharness.Post

func newStandin(t *testing.T) *Server {
	t.Helper()
	srv, err := NewServer([]Call{
		{Tool: "bash", Args: map[string]any{"command": "ls"}},
		{Tool: "apply_patch", Freeform: "*** Begin Patch\n*** End Patch\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// TestChatPlaysScript: each Chat Completions request with tools gets the
// next call of the conversation, the results it carries are recorded, and
// a request without tools gets text.
func TestChatPlaysScript(t *testing.T) {
	srv := newStandin(t)
	url := srv.URL() + "/v1/chat/completions"
	tools := `"tools":[{"type":"function","function":{"name":"bash"}}]`
	first := post(t, url, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"go"}]}`)
	if !strings.Contains(first, `"id":"call_e2e_000"`) || !strings.Contains(first, `"name":"bash"`) || !strings.Contains(first, "data: [DONE]") {
		t.Fatalf("first answer is not the scripted bash call:\n%s", first)
	}
	second := post(t, url, `{"stream":false,`+tools+`,"messages":[{"role":"user","content":"go"},`+
		`{"role":"assistant","tool_calls":[{"id":"call_e2e_000"}]},{"role":"tool","tool_call_id":"call_e2e_000","content":[{"type":"text","text":"README.md"}]}]}`)
	if !strings.Contains(second, `"id":"call_e2e_001"`) || !strings.Contains(second, `"finish_reason":"tool_calls"`) {
		t.Fatalf("second answer is not the second call:\n%s", second)
	}
	res, ok := srv.Results()
	if !ok[0] || res[0].Text != "README.md" || ok[1] {
		t.Fatalf("results = %q %v", res, ok)
	}
	if side := post(t, url, `{"messages":[{"role":"user","content":"title?"}]}`); !strings.Contains(side, `"content":"ok"`) {
		t.Fatalf("a request without tools got %s", side)
	}
	if srv.ToolRequests() != 2 || len(srv.Gaps()) != 1 {
		t.Fatalf("tool requests %d, gaps %v", srv.ToolRequests(), srv.Gaps())
	}
}

// TestResponsesPlaysScript: the Responses API gets function calls, a
// freeform call as custom_tool_call, and the final message after the last.
func TestResponsesPlaysScript(t *testing.T) {
	srv := newStandin(t)
	url := srv.URL() + "/v1/responses"
	tools := `"tools":[{"type":"function","name":"bash"}]`
	first := post(t, url, `{"stream":true,`+tools+`,"input":[{"type":"message","role":"user"}]}`)
	if !strings.Contains(first, "event: response.completed") || !strings.Contains(first, `"type":"function_call"`) {
		t.Fatalf("first answer:\n%s", first)
	}
	second := post(t, url, `{"stream":true,`+tools+`,"input":[{"type":"function_call","call_id":"call_e2e_000"},{"type":"function_call_output","call_id":"call_e2e_000","output":"blocked: force-push"}]}`)
	if !strings.Contains(second, `"type":"custom_tool_call"`) || !strings.Contains(second, `"input":"*** Begin Patch`) {
		t.Fatalf("second answer:\n%s", second)
	}
	last := post(t, url, `{"stream":false,`+tools+`,"input":[{"type":"function_call","call_id":"call_e2e_000"},{"type":"custom_tool_call","call_id":"call_e2e_001"},{"type":"custom_tool_call_output","call_id":"call_e2e_001","output":"done"}]}`)
	if !strings.Contains(last, FinalText) {
		t.Fatalf("last answer:\n%s", last)
	}
	res, ok := srv.Results()
	if !ok[0] || res[0].Text != "blocked: force-push" || !ok[1] || res[1].Text != "done" {
		t.Fatalf("results = %q %v", res, ok)
	}
}

// TestGeminiPlaysScript: streamGenerateContent gets a functionCall with the
// call's id, and the functionResponse's output is what is recorded; the
// router's JSON request gets JSON text.
func TestGeminiPlaysScript(t *testing.T) {
	srv := newStandin(t)
	base := srv.URL() + "/v1beta/models/m"
	tools := `"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]`
	first := post(t, base+":streamGenerateContent?alt=sse", `{`+tools+`,"contents":[{"role":"user","parts":[{"text":"go"}]}]}`)
	if !strings.HasPrefix(first, "data: ") || !strings.Contains(first, `"functionCall":{"args":{"command":"ls"},"id":"call_e2e_000","name":"bash"}`) {
		t.Fatalf("first answer:\n%s", first)
	}
	post(t, base+":streamGenerateContent?alt=sse", `{`+tools+`,"contents":[{"role":"model","parts":[{"functionCall":{"id":"call_e2e_000","name":"bash"}}]},`+
		`{"role":"user","parts":[{"functionResponse":{"id":"call_e2e_000","name":"bash","response":{"error":"Tool execution blocked: swarm-guard"}}}]}]}`)
	res, ok := srv.Results()
	if !ok[0] || res[0].Text != "Tool execution blocked: swarm-guard" {
		t.Fatalf("results = %q %v", res, ok)
	}
	if router := post(t, base+":generateContent", `{"generationConfig":{"responseMimeType":"application/json"},"contents":[]}`); !strings.Contains(router, `complexity_score`) {
		t.Fatalf("router answer: %s", router)
	}
}

// TestCheckRefused: a refused outside request fails the run unless the
// host is on the client's list of known telemetry hosts (the refusing and
// counting itself is e2eharness.Standin's, tested there).
func TestCheckRefused(t *testing.T) {
	srv := newStandin(t)
	proxy, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	via := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	resp, err := via.Get("http://telemetry.example:443/collect")
	if err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a request through the stand-in as proxy: %v %v", resp, err)
	}
	resp.Body.Close()
	if msg := checkRefused(client{name: "x"}, srv); !strings.Contains(msg, "telemetry.example:443 x1") {
		t.Fatalf("checkRefused = %q", msg)
	}
	if msg := checkRefused(client{name: "y", telemetry: []string{"telemetry.example:443"}}, srv); msg != "" {
		t.Fatalf("a known host failed the run: %q", msg)
	}
}

func TestInstalledVersion(t *testing.T) {
	for path, want := range map[string]string{
		"/root/.cache/swarm-guard/clients/openai-codex@0.169.0/node_modules/.bin/codex":  "0.169.0",
		"/c/factory-cli-linux-x64@0.225.2/node_modules/@factory/cli-linux-x64/bin/droid": "0.225.2",
		"/c/google-gemini-cli@0.61.0-preview.1/node_modules/.bin/gemini":                 "0.61.0-preview.1",
		"/usr/local/bin/codex": "unknown",
	} {
		if got := installedVersion(path); got != want {
			t.Errorf("installedVersion(%q) = %q, want %q", path, got, want)
		}
	}
}
