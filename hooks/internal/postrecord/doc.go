// Package postrecord is the note PreToolUse leaves for PostToolUse when it
// allowed a Bash command the engine proves writes nothing (ls, git status,
// go test): the small swarm-guard-post executable finds it, checks that it
// was left for this very call and that the command's output holds nothing
// the secret scan could find, and answers PostToolUse without starting the
// full swarm-guard binary. Everything else goes to `swarm-guard hook`.
//
// A record lives in the repository's state directory (<git common
// dir>/swarm-guard/post/<tool_use_id>), which the guard forbids the agent
// to write (rule guard-tamper), and names the session, the tool call and
// the exact command text. A record that is missing, stale, for another
// session, call or command, in a directory others may write, or not
// written by this user, is no record: the full hook runs.
//
// The package uses the standard library only (and hooks/internal/jsonobj, which
// does too), without encoding/json or fmt:
// swarm-guard-post links it, and its start-up is the cost of every
// PostToolUse after a write-free command.
package postrecord
