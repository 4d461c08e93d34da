package main

import (
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/hooks/sessionbudget"
)

// The hook points of the Claude Code adapter (claude.Runtime) that other
// packages fill in: the secret scan of what a file tool would write and
// of what a call wrote, and the per-session budget.
var (
	contentCheck = secretscan.ContentHook
	postToolUse  = secretscan.PostToolUseHook
	budgetCheck  = sessionbudget.HookCheck
)
