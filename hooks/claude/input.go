package claude

import (
	"encoding/json"

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
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
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
