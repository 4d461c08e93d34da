// Package event is the currency of every hook: one tool-call event in
// Claude Code's hook shape (session, transcript, cwd, hook event, tool
// name, tool_input, tool_response), decoded without reflection where
// Claude Code's usual shapes allow. Adapters for other clients normalize
// their payloads into an Event; package decide judges it.
package event
