// Package doctor is `swarm-guard doctor`'s checks: that every piece
// swarm-guard needs in a worktree is installed and works there. The
// policy parses, the agent id is well formed, the Claude Code hooks are
// in .claude/settings.json with the current launcher and find a binary by
// the lookup rule, this Claude Code fails closed, every other agent client
// present runs the guard's hooks and none of its traps is set, git runs
// swarm-guard's git hooks, the secret scanner runs with the repository's
// gitleaks configuration, and the MCP servers are listed with the access
// the policy gives each.
//
// Each check answers with Results (ok, FAIL with a remedy that works as
// printed, warn with a hint, skip); the command prints them and owns the
// exit code (cmd/swarm-guard). It reads files and runs the secret scanner
// and `claude --version`; it changes nothing.
package doctor
