// Package identity names the agent behind a commit: the value of the
// Agent-Id trailer that prepare-commit-msg writes and that commit-msg,
// pre-push and CI check.
//
// Resolution order (Resolve): SWARM_GUARD_AGENT_ID, then AGENT_ID (the
// common container convention), then, when the policy says
// [identity] source = "branch", the worktree's branch (its "birth
// branch"), else a per-machine id "<short-hostname>-<4 hex>" persisted in
// $XDG_CONFIG_HOME/swarm-guard/agent-id (default
// ~/.config/swarm-guard/agent-id).
//
// The persisted id is created atomically: concurrent first calls on one
// machine agree on one id. A file that exists but does not hold a
// well-formed id is an error naming the file, never silently replaced,
// because a new id would split one agent's history in two.
//
// Only agents' commits get an id: a commit made outside any agent session
// (see hooks/hookenv.AgentCommit) gets the human marker ([trailers]
// human_key, "Committed-By: human") instead.
//
// Ids are hygiene, not authentication: anyone can set the environment
// variable. Valid is the one definition of a well-formed id, shared by the
// git hooks and swarm-guard verify.
package identity
