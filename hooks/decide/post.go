package decide

import (
	"os"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/internal/postrecord"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/policy"
)

// postToolUse answers PostToolUse: the tool already ran, so the guard can
// only tell the agent what to repair (the secret scan of what the call
// wrote and printed). Without a cwd, or under a broken policy, it has no
// say.
func postToolUse(in *event.Event, f Facts) Answer {
	if in.Cwd == "" {
		return Answer{}
	}
	s := newSession(in, f)
	if s.polErr != nil {
		return Answer{}
	}
	p := secretscan.PostToolUse(secretscan.PostRequest{
		In: in, Ctx: s.ctx, Policy: s.pol, Runner: secretsRunner(f.Deadline), Now: f.Now(), Getenv: os.Getenv,
		Duration:     time.Duration(in.DurationMS) * time.Millisecond,
		StartWatcher: startWatcher(s.ctx, f),
		Record:       f.Effects,
	})
	a := Answer{UpdatedOutput: p.Updated, Root: s.ctx.Env.Root, Cwd: s.ctx.Env.Cwd, Policy: s.pol.Source}
	if p.Note != "" {
		a.Notes = append(a.Notes, p.Note)
	}
	if p.Block {
		a.Decision = guard.Decision{Action: policy.Deny, Rule: p.Rule, Reason: p.Reason}
		a.Message = p.Reason
	}
	return a
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
		cwd = s.f.Getenv("CLAUDE_PROJECT_DIR")
	}
	if dir, ok := postrecord.StateDir(cwd, s.f.Getenv); !ok || dir != s.ctx.StateDir {
		return
	}
	_ = postrecord.Write(s.ctx.StateDir, postrecord.Record{
		SessionID: in.SessionID, ToolUseID: in.ToolUseID, Tool: in.ToolName, Command: command, Root: root,
	}, s.f.Now())
}
