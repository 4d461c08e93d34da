package claude

import (
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/postrecord"
)

// postToolUse handles PostToolUse: the tool already ran, so the guard can
// only tell the agent what to repair. Without a scanner it has no say.
func postToolUse(in *Input, rt Runtime) Response {
	if rt.PostToolUse == nil || in.Cwd == "" {
		return Response{Exit: ExitNoDecision}
	}
	s := newSession(in, rt)
	if s.polErr != nil {
		return Response{Exit: ExitNoDecision}
	}
	return rt.PostToolUse(in, s.ctx, s.pol)
}

// notePostFree leaves the record swarm-guard-post answers PostToolUse with
// (package postrecord) when PreToolUse allowed a Bash command the engine
// proved writes nothing in the walk that decided it (Decision.WritesNothing): the full PostToolUse would scan only its output,
// which swarm-guard-post checks the same way (keywords.Clean). Only in the
// state directory both find without git and that the guard protects; a
// failure to write leaves the full PostToolUse to run.
func (s *session) notePostFree(command string) {
	in := s.in
	if s.ctx.Repo == nil || s.ctx.StateDir == "" || in.SessionID == "" || postrecord.Path(s.ctx.StateDir, in.ToolUseID) == "" {
		return
	}
	root := s.ctx.Env.Root
	if _, err := os.Lstat(filepath.Join(root, ".gitleaks.toml")); err == nil {
		return // custom rules: the full PostToolUse sends every output to the scanner
	}
	cwd := in.Cwd
	if !filepath.IsAbs(cwd) {
		cwd = s.rt.Getenv("CLAUDE_PROJECT_DIR")
	}
	if dir, ok := postrecord.StateDir(cwd, s.rt.Getenv); !ok || dir != s.ctx.StateDir {
		return
	}
	_ = postrecord.Write(s.ctx.StateDir, postrecord.Record{
		SessionID: in.SessionID, ToolUseID: in.ToolUseID, Tool: in.ToolName, Command: command, Root: root,
	}, s.rt.Now())
}
