// Package decide is swarm-guard's one decision function. The hook, `swarm-guard
// check` and every other command that decides call Decide, so the same
// event gets the same decision everywhere.
//
//	a := decide.Decide(ev, decide.Facts{Getenv: os.Getenv, Executables: exes})
//
// In: one event in Claude Code's hook shape (package event: hook event,
// tool name, tool_input, tool_response, cwd, session and transcript), and
// the Facts the adapter gathered about the process around it: its
// environment and clock, the swarm-guard executables, an optional policy
// file instead of the worktree's, whether the hook's own effects apply
// (audit log, budget counting, run's liveness mark, the record
// swarm-guard-post reads, the file watcher) and whether to trace.
//
// Out: an Answer: the guard.Decision (Action "" for no decision, deny or
// ask; rule, reason, trigger, Instead, every finding), the Message the
// agent reads, on PostToolUse the tool output the model reads instead
// (UpdatedOutput), the decision a policy lifted (fail_mode open, the
// trust hatch), notes for the operator, where it was decided and, when
// asked, the trace of each step consulted and what the shell layer saw.
//
// What decides, in order, on PreToolUse: the session budget (hook only),
// the engine (package guard: path rules for file tools, the shell
// analysis for commands, MCP server access and arguments, web tools),
// then the secret checks of what the call would write or send (package
// secretscan). On PostToolUse: the secret scan of what the call wrote
// and printed. A panic, a broken policy or the internal deadline is a
// denial unless the policy's fail_mode says "open".
//
// Both ends are client-neutral: an adapter for any client normalizes its
// payload into an event.Event and renders the Answer in its own protocol
// (hooks/claude does so for Claude Code); decoding stdin, encoding stdout
// and the exit code stay at that boundary.
package decide
