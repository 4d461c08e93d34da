// Package agentrun is `swarm-guard run`: it runs an agent (usually
// claude -p) under turn, time, idle, attempt and token budgets, retrying
// failed attempts, and records every attempt in the audit log.
//
// For claude it also makes sure the guard holds: it refuses the ways
// claude offers to skip the project's hooks and passes the guard's hooks
// itself (guarded.go), gives the agent only its task's MCP servers
// (mcp.go), reads the stream-json to count turns and tokens and shows a
// summary (output.go), and shares the task's and the swarm session's
// spend with the other clones through the git remote (shared.go).
// hooks/agent supervises the process itself. cmd/swarm-guard parses the
// flags (with the policy's defaults) and turns the Outcome into the exit
// code.
package agentrun
