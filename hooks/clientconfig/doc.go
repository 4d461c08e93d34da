// Package clientconfig is what swarm-guard commits into the agent clients'
// own configuration to run its hooks, and how to read it back:
//
//   - the launcher: the POSIX sh command that finds the binary by the
//     lookup rule (lookup.go) and blocks when it is missing, so committed
//     files hold no machine-specific path and fail closed;
//   - the Claude Code settings model: swarm-guard's entries in
//     .claude/settings.json merged into, or removed from, the rest of the
//     document with its key order kept (claude.go, object.go), the
//     settings `swarm-guard run` hands to claude, and the plugin's
//     hooks/hooks.json;
//   - the other clients' configs (Codex, Gemini CLI, Copilot CLI,
//     opencode, Qwen Code, Droid): where each lives, what it holds, and
//     whether it runs the current launcher (clients.go).
//
// It turns documents into documents and reads single files; writing them,
// backups and plans are install's, and hooks/agentrun uses the same model
// to start an agent with the guard's hooks. It sits below both, so the
// command layer's packages never import upward.
package clientconfig
