package event

import (
	"encoding/json"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
	"github.com/swarm-guard/swarm-guard/hooks/internal/toolcontent"
)

// Event is one hook event in Claude Code's shape. Unknown fields are
// ignored: new ones arrive with almost every Claude Code release.
type Event struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`
	AgentID        string `json:"agent_id"`
	AgentType      string `json:"agent_type"`
	// Client is set by the adapter of another agent client
	// (hooks/clients) for the audit log; Claude Code does not send it.
	Client         string          `json:"client"`
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

// Decode decodes one hook event as json.Unmarshal would into an Event,
// with the same result and the same error. The members Claude Code
// sends are read without reflection (package jsonobj); an input with any
// other shape of value goes through encoding/json.
func Decode(data []byte, in *Event) error {
	var out Event
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
		case jsonobj.Is(key, "client"):
			return jsonobj.SetString(raw, &out.Client)
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
	*in = Event{}
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

// Hook event names the guard answers.
const (
	PreToolUse  = "PreToolUse"
	PostToolUse = "PostToolUse"
	// PostToolUseFailure replaces PostToolUse when the tool failed,
	// e.g. a Bash command that exited non-zero. Such a command may have
	// written files before it failed, so it gets the same scan.
	PostToolUseFailure = "PostToolUseFailure"
)

// IsWriteTool reports whether the tool writes a file the content check
// reads (Write, Edit, MultiEdit, NotebookEdit).
func IsWriteTool(name string) bool {
	switch name {
	case guard.ToolWrite, guard.ToolEdit, guard.ToolMultiEdit, guard.ToolNotebookEdit:
		return true
	}
	return false
}

// EngineInput decodes the tool_input for the engine. A file tool's input
// is decoded once for the engine and the content check (a Write of 10 KB
// costs about 0.1 ms per decoding): the content check's part goes to
// ev.File.
func (ev *Event) EngineInput() (guard.ToolInput, error) {
	if !IsWriteTool(ev.ToolName) || len(ev.ToolInput) == 0 || string(ev.ToolInput) == "null" {
		return DecodeToolInput(ev.ToolInput)
	}
	if ti, body, ok := decodeWrite(ev.ToolInput); ok {
		ev.File = &toolcontent.Decoded{FilePath: ti.FilePath, Body: body}
		return ti, nil
	}
	var both struct {
		guard.ToolInput
		toolcontent.Body
	}
	if err := json.Unmarshal(ev.ToolInput, &both); err != nil {
		return guard.ToolInput{}, err
	}
	ev.File = &toolcontent.Decoded{FilePath: both.FilePath, NotebookPath: both.NotebookPath, Body: both.Body}
	return both.ToolInput, nil
}

// decodeWrite reads a Write call's tool_input ({"file_path": ...,
// "content": ...}) without reflection, as EngineInput's json.Unmarshal
// would; ok is false for any other shape.
func decodeWrite(raw json.RawMessage) (ti guard.ToolInput, body toolcontent.Body, ok bool) {
	ok = jsonobj.Members(raw, func(key string, v []byte) bool {
		switch {
		case jsonobj.Is(key, "file_path"):
			return jsonobj.SetString(v, &ti.FilePath)
		case jsonobj.Is(key, "content"):
			return jsonobj.SetString(v, &body.Content)
		}
		return false
	})
	return ti, body, ok
}
