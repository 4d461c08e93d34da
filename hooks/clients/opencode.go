package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// opencode 1.18 (agent-clients.md §5) has no command hooks: the guard is
// the plugin install writes to .opencode/plugins/swarm-guard.js, which
// runs `swarm-guard hook --client opencode` with this event on stdin:
//
//	{"hook_event_name":"tool.execute.before","session_id":...,"tool_use_id":...,
//	 "cwd":...,"tool":"bash","args":{"command":...}}
//
// and, after the tool, "tool.execute.after" with "output" (the text the
// model will read). Tools: bash (command, workdir), write (filePath,
// content), edit (filePath, oldString, newString), read (filePath),
// patch/apply_patch (patchText); MCP tools are <server>_<tool> for the
// servers of opencode.json's "mcp".
//
// The answer is the plugin's to enforce: exit 0 lets the call run, any
// other exit makes the plugin throw with stderr as the message (so a
// denial is exit 2 and the reason, and a crash blocks); after a tool,
// {"output": TEXT} on stdout replaces what the model reads.
type opencode struct{}

type opencodeEvent struct {
	HookEventName string          `json:"hook_event_name"`
	SessionID     string          `json:"session_id"`
	ToolUseID     string          `json:"tool_use_id"`
	Cwd           string          `json:"cwd"`
	Tool          string          `json:"tool"`
	Args          json.RawMessage `json:"args"`
	Output        json.RawMessage `json:"output"`
	// The session's tokens so far, summed by the plugin from opencode's
	// message.updated events into a small file (clientconfig.OpenCodePlugin).
	TranscriptPath string `json:"transcript_path"`
}

func (opencode) normalize(data []byte, post bool) (*event, error) {
	var in opencodeEvent
	if err := json.Unmarshal(data, &in); err != nil {
		return &event{}, jsonErr("the opencode plugin", err)
	}
	ev := &event{post: in.HookEventName == "tool.execute.after"}
	if in.HookEventName != "tool.execute.before" && !ev.post {
		return ev, errorf("the opencode plugin sent the event %q; reinstall it with swarm-guard install --client opencode", in.HookEventName)
	}
	t := &toolCall{tool: in.Tool, args: in.Args, post: ev.post, base: call{SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, ToolUseID: in.ToolUseID, Cwd: in.Cwd, Client: OpenCode}}
	switch in.Tool {
	case "bash":
		t.kind = kindShell
	case "write":
		t.kind = kindWrite
	case "edit":
		t.kind = kindEdit
	case "read":
		t.kind = kindRead
	case "patch", "apply_patch":
		t.kind = kindPatch
	default:
		if name, ok := mcpName(in.Tool, "", "_", opencodeServers(in.Cwd)); ok {
			t.kind, t.mcp = kindMCP, name
		}
	}
	return t.event(ev, in.Output)
}

// opencodeServers are the MCP servers of the project's opencode.json (or
// opencode.jsonc without comments).
func opencodeServers(cwd string) []string {
	if cwd == "" {
		return nil
	}
	var out []string
	for _, name := range []string{"opencode.json", "opencode.jsonc"} {
		data, err := os.ReadFile(filepath.Join(cwd, name))
		if err != nil {
			continue
		}
		var s struct {
			MCP map[string]json.RawMessage `json:"mcp"`
		}
		if json.Unmarshal(data, &s) != nil {
			continue
		}
		for k := range s.MCP {
			out = append(out, strings.ReplaceAll(k, "-", "_"), k)
		}
	}
	return out
}

func (opencode) render(ev *event, v verdict) Answer {
	switch {
	case ev.post && (v.block || v.deny):
		out, _ := json.Marshal(struct {
			Output string `json:"output"`
		}{shownAfter(ev, v)})
		return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
	case v.deny:
		return Answer{Exit: 2, Stderr: v.reason + "\n"}
	case v.ask:
		return Answer{Exit: 2, Stderr: askReason(v.reason) + "\n"}
	case ev.post && v.warn != "":
		// warn mode, carried from tool.execute.before (a plugin that lets
		// the call run cannot hand the model a note): after the output.
		text := ev.output
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		out, _ := json.Marshal(struct {
			Output string `json:"output"`
		}{text + "[swarm-guard] " + v.warn})
		return Answer{Stdout: string(out) + "\n"}
	}
	return Answer{}
}

func (opencode) warnsBefore() bool { return false }
