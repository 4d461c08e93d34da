// Package clients adapts the hook protocols of agent clients other than
// Claude Code (Codex CLI, Gemini CLI, Copilot CLI, opencode, Qwen Code,
// Factory Droid) to swarm-guard's one decision pipeline, which takes
// Claude Code's hook event.
//
// Every adapter works at the boundary and nowhere else: it normalises the
// client's event into one or more Claude-shaped events (its shell tool
// becomes Bash, its file writes Write and Edit, a Codex apply_patch one
// event per file it adds, updates or deletes, its reads Read, its MCP tools
// mcp__server__tool), hands each to the pipeline, and renders the answer
// in exactly the format the client honours. The formats differ in ways
// that decide whether a denial holds: Codex runs a command whose hook
// answered JSON with a field its schema does not know, Gemini CLI ignores
// Claude's permissionDecision, Copilot CLI drops the reason of an exit-2
// denial. Each client's file records the payloads it was measured with
// (testdata/*.json, from ../shared/reference/agent-clients.md).
//
// Where a client offers no way to say something at the moment it matters,
// the adapter uses the next one it does: Qwen Code and Droid cannot
// replace a tool's result, so a withheld output is a stop
// ({"continue":false}) whose reason Qwen hands the model instead and Droid
// ends the session on; Gemini CLI, Qwen Code, Droid and opencode cannot
// hand the model a note before a call they let run, so warn mode's warning
// is carried (Carry, FileCarry) to the same call's after-tool hook.
//
// Anything the adapter cannot read becomes a denial in the client's own
// terms: a guard that cannot tell what a call does must not let it run.
package clients
