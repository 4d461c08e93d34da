// Package sessionbudget enforces the policy's per-session budgets inside
// the PreToolUse hook, so they hold for Claude Code sessions that were not
// started by `swarm-guard run`: [budget] max_tool_calls counts the
// session's tool calls, [budget] max_tokens the tokens in its transcript
// and its subagents' transcripts. HookCheck is the hook's entry
// (claude.Runtime.BudgetCheck); Check does the counting.
//
// A session's state is one small file under the state directory,
// sessions/<session id>.json, updated under a lock (hooks/internal/state). It holds
// the tool-call count and, for every transcript file, the byte offset read
// so far and the running token totals, so each hook call reads only what
// was appended since the previous one: a 100 MB transcript is read once,
// not on every tool call. One call reads at most MaxReadPerCall bytes, so
// that it always answers within the hook's deadline; a session first
// checked with gigabytes of transcript behind it is caught up over a few
// calls.
package sessionbudget
