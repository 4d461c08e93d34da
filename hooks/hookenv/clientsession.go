package hookenv

import "bytes"

// sessionMarks are the variables each agent client exports to the
// commands its agent runs, by which a git hook run by the agent's git
// knows a session (read from the clients' shipped code, 2026-11-27):
// Claude Code CLAUDECODE=1; Gemini CLI GEMINI_CLI=1 (its shell service);
// Qwen Code QWEN_CODE=1; opencode OPENCODE=1 (set in its own process,
// inherited by every child); Copilot CLI COPILOT_CLI=1; Codex CLI's npm
// launcher CODEX_MANAGED_BY_NPM=1 (inherited by the codex process and its
// commands) and CODEX_THREAD_ID; swarm-guard run SWARM_GUARD_RUN. Droid
// exports no mark of its own to its commands: run it under swarm-guard
// run, or name the agent with SWARM_GUARD_AGENT_ID.
var sessionMarks = []struct {
	name, value string // value "" means any non-empty value
	client      string
}{
	{"CLAUDECODE", "1", "claude"},
	{"SWARM_GUARD_RUN", "", "run"},
	{"GEMINI_CLI", "1", "gemini"},
	{"QWEN_CODE", "1", "qwen"},
	{"OPENCODE", "1", "opencode"},
	{"COPILOT_CLI", "1", "copilot"},
	{"CODEX_THREAD_ID", "", "codex"},
	{"CODEX_MANAGED_BY_NPM", "1", "codex"},
}

// SessionClient names the agent client whose session the process runs
// in, by the variables it exports (sessionMarks); "run" under swarm-guard
// run; "" for none.
func SessionClient(getenv func(string) string) string {
	for _, m := range sessionMarks {
		v := getenv(m.name)
		if v != "" && (m.value == "" || v == m.value) {
			return m.client
		}
	}
	return ""
}

// markedEnviron reports whether a NUL-separated environment holds a
// session mark.
func markedEnviron(env []byte) bool {
	for _, kv := range bytes.Split(env, []byte{0}) {
		name, v, ok := bytes.Cut(kv, []byte{'='})
		if !ok || len(v) == 0 {
			continue
		}
		for _, m := range sessionMarks {
			if string(name) == m.name && (m.value == "" || string(v) == m.value) {
				return true
			}
		}
	}
	return false
}
