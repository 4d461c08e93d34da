package event

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/internal/toolcontent"
)

// hookInputs are hook events as Claude Code sends them, and shapes it
// never sends: the fast decodings must answer as encoding/json does.
var hookInputs = []string{
	`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/r","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls -la","description":"List","timeout":5000},"tool_use_id":"toolu_1"}`,
	`{"session_id":"s","cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"echo \"x\" > f\n"},"tool_response":{"stdout":"a\nb","stderr":"","interrupted":false,"isImage":false},"tool_use_id":"t","duration_ms":512}`,
	`{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"package a\n\t\"q\" \u00e9 \ud83d\ude00\n"}}`,
	`{"hook_event_name":"PreToolUse","tool_name":"mcp__github__get_issue","tool_input":{"owner":"o","issue_number":1},"agent_id":"a1","agent_type":"Explore"}`,
	`{"hook_event_name":"Stop","stop_hook_active":true}`, `{"hook_event_name":"Stop","stop_hook_active":null}`,
	`{"CWD":"/upper","Hook_Event_Name":"PreToolUse","tool_input":null,"tool_response":null}`, `{"cwd":null}`, `{"cwd":"/a","cwd":"/b"}`,
	`{"cwd":1}`, `{"duration_ms":1.5}`, `{"duration_ms":"5"}`, `{"stop_hook_active":"yes"}`, `{"tool_input":` + "\n" + `{"command" : "ls"} }`,
	`[]`, `null`, `"x"`, `{"cwd":"/r"} trailing`, `{"cwd":"/r"`, "{\"cwd\":\"/r\xff\"}", `{"c\u0077d":"/esc"}`, `{}`,
}

func TestDecodeInputIsEncodingJSON(t *testing.T) {
	fast := 0
	for _, s := range hookInputs {
		checkDecode(t, []byte(s))
		var in Event
		if json.Valid([]byte(s)) && Decode([]byte(s), &in) == nil {
			fast++
		}
	}
	if fast < 10 {
		t.Fatalf("only %d inputs decoded", fast)
	}
}

func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	var got, want Event
	gotErr := Decode(data, &got)
	wantErr := json.Unmarshal(data, &want)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%q: error %v, want %v", data, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
	}
}

// toolInputs are tool_input values of Bash and other tools.
var toolInputs = []string{
	`{"command":"ls"}`, `{"command":"git push --force origin main","description":"Push","timeout":60000,"run_in_background":false}`,
	`{"command":"rm -rf \"$HOME\"\n","dangerouslyDisableSandbox":true}`, `{"command":null}`, `{"Command":"ls"}`, `{"command":1}`,
	`{"command":"a","command":"b"}`, `{"file_path":"/r/a"}`, `{"command":"ls","path":"/x"}`, `{"url":"https://x"}`, `{}`, `null`, ``,
	`[]`, `{"command":"ls"`, `{"ws":{"url":"wss://x"}}`, `{"command":"\ud83d x \u00e9"}`, `{"description":"no command"}`,
}

func TestDecodeToolInputIsGuards(t *testing.T) {
	// The members skipped for speed must not be ones the engine reads.
	for _, n := range jsonNames(reflect.TypeOf(guard.ToolInput{})) {
		for _, k := range bashInputKeys {
			if strings.EqualFold(n, k) {
				t.Fatalf("guard.ToolInput reads %q, which DecodeToolInput skips", n)
			}
		}
	}
	for _, s := range toolInputs {
		checkToolInput(t, []byte(s))
	}
	if ti, err := DecodeToolInput(json.RawMessage(`{"command":"ls","timeout":5}`)); err != nil || ti.Command == nil || *ti.Command != "ls" {
		t.Fatalf("Bash input: %+v %v", ti, err)
	}
}

func checkToolInput(t *testing.T, raw []byte) {
	t.Helper()
	got, gotErr := DecodeToolInput(raw)
	want, wantErr := guard.DecodeToolInput(raw)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%q: error %v, want %v", raw, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", raw, got, want)
	}
}

// checkWrite compares decodeWrite, where it answers, with the decoding
// it stands in for.
func checkWrite(t *testing.T, raw []byte) {
	t.Helper()
	ti, body, ok := decodeWrite(raw)
	if !ok {
		return
	}
	var both struct {
		guard.ToolInput
		toolcontent.Body
	}
	if err := json.Unmarshal(raw, &both); err != nil {
		t.Fatalf("%q: decodeWrite ok, json.Unmarshal: %v", raw, err)
	}
	if !reflect.DeepEqual(ti, both.ToolInput) || !reflect.DeepEqual(body, both.Body) {
		t.Fatalf("%q:\n got %+v %+v\nwant %+v %+v", raw, ti, body, both.ToolInput, both.Body)
	}
}

func TestDecodeWriteIsEncodingJSON(t *testing.T) {
	for _, s := range append([]string{`{"file_path":"/r/a.go","content":"x\n\"y\"\t\u00e9"}`, `{"FILE_PATH":"/a","content":null}`,
		`{"file_path":1}`, `{"content":"c","extra":true}`}, toolInputs...) {
		checkWrite(t, []byte(s))
	}
	if _, body, ok := decodeWrite([]byte(`{"file_path":"/r/a.go","content":"x\ny"}`)); !ok || body.Content != "x\ny" {
		t.Fatal("a plain Write input took the slow path")
	}
}

func FuzzFastDecodings(f *testing.F) {
	for _, s := range hookInputs {
		f.Add([]byte(s))
	}
	for _, s := range toolInputs {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
		checkToolInput(t, data)
		checkWrite(t, data)
	})
}
