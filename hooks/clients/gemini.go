package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Gemini CLI 0.61 (agent-clients.md §3). Its events are BeforeTool and
// AfterTool; tools are run_shell_command (command, dir_path), write_file
// (file_path, content), replace (file_path, old_string, new_string),
// read_file, and MCP tools mcp_<server>_<tool> (older releases:
// <server>__<tool>).
//
// Gemini ignores Claude's hookSpecificOutput.permissionDecision (the
// force push went through) and allows on exit 1. A denial is
// {"decision":"deny","reason":...} on stdout with exit 0, which the model
// reads as {"error":"Tool execution blocked: <reason>"}. After a tool, the
// same answer replaces the result the model reads.
type gemini struct{}

type geminiEvent struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
}

func (gemini) normalize(data []byte, _ bool) (*event, error) {
	var in geminiEvent
	if err := json.Unmarshal(data, &in); err != nil {
		return &event{}, jsonErr("Gemini CLI", err)
	}
	ev := &event{post: in.HookEventName == "AfterTool", gitHooksOff: "Gemini CLI"}
	if in.HookEventName != "BeforeTool" && !ev.post {
		return ev, nil
	}
	t := &toolCall{tool: in.ToolName, args: in.ToolInput, post: ev.post, base: call{
		SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd, Client: Gemini,
	}}
	switch in.ToolName {
	case "run_shell_command":
		t.kind = kindShell
	case "write_file":
		t.kind = kindWrite
	case "replace", "edit":
		t.kind = kindEdit
	case "read_file":
		t.kind = kindRead
	default:
		if name, ok := mcpName(in.ToolName, "mcp_", "_", geminiServers(in.Cwd)); ok {
			t.kind, t.mcp = kindMCP, name
		} else if server, tool, ok := strings.Cut(in.ToolName, "__"); ok && server != "" && tool != "" {
			t.kind, t.mcp = kindMCP, "mcp__"+server+"__"+tool
		}
	}
	return t.event(ev, in.ToolResponse)
}

// geminiServers are the MCP servers the project's .gemini/settings.json
// names: a server name may hold "_", so the longest configured name
// decides where the tool's name begins.
func geminiServers(cwd string) []string {
	if cwd == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(cwd, ".gemini", "settings.json"))
	if err != nil {
		return nil
	}
	var s struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	var out []string
	for k := range s.MCPServers {
		out = append(out, k)
	}
	return out
}

func (gemini) render(ev *event, v verdict) Answer {
	reason := v.reason
	switch {
	case ev.post && (v.block || v.deny):
		reason = shownAfter(ev, v)
	case v.ask:
		reason = askReason(v.reason)
	case ev.post && v.warn != "" && !v.deny:
		// warn mode, carried from BeforeTool (which has no way to hand
		// the model a note): appended to the result.
		return Answer{Stdout: string(contextJSON("AfterTool", v.warn)) + "\n", Stderr: v.notes}
	case !v.deny:
		return Answer{Stderr: v.notes}
	}
	out, _ := json.Marshal(struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}{"deny", reason})
	return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
}

func (gemini) warnsBefore() bool { return false }
