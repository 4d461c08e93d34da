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
// It links the standard library (without encoding/json, fmt or crypto)
// and the small jsonobj, keywords, envcreds and postrecord packages only
// (TestPostBinaryLinksLittle): its start-up is the whole cost of such a
// PostToolUse.
package posthook

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
	"github.com/swarm-guard/swarm-guard/hooks/internal/postrecord"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/envcreds"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
)

// maxInput bounds what is read from stdin (claude.MaxInputBytes).
const maxInput = 32 << 20

// maxOutputScan is the full hook's bound on a Bash output stream it
// scans; a longer one goes to the full hook.
const maxOutputScan = 1 << 20

// installHint is clientconfig.InstallHint, for a missing full binary.
const installHint = "swarm-guard: not found next to swarm-guard-post; install it (make install in the swarm-guard source puts both in ~/go/bin), then run swarm-guard doctor"

// Stdin reads file descriptor 0 with plain system calls: os.Stdin would
// first set up the runtime's poller when the descriptor is non-blocking.
// When a read would block it waits through os.Stdin after all.
type Stdin struct{}

func (Stdin) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(0, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return os.Stdin.Read(p)
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Main is swarm-guard-post: args are its arguments (none, or --plugin as
// the plugin's hooks.json passes it on). It returns the exit code only
// when it answers itself or cannot start the full hook.
func Main(args []string, stdin io.Reader, stderr io.Writer, getenv func(string) string, environ []string, now time.Time) int {
	data, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
	if err == nil && len(data) <= maxInput && (len(args) == 0 || len(args) == 1 && args[0] == "--plugin") &&
		writeFree(data, getenv, environ, now) {
		return 0
	}
	return handOver(args, data, stderr)
}

// event is what the fast path reads of a PostToolUse event.
type event struct {
	SessionID, Cwd, HookEventName, ToolName, ToolUseID string
	ToolInput, ToolResponse                            []byte
}

// decodeEvent reads the members the fast path needs as the full hook
// reads them (claude.DecodeInput: keys matched as encoding/json matches
// them, the last of a repeated key winning), without encoding/json; false
// for any input it cannot read so, which then goes to the full hook.
func decodeEvent(data []byte) (ev event, ok bool) {
	ok = jsonobj.Members(data, func(key string, raw []byte) bool {
		switch {
		case jsonobj.Is(key, "session_id"):
			return jsonobj.SetString(raw, &ev.SessionID)
		case jsonobj.Is(key, "cwd"):
			return jsonobj.SetString(raw, &ev.Cwd)
		case jsonobj.Is(key, "hook_event_name"):
			return jsonobj.SetString(raw, &ev.HookEventName)
		case jsonobj.Is(key, "tool_name"):
			return jsonobj.SetString(raw, &ev.ToolName)
		case jsonobj.Is(key, "tool_use_id"):
			return jsonobj.SetString(raw, &ev.ToolUseID)
		case jsonobj.Is(key, "tool_input"):
			ev.ToolInput = raw
		case jsonobj.Is(key, "tool_response"):
			ev.ToolResponse = raw
		}
		return true
	})
	return ev, ok
}

// writeFree reports whether the event is a PostToolUse of a Bash call
// PreToolUse proved writes nothing (its record is found, for this session,
// call and command text, and taken) and whose output holds nothing the
// secret scan could find, nor the value of a credential variable of
// environ (package envcreds): then the full hook would answer nothing
// either.
func writeFree(data []byte, getenv func(string) string, environ []string, now time.Time) bool {
	ev, ok := decodeEvent(data)
	if !ok || ev.HookEventName != "PostToolUse" || ev.ToolName != "Bash" {
		return false
	}
	var command *string
	if !jsonobj.Members(ev.ToolInput, func(key string, raw []byte) bool {
		if jsonobj.Is(key, "command") {
			return jsonobj.SetStringPtr(raw, &command)
		}
		return true
	}) || command == nil {
		return false
	}
	var stdout, stderr *string
	if !jsonobj.Members(ev.ToolResponse, func(key string, raw []byte) bool {
		switch {
		case jsonobj.Is(key, "stdout"):
			return jsonobj.SetStringPtr(raw, &stdout)
		case jsonobj.Is(key, "stderr"):
			return jsonobj.SetStringPtr(raw, &stderr)
		}
		return true
	}) {
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
	rec, err := postrecord.Take(stateDir, ev.SessionID, ev.ToolUseID, ev.ToolName, *command, now)
	if err != nil {
		return false
	}
	if _, err := os.Lstat(filepath.Join(rec.Root, ".gitleaks.toml")); err == nil || !os.IsNotExist(err) {
		return false // custom rules: every output goes to the scanner
	}
	var creds []envcreds.Credential
	for _, s := range []struct {
		name string
		text *string
	}{{"(stdout)", stdout}, {"(stderr)", stderr}} {
		if s.text == nil || *s.text == "" {
			continue
		}
		if len(*s.text) > maxOutputScan || keywords.MayHoldSecret(*s.text) && !keywords.Clean(s.name, *s.text) {
			return false
		}
		if creds == nil {
			creds = envcreds.From(environ)
		}
		if envcreds.Holds(*s.text, creds) {
			return false // the full hook withholds the line
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
