// Package posthook is swarm-guard-post, the small executable Claude Code's
// PostToolUse registration runs: it answers a PostToolUse after a Bash
// command that PreToolUse proved writes nothing (ls, git status, go test)
// without starting the full swarm-guard binary. It finds the record
// PreToolUse left for this very call (package postrecord), checks the
// command's output the way the full hook does first (keywords.Clean),
// removes the record and exits 0. Every other event, and every case it is
// not sure of, it hands unchanged to `swarm-guard hook` next to its
// executable (symbolic links resolved), which then runs in its place
// (exec): the answer is exactly the full hook's. Without that binary it
// blocks with the install line (exit 2).
//
// It links the standard library and the small keywords and postrecord
// packages only (TestLinksLittle): its start-up is the whole cost of such
// a PostToolUse.
package posthook

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/postrecord"
)

// maxInput bounds what is read from stdin (claude.MaxInputBytes).
const maxInput = 32 << 20

// maxOutputScan is the full hook's bound on a Bash output stream it
// scans; a longer one goes to the full hook.
const maxOutputScan = 1 << 20

// installHint is install.InstallHint, for a missing full binary.
const installHint = "swarm-guard: not found next to swarm-guard-post; install it (make install in the swarm-guard source puts both in ~/go/bin), then run swarm-guard doctor"

// Main is swarm-guard-post: args are its arguments (none, or --plugin as
// the plugin's hooks.json passes it on). It returns the exit code only
// when it answers itself or cannot start the full hook.
func Main(args []string, stdin io.Reader, stderr io.Writer, getenv func(string) string, now time.Time) int {
	data, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
	if err == nil && len(data) <= maxInput && (len(args) == 0 || len(args) == 1 && args[0] == "--plugin") &&
		writeFree(data, getenv, now) {
		return 0
	}
	return handOver(args, data, stderr)
}

// event is what the fast path reads of a PostToolUse event.
type event struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolUseID     string          `json:"tool_use_id"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
}

// writeFree reports whether the event is a PostToolUse of a Bash call
// PreToolUse proved writes nothing (its record is found, for this session,
// call and command text, and taken) and whose output holds nothing the
// secret scan could find: then the full hook would answer nothing either.
func writeFree(data []byte, getenv func(string) string, now time.Time) bool {
	var ev event
	if json.Unmarshal(data, &ev) != nil || ev.HookEventName != "PostToolUse" || ev.ToolName != "Bash" {
		return false
	}
	var ti struct {
		Command *string `json:"command"`
	}
	if json.Unmarshal(ev.ToolInput, &ti) != nil || ti.Command == nil {
		return false
	}
	var out struct {
		Stdout *string `json:"stdout"`
		Stderr *string `json:"stderr"`
	}
	if len(ev.ToolResponse) == 0 || json.Unmarshal(ev.ToolResponse, &out) != nil {
		return false
	}
	cwd := ev.Cwd
	if !filepath.IsAbs(cwd) {
		cwd = getenv("CLAUDE_PROJECT_DIR")
	}
	stateDir, ok := postrecord.StateDir(cwd, getenv)
	if !ok {
		return false
	}
	rec, err := postrecord.Take(stateDir, ev.SessionID, ev.ToolUseID, ev.ToolName, *ti.Command, now)
	if err != nil {
		return false
	}
	if _, err := os.Lstat(filepath.Join(rec.Root, ".gitleaks.toml")); err == nil || !os.IsNotExist(err) {
		return false // custom rules: every output goes to the scanner
	}
	for _, s := range []struct {
		name string
		text *string
	}{{"(stdout)", out.Stdout}, {"(stderr)", out.Stderr}} {
		if s.text == nil || *s.text == "" {
			continue
		}
		if len(*s.text) > maxOutputScan || keywords.MayHoldSecret(*s.text) && !keywords.Clean(s.name, *s.text) {
			return false
		}
	}
	return true
}

// handOver runs `swarm-guard hook ARGS` in this process's place with data
// as its stdin. It returns only when it cannot: then the call is blocked
// with the reason (exit 2), as the launcher does when swarm-guard is
// missing.
func handOver(args []string, data []byte, stderr io.Writer) int {
	full := fullBinary()
	if full == "" {
		io.WriteString(stderr, installHint+"\n")
		return 2
	}
	if err := execWithStdin(full, append([]string{full, "hook"}, args...), data); err != nil {
		io.WriteString(stderr, "swarm-guard-post: could not run "+full+" hook ("+err.Error()+"); run swarm-guard doctor\n")
	}
	return 2
}

// fullBinary is the swarm-guard executable next to this one, symbolic
// links resolved; "" when there is none.
func fullBinary() string {
	self, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	full := filepath.Join(filepath.Dir(self), "swarm-guard")
	if fi, err := os.Stat(full); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return full
}
