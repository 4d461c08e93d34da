package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
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
	Tool       string `json:"tool,omitempty"`
	Cwd        string `json:"cwd,omitempty"`
	Command    string `json:"command,omitempty"`
	Path       string `json:"path,omitempty"`
	Action     string `json:"action"` // allow (no decision), deny, ask, trusted, block
	Rule       string `json:"rule,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Policy     string `json:"policy,omitempty"`
	Micros     int64  `json:"us,omitempty"` // time the decision took
}

// Append writes v as one JSON line to the log file at path, creating the
// directory and file as needed. The write happens under an exclusive lock.
func Append(path string, v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode audit record: %w", err)
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
