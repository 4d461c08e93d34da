package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/claude"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/watch"
	"github.com/swarm-guard/swarm-guard/policy"
)

// These are the hook points of the Claude Code adapter that other features
// fill in from their own files.

// contentCheck scans what a Write/Edit/MultiEdit/NotebookEdit would write
// for secrets, after the path rules passed. The gitleaks engine runs in
// the swarm-guard-secrets process; the Bash path never comes here.
var contentCheck = func(in *claude.Input, ctx *hookenv.Context, pol *policy.Policy) guard.Decision {
	return secretscan.CheckContent(secretscan.ContentRequest{
		Tool: in.ToolName, ToolInput: in.ToolInput, Root: ctx.Env.Root, Policy: pol, Runner: secretsRunner(), Resolve: ctx.Env.Resolve,
	})
}

// postToolUse handles PostToolUse events: the after-the-fact secret scan
// of what a Bash command or a file tool wrote.
var postToolUse = func(in *claude.Input, ctx *hookenv.Context, pol *policy.Policy) claude.Response {
	return secretscan.PostToolUse(secretscan.PostRequest{
		In: in, Ctx: ctx, Policy: pol, Runner: secretsRunner(), Now: time.Now(), Getenv: os.Getenv,
		Duration:     time.Duration(in.DurationMS) * time.Millisecond,
		StartWatcher: startWatcher(ctx),
	})
}

// startWatcher starts the worktree's file watcher (`swarm-guard hook
// --watch ROOT STATEDIR`, hooks/secretscan/watch) in the background;
// SWARM_GUARD_BACKGROUND=0 does without it (and without the scan
// server): no background process, and every opaque Bash call looks at the
// whole worktree.
func startWatcher(ctx *hookenv.Context) func(watch.Paths) error {
	if os.Getenv("SWARM_GUARD_BACKGROUND") == "0" {
		return nil
	}
	return func(p watch.Paths) error {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		return watch.Start(exe, "hook", "--watch", p.Root, ctx.StateDir)
	}
}

// budgetCheck enforces the policy's [budget] limits inside the hook;
// budget_hooks.go sets it.
var budgetCheck func(in *claude.Input, ctx *hookenv.Context, pol *policy.Policy) guard.Decision

// secretsRunner runs the swarm-guard-secrets executable that sits next to
// this one (symbolic links resolved), or the one on PATH.
func secretsRunner() secretscan.Runner {
	self, err := os.Executable()
	if err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
	}
	return secretscan.Runner{Self: self, Server: os.Getenv("SWARM_GUARD_BACKGROUND") != "0"}
}
