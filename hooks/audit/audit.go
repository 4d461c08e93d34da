package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
)

// FileName is the audit log's name inside the state directory.
const FileName = "audit.jsonl"

// Dir returns the swarm-guard state directory of a repository: a
// directory in its git common dir, so all worktrees share it. Without a
// repository it is $XDG_STATE_HOME/swarm-guard (~/.local/state/swarm-guard).
func Dir(commonDir string, getenv func(string) string) string {
	if commonDir != "" {
		return filepath.Join(commonDir, "swarm-guard")
	}
	if s := getenv("XDG_STATE_HOME"); s != "" {
		return filepath.Join(s, "swarm-guard")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "swarm-guard")
	}
	return filepath.Join(os.TempDir(), "swarm-guard")
}

// Record is one decision of the Claude Code hook.
type Record struct {
	Time      string `json:"time"`
	Event     string `json:"event"`
	SessionID string `json:"session_id,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	// SubagentID is Claude Code's agent_id: set for calls made inside a subagent.
	SubagentID string `json:"subagent_id,omitempty"`
	// Client is the agent client whose hook made the call (codex,
	// gemini, ...); empty for Claude Code.
	Client  string `json:"client,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
	Command string `json:"command,omitempty"`
	Path    string `json:"path,omitempty"`
	Action  string `json:"action"` // allow (no decision), deny, ask, warn, log, trusted, block
	// Would is what a warn or log decision stands in for: deny or ask.
	Would  string `json:"would,omitempty"`
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
	Policy string `json:"policy,omitempty"`
	Micros int64  `json:"us,omitempty"` // time the decision took
}

// Append writes v as one JSON line to the log file at path, creating the
// directory and file as needed. The write happens under an exclusive lock.
func Append(path string, v any) error {
	var line []byte
	if rec, ok := v.(Record); ok {
		line = rec.AppendJSON(make([]byte, 0, 512))
	} else {
		var err error
		if line, err = json.Marshal(v); err != nil {
			return fmt.Errorf("encode audit record: %w", err)
		}
	}
	line = append(line, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create audit directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open audit log: %w", err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock audit log: %w", err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	return nil
}

// AppendJSON appends the record as encoding/json would marshal it: the
// same fields in the same order, the same escapes. A hook process writes
// one record, and encoding/json's first use of a type (reflection, the
// field cache) costs more than the rest of the write.
func (r Record) AppendJSON(b []byte) []byte {
	b = append(b, `{"time":`...)
	b = jsonobj.AppendString(b, r.Time)
	b = append(b, `,"event":`...)
	b = jsonobj.AppendString(b, r.Event)
	b = appendField(b, "session_id", r.SessionID)
	b = appendField(b, "agent_id", r.AgentID)
	b = appendField(b, "subagent_id", r.SubagentID)
	b = appendField(b, "client", r.Client)
	b = appendField(b, "tool", r.Tool)
	b = appendField(b, "cwd", r.Cwd)
	b = appendField(b, "command", r.Command)
	b = appendField(b, "path", r.Path)
	b = append(b, `,"action":`...)
	b = jsonobj.AppendString(b, r.Action)
	b = appendField(b, "would", r.Would)
	b = appendField(b, "rule", r.Rule)
	b = appendField(b, "reason", r.Reason)
	b = appendField(b, "policy", r.Policy)
	if r.Micros != 0 {
		b = append(b, `,"us":`...)
		b = strconv.AppendInt(b, r.Micros, 10)
	}
	return append(b, '}')
}

// appendField appends an omitempty string field.
func appendField(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return jsonobj.AppendString(b, v)
}
