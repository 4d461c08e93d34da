package install

import (
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// Where the agent clients live on this machine and in a repository: shared
// by install (which clients to set up, where Codex's trust goes) and
// doctor (which clients to check).

// ClientDir is the project directory whose presence says a repository
// uses client c.
func ClientDir(root string, c clients.Name) string {
	switch c {
	case clients.Copilot:
		return filepath.Join(root, ".github", "hooks")
	case clients.OpenCode:
		return filepath.Join(root, ".opencode")
	}
	return filepath.Dir(clientconfig.ClientConfigPath(root, c))
}

// CodexConfigPath is Codex's user config ($CODEX_HOME/config.toml).
func CodexConfigPath(home string, getenv func(string) string) string {
	if h := getenv("CODEX_HOME"); h != "" {
		return filepath.Join(h, "config.toml")
	}
	return filepath.Join(home, ".codex", "config.toml")
}

// ClientOnPath is where client c's program is on PATH, or "".
func ClientOnPath(c clients.Name, lookPath func(string) (string, error)) string {
	p, err := lookPath(clientconfig.ClientProgram(c))
	if err != nil {
		return ""
	}
	return p
}
