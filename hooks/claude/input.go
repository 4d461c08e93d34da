package claude

import (
	"encoding/json"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/jsonobj"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/toolcontent"
)

// Input is one Claude Code hook event. Unknown fields are ignored: new ones
// arrive with almost every Claude Code release.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	AgentID        string          `json:"agent_id"`
	AgentType      string          `json:"agent_type"`
	ToolName       string          `json:"tool_name"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	StopHookActive bool            `json:"stop_hook_active"`
	// DurationMS is how long the tool ran (PostToolUse, Claude Code
	// 2.1.119 and later; 0 when absent).
	DurationMS int64 `json:"duration_ms"`

	// File is a file tool's tool_input as the content check reads it,
	// set when PreToolUse decoded it for the engine; nil otherwise.
	File *toolcontent.Decoded `json:"-"`
}

// DecodeInput decodes one hook event as json.Unmarshal would into an
// Input, with the same result and the same error. The members Claude Code
// sends are read without reflection (package jsonobj); an input with any
// other shape of value goes through encoding/json.
func DecodeInput(data []byte, in *Input) error {
	var out Input
	ok := jsonobj.Members(data, func(key string, raw []byte) bool {
		switch {
		case jsonobj.Is(key, "session_id"):
			return jsonobj.SetString(raw, &out.SessionID)
		case jsonobj.Is(key, "transcript_path"):
			return jsonobj.SetString(raw, &out.TranscriptPath)
		case jsonobj.Is(key, "cwd"):
			return jsonobj.SetString(raw, &out.Cwd)
		case jsonobj.Is(key, "hook_event_name"):
			return jsonobj.SetString(raw, &out.HookEventName)
		case jsonobj.Is(key, "permission_mode"):
			return jsonobj.SetString(raw, &out.PermissionMode)
		case jsonobj.Is(key, "agent_id"):
			return jsonobj.SetString(raw, &out.AgentID)
		case jsonobj.Is(key, "agent_type"):
			return jsonobj.SetString(raw, &out.AgentType)
		case jsonobj.Is(key, "tool_name"):
			return jsonobj.SetString(raw, &out.ToolName)
		case jsonobj.Is(key, "tool_use_id"):
			return jsonobj.SetString(raw, &out.ToolUseID)
		case jsonobj.Is(key, "tool_input"):
			out.ToolInput = jsonobj.Raw(raw)
		case jsonobj.Is(key, "tool_response"):
			out.ToolResponse = jsonobj.Raw(raw)
		case jsonobj.Is(key, "stop_hook_active"):
			return jsonobj.SetBool(raw, &out.StopHookActive)
		case jsonobj.Is(key, "duration_ms"):
			return jsonobj.SetInt64(raw, &out.DurationMS)
		}
		return true
	})
	if ok {
		*in = out
		return nil
	}
	*in = Input{}
	return json.Unmarshal(data, in)
}

// bashInputKeys are the members of a Bash call's tool_input that the
// engine does not read (guard.ToolInput has no field they name).
var bashInputKeys = []string{"description", "timeout", "run_in_background", "dangerouslyDisableSandbox"}

// DecodeToolInput is guard.DecodeToolInput, with the same result and the
// same error: a Bash call's tool_input ({"command": ..., "description":
// ..., "timeout": ...}) is read without reflection, any other through
// guard.DecodeToolInput.
func DecodeToolInput(raw json.RawMessage) (guard.ToolInput, error) {
	var ti guard.ToolInput
	if len(raw) > 0 && !jsonobj.Null(raw) && jsonobj.Members(raw, func(key string, v []byte) bool {
		if jsonobj.Is(key, "command") {
			return jsonobj.SetStringPtr(v, &ti.Command)
		}
		for _, k := range bashInputKeys {
			if jsonobj.Is(key, k) {
				return true
			}
		}
		return false
	}) {
		return ti, nil
	}
	return guard.DecodeToolInput(raw)
}

// Hook event names handled here.
const (
	EventPreToolUse  = "PreToolUse"
	EventPostToolUse = "PostToolUse"
	// EventPostToolUseFailure replaces PostToolUse when the tool failed,
	// e.g. a Bash command that exited non-zero. Such a command may have
	// written files before it failed, so it gets the same scan.
	EventPostToolUseFailure = "PostToolUseFailure"
)

// preToolUseOutput is the JSON answer for "ask".
type preToolUseOutput struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision,omitempty"`
		PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
		AdditionalContext        string `json:"additionalContext,omitempty"`
	} `json:"hookSpecificOutput"`
}

func askJSON(reason string) string {
	var o preToolUseOutput
	o.HookSpecificOutput.HookEventName = EventPreToolUse
	o.HookSpecificOutput.PermissionDecision = "ask"
	o.HookSpecificOutput.PermissionDecisionReason = reason
	b, _ := json.Marshal(o)
	return string(b) + "\n"
}

// contextJSON is a PreToolUse answer that lets the call run and hands the
// model a note beside it (additionalContext, delivered since client
// 2.1.9): how warn mode tells the agent what would have been denied.
func contextJSON(note string) string {
	var o preToolUseOutput
	o.HookSpecificOutput.HookEventName = EventPreToolUse
	o.HookSpecificOutput.AdditionalContext = note
	b, _ := json.Marshal(o)
	return string(b) + "\n"
}
