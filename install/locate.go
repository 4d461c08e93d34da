package install

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/gitx"
)

// GitHooks is where git runs a repository's hooks, and how swarm-guard
// may join them.
type GitHooks struct {
	Dir        string // the directory git runs hooks from
	DefaultDir string // <git common dir>/hooks: where hooks are without core.hooksPath
	HooksPath  string // core.hooksPath as configured; "" when unset
	Scope      string // the config scope of core.hooksPath: local, worktree, global, system
	// Husky is the husky directory (".husky") when husky owns
	// core.hooksPath: its generated runners in Dir are rewritten on every
	// npm install, so swarm-guard joins the user scripts .husky/<hook>.
	Husky string
	// Lefthook is lefthook's config when the worktree has one: swarm-guard's
	// hooks are commands in it, so that lefthook's re-syncs keep them.
	Lefthook *LefthookConfig
	// Refusal, when set, is why install must not write hooks, and what
	// to do instead.
	Refusal string
	Notes   []string
}

// LocateGitHooks asks git where the hooks of the repository at root are:
// `git rev-parse --path-format=absolute --git-path hooks` (shared by all
// worktrees) and where core.hooksPath comes from.
func LocateGitHooks(root string) (*GitHooks, error) {
	git := gitx.Runner{Dir: root, Isolate: true}
	out, err := git.Output("rev-parse", "--path-format=absolute", "--git-path", "hooks", "--git-common-dir")
	if err != nil {
		return nil, fmt.Errorf("cannot find the git hooks directory (git 2.31 or later is needed): %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("cannot read git rev-parse's answer %q", out)
	}
	g := &GitHooks{Dir: filepath.Clean(lines[0]), DefaultDir: filepath.Join(filepath.Clean(lines[1]), "hooks")}
	out, err = git.Output("config", "--show-scope", "--get", "core.hooksPath")
	var ge *gitx.Error
	switch {
	case errors.As(err, &ge) && ge.Code == 1:
		g.Lefthook = FindLefthookConfig(root)
		return g, nil // not set
	case err != nil:
		return nil, fmt.Errorf("cannot read core.hooksPath: %w", err)
	}
	g.Scope, g.HooksPath, _ = strings.Cut(strings.TrimRight(string(out), "\n"), "\t")
	switch {
	case filepath.Base(g.Dir) == "_" && filepath.Base(filepath.Dir(g.Dir)) == ".husky":
		g.Husky = filepath.Dir(g.Dir) // husky 9: .husky/_/<hook> runs .husky/<hook>
	case filepath.Base(g.Dir) == ".husky":
		g.Husky = g.Dir // husky 5 to 8: git runs .husky/<hook> itself
	}
	if g.Husky != "" {
		g.Notes = append(g.Notes, fmt.Sprintf("husky manages the git hooks (core.hooksPath=%s): swarm-guard runs first in %s/<hook>; commit those scripts so every clone runs swarm-guard (a clone without swarm-guard then refuses commits, with the way to install it)", g.HooksPath, g.Husky))
		if g.Dir != g.Husky {
			g.Notes = append(g.Notes, fmt.Sprintf("if %s lacks the hook files, git runs no hooks at all: run `npx husky` (npm install does) to create them", g.Dir))
		}
		return g, nil
	}
	switch g.Scope {
	case "local", "worktree":
		g.Lefthook = FindLefthookConfig(root)
		g.Notes = append(g.Notes, fmt.Sprintf("core.hooksPath is set (%s config) to %s: installing there, the hooks already in it keep running after swarm-guard's", g.Scope, g.HooksPath))
		if !filepath.IsAbs(g.HooksPath) {
			g.Notes = append(g.Notes, fmt.Sprintf("core.hooksPath %s is relative, so each worktree has its own: commit the hooks or run swarm-guard install in every worktree", g.HooksPath))
		}
	default:
		g.Refusal = fmt.Sprintf("core.hooksPath is set in your %s git config to %s, so git runs that directory's hooks for every repository; swarm-guard will not write there. "+
			"Either give this repository its own hooks with `git config --local core.hooksPath %s` and run swarm-guard install again (the hooks in %s then stop running here), "+
			"or add `swarm-guard git-hook <hook> \"$@\" || exit $?` at the top of pre-commit, prepare-commit-msg, commit-msg and pre-push in %s yourself",
			g.Scope, g.HooksPath, shellQuote(g.DefaultDir), g.HooksPath, g.HooksPath)
	}
	return g, nil
}
