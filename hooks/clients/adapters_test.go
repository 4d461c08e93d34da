package clients

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// fakePipeline stands in for swarm-guard's decision pipeline so the
// adapters' two halves are tested on their own: it denies a call whose
// event mentions --force or /etc/, asks for one that mentions ASKME, warns
// (warn mode) of one that mentions WARNME, and
// after a tool withholds an output that mentions SECRET and asks for a
// repair when it mentions REPAIR, answering in the Claude hook's exact
// forms.
func fakePipeline(seen *[]call) Pipeline {
	return func(ev []byte) Answer {
		var c call
		if err := json.Unmarshal(ev, &c); err != nil {
			return Answer{Exit: 2, Stderr: "fake pipeline: " + err.Error() + "\n"}
		}
		*seen = append(*seen, c)
		s := string(ev)
		switch {
		case c.Event == "PostToolUse" && strings.Contains(s, "SECRET"):
			return Answer{Stdout: `{"decision":"block","reason":"WITHHELD","hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"[line withheld]","stderr":""}}}` + "\n"}
		case c.Event == "PostToolUse" && strings.Contains(s, "REPAIR"):
			return Answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"FIX IT"}}` + "\n"}
		case c.Event == "PreToolUse" && (strings.Contains(s, "--force") || strings.Contains(s, "/etc/")):
			return Answer{Exit: 2, Stderr: "DENIED " + c.ToolName + "\n"}
		case c.Event == "PreToolUse" && strings.Contains(s, "WARNME"):
			return Answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"WOULD DENY"}}` + "\n"}
		case c.Event == "PreToolUse" && strings.Contains(s, "ASKME"):
			return Answer{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"ASKED"}}` + "\n"}
		}
		return Answer{}
	}
}

var update = flag.Bool("update", false, "rewrite the .want files of testdata/adapters.txtar")

// TestAdapters runs every recorded payload of testdata/adapters.txtar
// (NAME.json: the client's event as it was measured; NAME.want: the
// Claude-shaped calls the pipeline receives, then the exact answer). The
// client is the name's first word; a name with "-post" is the --post hook.
func TestAdapters(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "adapters.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	wants := map[string]string{}
	for _, f := range ar.Files {
		if name, ok := strings.CutSuffix(f.Name, ".want"); ok {
			wants[name] = string(f.Data)
		}
	}
	n := 0
	var updated []txtar.File
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".json") {
			updated = append(updated, f)
		}
	}
	defer func() {
		if *update {
			ar.Files = updated
			if err := os.WriteFile(filepath.Join("testdata", "adapters.txtar"), txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}()
	// One carry for the file: a warning of a before-tool payload reaches
	// the after-tool payload of the same call that follows it.
	carry := memCarry{}
	for i, f := range ar.Files {
		name, ok := strings.CutSuffix(f.Name, ".json")
		if !ok {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			want, ok := wants[name]
			if !ok && !*update {
				t.Fatalf("no %s.want", name)
			}
			client, err := Parse(strings.SplitN(name, "-", 2)[0])
			if err != nil {
				t.Fatal(err)
			}
			var seen []call
			a := Handle(client, strings.Contains(name, "-post"), bytes.TrimSpace(f.Data), fakePipeline(&seen), carry)
			var got strings.Builder
			for _, c := range seen {
				fmt.Fprintf(&got, "call %s %s\n", c.ToolName, c.ToolInput)
				if len(c.ToolResponse) > 0 {
					fmt.Fprintf(&got, "response %s\n", c.ToolResponse)
				}
			}
			fmt.Fprintf(&got, "exit %d\n", a.Exit)
			for _, l := range strings.Split(strings.TrimSuffix(a.Stdout, "\n"), "\n") {
				if l != "" {
					fmt.Fprintf(&got, "stdout %s\n", l)
				}
			}
			for _, l := range strings.Split(strings.TrimSuffix(a.Stderr, "\n"), "\n") {
				if l != "" {
					fmt.Fprintf(&got, "stderr %s\n", l)
				}
			}
			if *update {
				for j := range updated {
					if updated[j].Name == f.Name {
						updated = append(updated[:j+1], append([]txtar.File{{Name: name + ".want", Data: []byte(got.String())}}, updated[j+1:]...)...)
						break
					}
				}
				_ = i
				return
			}
			if got.String() != want {
				t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
			}
			for _, c := range seen {
				if c.Client != client {
					t.Errorf("call for the pipeline names client %q, want %q", c.Client, client)
				}
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d payloads in testdata/adapters.txtar", n)
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    Name
	}{
		{`{"session_id":"s","turn_id":"t","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, Codex},
		{`{"session_id":"s","cwd":"/r","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, Gemini},
		{`{"session_id":"s","cwd":"/r","hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{}}`, Gemini},
		{`{"sessionId":"s","timestamp":1,"cwd":"/r","toolName":"bash","toolArgs":{"command":"ls"}}`, Copilot},
		{`{"sessionId":"s","cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`, Copilot},
		{`{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, Qwen},
		{`{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls"}}`, Droid},
		{`{"hook_event_name":"tool.execute.before","cwd":"/r","tool":"bash","args":{}}`, OpenCode},
		// Copilot CLI 1.0.102 through .claude/settings.json (e2e
		// copilot/shared): Claude's event and tool names, Copilot's create
		// arguments; read as Claude's, the Write had "no file path".
		{`{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-11-27T18:50:33.498Z","cwd":"/r","tool_name":"Write","tool_input":{"file_text":"x\n","path":"/r/notes.md"}}`, Copilot},
		{`{"hook_event_name":"PostToolUse","session_id":"s","timestamp":"2026-11-27T18:50:34.527Z","cwd":"/r","tool_name":"Bash","tool_input":{"command":"ls"},"tool_result":{"result_type":"success","text_result_for_llm":"a"}}`, Copilot},
		// Claude Code's own events, including ones whose arguments
		// name another client's markers: only top-level members count.
		{`{"session_id":"s","transcript_path":"/t","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo turn_id toolName Execute"}}`, Claude},
		{`{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a","content":"{\"hook_event_name\":\"BeforeTool\",\"turn_id\":1}"}}`, Claude},
		{`{"session_id":"s","transcript_path":"/t","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"date +timestamp"}}`, Claude},
		{`not json`, Claude},
	} {
		if got := Detect([]byte(tc.payload)); got != tc.want {
			t.Errorf("Detect(%s) = %s, want %s", tc.payload, got, tc.want)
		}
		if tc.want != Claude && !MayBeOther([]byte(tc.payload)) {
			t.Errorf("MayBeOther(%s) = false for a %s event", tc.payload, tc.want)
		}
	}
}

func TestParseList(t *testing.T) {
	got, err := ParseList("codex, gemini,codex,factory")
	if err != nil || fmt.Sprint(got) != "[codex gemini droid]" {
		t.Errorf("ParseList = %v, %v", got, err)
	}
	if _, err := ParseList("codex,cursor"); err == nil || !strings.Contains(err.Error(), `unknown client "cursor"`) {
		t.Errorf("ParseList(cursor) err = %v", err)
	}
	if _, err := ParseList(" , "); err == nil {
		t.Error("ParseList of nothing: no error")
	}
}

// memCarry is a Carry in memory.
type memCarry map[string]string

func (m memCarry) Put(key, note string) { m[key] = note }

func (m memCarry) Take(key string) string {
	n := m[key]
	delete(m, key)
	return n
}
