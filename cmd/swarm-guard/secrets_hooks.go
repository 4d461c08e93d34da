package main

import (
	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/claude"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

// These are the hook points of the Claude Code adapter that other features
// fill in from their own files.

// contentCheck scans what a Write/Edit would write for secrets. The secret
// scanner lands with the secrets issue; until then there is no content check.
var contentCheck func(in *claude.Input, ctx *hookenv.Context, pol *policy.Policy) guard.Decision

// postToolUse handles PostToolUse events (the after-the-fact secret scan).
var postToolUse func(in *claude.Input, ctx *hookenv.Context, pol *policy.Policy) claude.Response

// budgetCheck enforces the policy's [budget] limits inside the hook. The
// budgets land with the budgets issue; until then there is no check.
var budgetCheck func(in *claude.Input, ctx *hookenv.Context, pol *policy.Policy) guard.Decision
