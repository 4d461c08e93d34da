package clients

import (
	"encoding/json"
	"strings"
)

// Codex CLI 0.169 (agent-clients.md §2). Its hook events are Claude's
// PreToolUse and PostToolUse, with turn_id; the shell tool is "Bash",
// edits arrive as "apply_patch" with the patch in tool_input.command, MCP
// tools as mcp__server__tool.
//
// Codex validates a hook's JSON against a schema with
// additionalProperties false and RUNS the command when the answer has a
// field it does not know, and exit 2 with an empty stderr runs it too. So
// a denial is exit 2 with the reason on stderr, never empty, the form
// that held in every run; the model reads "Command blocked by PreToolUse
// hook: <reason>". After a tool, {"decision":"block","reason":TEXT} makes
// TEXT exactly what the model reads in place of the result, so TEXT is the
// result (with withheld lines replaced) and the guard's notice.
type codex struct{}

type codexEvent struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath *string         `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	ToolName       string          `json:"tool_name"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
}

func (codex) normalize(data []byte, _ bool) (*event, error) {
	var in codexEvent
	if err := json.Unmarshal(data, &in); err != nil {
		return &event{}, jsonErr("Codex", err)
	}
	ev := &event{post: in.HookEventName == "PostToolUse"}
	if in.HookEventName != "PreToolUse" && !ev.post {
		return ev, nil // events the guard has no say in
	}
	t := &toolCall{tool: in.ToolName, args: in.ToolInput, post: ev.post, base: call{
		SessionID: in.SessionID, Cwd: in.Cwd, PermissionMode: in.PermissionMode, ToolUseID: in.ToolUseID, Client: Codex,
	}}
	if in.TranscriptPath != nil {
		t.base.TranscriptPath = *in.TranscriptPath
	}
	switch in.ToolName {
	case "Bash", "shell", "exec_command", "local_shell", "container.exec", "unified_exec":
		t.kind = kindShell
	case "apply_patch":
		t.kind = kindPatch
	case "Write":
		t.kind = kindWrite
	case "Edit":
		t.kind = kindEdit
	case "Read":
		t.kind = kindRead
	default:
		if strings.HasPrefix(in.ToolName, "mcp__") {
			t.kind, t.mcp = kindMCP, in.ToolName
		}
	}
	return t.event(ev, in.ToolResponse)
}

func (codex) render(ev *event, v verdict) Answer {
	switch {
	case ev.post && (v.block || v.deny):
		out, _ := json.Marshal(struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}{"block", shownAfter(ev, v)})
		return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
	case v.deny:
		return Answer{Exit: 2, Stderr: v.notes + v.reason + "\n"}
	case v.ask:
		return Answer{Exit: 2, Stderr: v.notes + askReason(v.reason) + "\n"}
	case v.warn != "":
		// Exactly the members of Codex's schema (an unknown one would
		// make the answer invalid): the model reads the note beside the
		// call, which runs.
		hookEvent := "PreToolUse"
		if ev.post {
			hookEvent = "PostToolUse"
		}
		return Answer{Stdout: string(contextJSON(hookEvent, v.warn)) + "\n", Stderr: v.notes}
	}
	return Answer{Stderr: v.notes}
}

func (codex) warnsBefore() bool { return true }
