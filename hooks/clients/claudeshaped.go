package clients

import (
	"encoding/json"
	"strings"
)

// Qwen Code 0.24 and Factory Droid 0.225 (agent-clients.md §6) send
// Claude-shaped events and honour Claude's JSON answers, but name their
// tools their own way: Qwen's shell is run_shell_command (write_file,
// edit/replace, read_file like Gemini's), Droid's is Execute (Create,
// Edit with old_str/new_str, Read, ApplyPatch). Handed to the pipeline
// unchanged, every command they run would be a tool it does not know, and
// allowed.
//
// A denial is {"hookSpecificOutput":{"hookEventName":"PreToolUse",
// "permissionDecision":"deny","permissionDecisionReason":...}} with exit 0,
// the form both were seen to honour; after a tool, {"decision":"block",
// "reason":...} tells the agent what was withheld or must be repaired.
type claudeShaped struct{ name Name }

type claudeEvent struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	ToolName       string          `json:"tool_name"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	// Copilot CLI running Claude-format hooks sends the result as
	// tool_result: {"result_type","text_result_for_llm"}.
	ToolResult json.RawMessage `json:"tool_result"`
}

func (c claudeShaped) normalize(data []byte, _ bool) (*event, error) {
	var in claudeEvent
	if err := json.Unmarshal(data, &in); err != nil {
		return &event{}, jsonErr(string(c.name), err)
	}
	ev := &event{post: in.HookEventName == "PostToolUse" || in.HookEventName == "PostToolUseFailure"}
	if in.HookEventName != "PreToolUse" && !ev.post {
		return ev, nil
	}
	t := &toolCall{tool: in.ToolName, args: in.ToolInput, post: ev.post, base: call{
		SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd, PermissionMode: in.PermissionMode, ToolUseID: in.ToolUseID, Client: c.name,
	}}
	switch in.ToolName {
	case "Bash", "run_shell_command", "Execute", "bash":
		t.kind = kindShell
	case "Write", "write_file", "Create":
		t.kind = kindWrite
	case "Edit", "edit", "replace":
		t.kind = kindEdit
	case "Read", "read_file":
		t.kind = kindRead
	case "ApplyPatch", "apply_patch":
		t.kind = kindPatch
	default:
		if strings.HasPrefix(in.ToolName, "mcp__") {
			t.kind, t.mcp = kindMCP, in.ToolName
		}
	}
	response := in.ToolResponse
	if len(response) == 0 {
		response = in.ToolResult
	}
	return t.event(ev, response)
}

func (c claudeShaped) render(ev *event, v verdict) Answer {
	if ev.post {
		if !c.warnsBefore() && !v.block && !v.deny && v.warn != "" {
			// warn mode, carried from PreToolUse, whose
			// additionalContext neither hands the model.
			return Answer{Stdout: string(contextJSON("PostToolUse", v.warn)) + "\n", Stderr: v.notes}
		}
		if !v.block && !v.deny {
			return Answer{Stderr: v.notes}
		}
		if !c.readsPostDecision() {
			return c.renderPost(ev, v)
		}
		out, _ := json.Marshal(struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}{"block", shownAfter(ev, v)})
		return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
	}
	decision, reason := "deny", v.reason
	switch {
	case v.ask && c.name != Claude:
		reason = askReason(v.reason)
	case v.ask:
		decision = "ask"
	case !v.deny && v.warn != "" && c.warnsBefore():
		return Answer{Stdout: string(contextJSON("PreToolUse", v.warn)) + "\n", Stderr: v.notes}
	case !v.deny:
		return Answer{Stderr: v.notes}
	}
	var o struct {
		HSO struct {
			HookEventName string `json:"hookEventName"`
			Decision      string `json:"permissionDecision"`
			Reason        string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	o.HSO.HookEventName, o.HSO.Decision, o.HSO.Reason = "PreToolUse", decision, reason
	out, _ := json.Marshal(o)
	return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
}

// renderPost answers Qwen Code's and Droid's PostToolUse. Neither lets a
// hook replace a tool's result, and neither reads Claude's
// {"decision":"block"} after a tool (Qwen 0.24.4's PostToolUseHookOutput
// and Droid 0.225.2's tool executor act only on continue, stopReason,
// additionalContext and systemMessage). So:
//
//   - output withheld: {"continue":false,"stopReason":TEXT}, TEXT being the
//     output with the withheld lines replaced and the guard's notice. Qwen
//     answers the model with TEXT as the call's error instead of the
//     result and goes on; Droid stops the agent before the result reaches
//     the model, and shows TEXT to the human. Either way the credential
//     never reaches the model (e2e bash-prints-secret).
//   - something to repair, nothing withheld: the reason as
//     hookSpecificOutput.additionalContext, which both hand the model
//     beside the result.
func (c claudeShaped) renderPost(ev *event, v verdict) Answer {
	var out []byte
	if v.replaced != nil {
		out, _ = json.Marshal(struct {
			Continue   bool   `json:"continue"`
			StopReason string `json:"stopReason"`
		}{false, shownAfter(ev, v)})
	} else {
		out = contextJSON("PostToolUse", v.reason)
	}
	return Answer{Stdout: string(out) + "\n", Stderr: v.notes}
}

// contextJSON is Claude's additionalContext answer, which Qwen Code and
// Droid hand the model beside the call.
func contextJSON(hookEvent, text string) []byte {
	var o struct {
		HSO struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	o.HSO.HookEventName, o.HSO.AdditionalContext = hookEvent, text
	out, _ := json.Marshal(o)
	return out
}

// warnsBefore: Claude Code (and Copilot CLI running its hooks) hand the
// model PreToolUse's additionalContext; Qwen Code 0.24.4 and Droid 0.225.2
// read it there and drop it (their tool schedulers use it only after a
// tool), so their warnings are carried to PostToolUse.
func (c claudeShaped) warnsBefore() bool { return c.name != Qwen && c.name != Droid }

// readsPostDecision: Claude Code reads {"decision":"block"} after a tool;
// Qwen Code and Droid do not (see renderPost).
func (c claudeShaped) readsPostDecision() bool { return c.name != Qwen && c.name != Droid }
