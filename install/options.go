package install

import "github.com/swarm-guard/swarm-guard/hooks/clients"

// Options say where and what to install or uninstall.
type Options struct {
	Root           string    // the worktree root
	Binary         string    // absolute path of the swarm-guard executable
	OnFailureBlock bool      // add "onFailure": "block" (Claude Code ≥ 2.1.295)
	StateDir       string    // where backups of replaced files and the install record go
	Git            *GitHooks // where git runs hooks; nil outside a git repository
	// TrailersSince is the commit checked out at install, when the
	// repository already has history: the policy install creates records
	// it as [trailers] since, so earlier commits need no trailer.
	TrailersSince string
	// Clients are the agent clients other than Claude Code whose hooks
	// install writes too (install --client).
	Clients []clients.Name
	// Home and Getenv locate the clients' user configs (Codex's project
	// trust in ~/.codex/config.toml); Home "" leaves them alone.
	Home   string
	Getenv func(string) string
}
