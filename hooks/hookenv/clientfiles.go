package hookenv

import "path/filepath"

// clientGuardFiles are the other agent clients' files that decide whether
// swarm-guard's hooks run (install --client writes the project ones; the
// user ones can switch hooks off or withdraw a client's trust): an agent
// that rewrote one would run unguarded, so they are guard files like
// .claude/settings.json (rule guard-tamper).
func clientGuardFiles(root, home string, getenv func(string) string) []string {
	var out []string
	if root != "" {
		for _, f := range []string{
			".codex/hooks.json", ".codex/config.toml", ".gemini/settings.json", ".github/hooks/swarm-guard.json",
			".opencode/plugins/swarm-guard.js", ".qwen/settings.json", ".factory/hooks.json", ".factory/settings.json",
		} {
			out = append(out, filepath.Join(root, f))
		}
	}
	codexHome := getenv("CODEX_HOME")
	if codexHome == "" && home != "" {
		codexHome = filepath.Join(home, ".codex")
	}
	if codexHome != "" {
		out = append(out, filepath.Join(codexHome, "config.toml"), filepath.Join(codexHome, "hooks.json"))
	}
	geminiHome := home
	if h := getenv("GEMINI_CLI_HOME"); h != "" {
		geminiHome = h
	}
	if geminiHome != "" {
		out = append(out, filepath.Join(geminiHome, ".gemini", "settings.json"))
	}
	if home != "" {
		for _, f := range []string{".qwen/settings.json", ".copilot/config.json", ".factory/settings.json", ".factory/hooks.json", ".config/opencode/opencode.json"} {
			out = append(out, filepath.Join(home, f))
		}
	}
	return out
}
