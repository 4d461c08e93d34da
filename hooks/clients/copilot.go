package clients

import (
	"encoding/json"
	"strings"
)

// Copilot CLI 1.0.102 (agent-clients.md §4). Its own hooks
// (.github/hooks/*.json) send camelCase events without an event name:
// {"sessionId","timestamp","cwd","toolName","toolArgs"} before a tool,
// with "toolResult" after it. toolArgs is an object in 1.0.102 and a
// JSON string in earlier releases; both are read. Tools: bash (command),
// create (path, file_text), edit (path, old_str, new_str), view (path).
//
// A denial is {"permissionDecision":"deny","permissionDecisionReason":...}
// with exit 0: the model reads "Denied by preToolUse hook: <reason>"
// (exit 2 denies too but the reason is dropped). After a tool,
// {"modifiedResult":{"resultType":"success","textResultForLlm":TEXT}}
// makes TEXT what the model reads.
//
// Copilot also runs the Claude-format hooks of .claude/settings.json, and
// that is how install guards it (one swarm-guard per call; a file of its
// own would start a second). Such an event (hook_event_name set, a
// timestamp, no transcript_path) carries Claude's tool names (Bash, Write)
// with Copilot's arguments, and after a tool the result as tool_result
// {"result_type","text_result_for_llm"}. It is read and answered as
// Claude's, and Copilot 1.0.102 honours the answers: a denial's reason
// reaches the model ("Denied by preToolUse hook: <reason>"), and after a
// tool {"decision":"block","reason":TEXT} makes TEXT what the model reads
// (make e2e-clients, bash-prints-secret).
type copilot struct{}

type copilotEvent struct {
	SessionID string          `json:"sessionId"`
	Cwd       string          `json:"cwd"`
	ToolName  string          `json:"toolName"`
	ToolArgs  json.RawMessage `json:"toolArgs"`
	Result    json.RawMessage `json:"toolResult"`
	// A Claude-format event (the PascalCase PreToolUse of
	// .claude/settings.json, or of a hook file using Claude's names).
	HookEventName string `json:"hook_event_name"`
}

func (copilot) normalize(data []byte, post bool) (*event, error) {
	var in copilotEvent
	if err := json.Unmarshal(data, &in); err != nil {
		return &event{}, jsonErr("Copilot CLI", err)
	}
	if in.HookEventName != "" {
		ev, err := claudeShaped{name: Copilot}.normalize(data, post)
		if ev != nil {
			ev.claudeFormat = true
		}
		return ev, err
	}
	ev := &event{post: post || len(in.Result) > 0}
	if in.ToolName == "" {
		return ev, errorf("the Copilot CLI event has no toolName; check the hook in .github/hooks/swarm-guard.json")
	}
	t := &toolCall{tool: in.ToolName, args: in.ToolArgs, post: ev.post, base: call{SessionID: in.SessionID, Cwd: in.Cwd, Client: Copilot}}
	switch in.ToolName {
	case "bash", "shell":
		t.kind = kindShell
	case "create", "write":
		t.kind = kindWrite
	case "edit", "str_replace":
		t.kind = kindEdit
	case "view", "read":
		t.kind = kindRead
	case "apply_patch":
		t.kind = kindPatch
	default:
		if strings.HasPrefix(in.ToolName, "mcp__") {
			t.kind, t.mcp = kindMCP, in.ToolName
		}
	}
	return t.event(ev, in.Result)
}

func (copilot) render(ev *event, v verdict) Answer {
	if ev.claudeFormat {
		return claudeShaped{name: Copilot}.render(ev, v)
	}
	if ev.post {
		if !v.block && !v.deny {
			return Answer{Stderr: v.notes}
		}
		var o struct {
			ModifiedResult struct {
				ResultType string `json:"resultType"`
				Text       string `json:"textResultForLlm"`
			} `json:"modifiedResult"`
		}
		o.ModifiedResult.ResultType, o.ModifiedResult.Text = "success", shownAfter(ev, v)
		out, _ := json.Marshal(o)
		return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
	}
	reason := v.reason
	switch {
	case v.ask:
		reason = askReason(v.reason)
	case !v.deny && v.warn != "":
		// The call runs; the model reads the note beside it.
		out, _ := json.Marshal(struct {
			Context string `json:"additionalContext"`
		}{v.warn})
		return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
	case !v.deny:
		return Answer{Stderr: v.notes}
	}
	out, _ := json.Marshal(struct {
		Decision string `json:"permissionDecision"`
		Reason   string `json:"permissionDecisionReason"`
	}{"deny", reason})
	return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
}

func (copilot) warnsBefore() bool { return true }

// CopilotClaudeFormat reports whether data is Copilot CLI running the
// Claude Code hooks of .claude/settings.json (Detect's Copilot event in
// Claude's format), and the cwd it names. Where the project still has the
// hook file of Copilot's own an earlier install wrote, Copilot runs both
// for the same call, and the caller lets that one alone judge it (one
// audit record).
func CopilotClaudeFormat(data []byte) (cwd string, ok bool) {
	var in copilotEvent
	if Detect(data) != Copilot || json.Unmarshal(data, &in) != nil || in.HookEventName == "" {
		return "", false
	}
	return in.Cwd, true
}
