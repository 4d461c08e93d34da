package guard

import (
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// One git invocation after its global options (gitCtx), the repository it
// works on (the agent's own, or one git init made in the same call), and
// the long options git accepts abbreviated. git.go walks the subcommands.

// gitLongOptions lists the long options of the git subcommands the guard
// inspects. Git accepts any unambiguous prefix of a long option
// (git reset --ha is --hard), so the guard expands prefixes the same way
// before looking at the options.
var gitLongOptions = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{
		"push": {"all", "branches", "mirror", "tags", "follow-tags", "no-follow-tags", "atomic", "no-atomic", "dry-run",
			"porcelain", "delete", "prune", "verify", "no-verify", "force", "no-force", "force-with-lease", "no-force-with-lease",
			"force-if-includes", "no-force-if-includes", "repo", "set-upstream", "thin", "no-thin", "quiet", "verbose",
			"progress", "no-progress", "receive-pack", "exec", "push-option", "recurse-submodules", "no-recurse-submodules",
			"signed", "no-signed", "ipv4", "ipv6"},
		"commit": {"all", "patch", "reuse-message", "reedit-message", "fixup", "squash", "reset-author", "short", "branch",
			"porcelain", "long", "null", "file", "author", "date", "message", "template", "signoff", "no-signoff", "trailer",
			"no-verify", "verify", "allow-empty", "allow-empty-message", "cleanup", "edit", "no-edit", "amend", "no-post-rewrite",
			"include", "only", "pathspec-from-file", "pathspec-file-nul", "untracked-files", "verbose", "quiet", "dry-run",
			"status", "no-status", "gpg-sign", "no-gpg-sign", "interactive"},
		"merge": {"commit", "no-commit", "edit", "no-edit", "cleanup", "ff", "no-ff", "ff-only", "gpg-sign", "no-gpg-sign",
			"log", "no-log", "signoff", "no-signoff", "stat", "no-stat", "squash", "no-squash", "verify", "no-verify", "strategy",
			"strategy-option", "verify-signatures", "no-verify-signatures", "summary", "no-summary", "quiet", "verbose",
			"progress", "no-progress", "autostash", "no-autostash", "allow-unrelated-histories", "rerere-autoupdate",
			"no-rerere-autoupdate", "abort", "quit", "continue", "file", "into-name", "message"},
		"pull": {"commit", "no-commit", "edit", "no-edit", "ff", "no-ff", "ff-only", "verify", "no-verify", "rebase", "no-rebase",
			"autostash", "no-autostash", "all", "append", "force", "prune", "depth", "deepen", "unshallow", "quiet", "verbose",
			"squash", "no-squash", "strategy", "strategy-option", "tags", "no-tags", "upload-pack", "recurse-submodules"},
		"reset": {"hard", "soft", "mixed", "keep", "merge", "quiet", "no-quiet", "refresh", "no-refresh", "pathspec-from-file",
			"pathspec-file-nul", "recurse-submodules", "no-recurse-submodules", "intent-to-add", "patch"},
		"clean": {"force", "dry-run", "interactive", "quiet", "exclude"},
		"checkout": {"quiet", "progress", "no-progress", "force", "ours", "theirs", "track", "no-track", "guess", "no-guess",
			"detach", "orphan", "ignore-skip-worktree-bits", "merge", "conflict", "patch", "ignore-other-worktrees",
			"overwrite-ignore", "no-overwrite-ignore", "recurse-submodules", "no-recurse-submodules", "overlay", "no-overlay",
			"pathspec-from-file", "pathspec-file-nul"},
		"switch": {"create", "force-create", "guess", "no-guess", "force", "discard-changes", "merge", "conflict", "quiet",
			"progress", "no-progress", "track", "no-track", "orphan", "ignore-other-worktrees", "recurse-submodules",
			"no-recurse-submodules", "detach"},
		"restore": {"source", "staged", "worktree", "ours", "theirs", "merge", "conflict", "patch", "quiet", "progress",
			"no-progress", "ignore-unmerged", "ignore-skip-worktree-bits", "recurse-submodules", "no-recurse-submodules",
			"overlay", "no-overlay", "pathspec-from-file", "pathspec-file-nul"},
		"branch": {"delete", "create-reflog", "force", "move", "copy", "color", "no-color", "list", "show-current", "verbose",
			"quiet", "abbrev", "no-abbrev", "column", "no-column", "sort", "merged", "no-merged", "contains", "no-contains",
			"points-at", "format", "remotes", "all", "track", "no-track", "set-upstream-to", "unset-upstream",
			"edit-description", "ignore-case", "omit-empty", "recurse-submodules"},
		"rebase": {"onto", "keep-base", "no-keep-base", "apply", "merge", "exec", "interactive", "rebase-merges",
			"no-rebase-merges", "root", "autosquash", "no-autosquash", "autostash", "no-autostash", "continue", "skip", "abort",
			"quit", "edit-todo", "show-current-patch", "strategy", "strategy-option", "verify", "no-verify", "gpg-sign",
			"no-gpg-sign", "quiet", "verbose", "stat", "no-stat", "signoff", "update-refs", "no-update-refs", "empty",
			"fork-point", "no-fork-point", "force-rebase", "no-ff", "ignore-whitespace", "whitespace", "committer-date-is-author-date",
			"ignore-date", "reschedule-failed-exec", "no-reschedule-failed-exec", "reapply-cherry-picks", "no-reapply-cherry-picks"},
		"fetch": {"all", "append", "atomic", "depth", "deepen", "shallow-since", "shallow-exclude", "unshallow", "update-shallow",
			"negotiation-tip", "negotiate-only", "dry-run", "porcelain", "write-fetch-head", "no-write-fetch-head", "force",
			"keep", "multiple", "auto-maintenance", "no-auto-maintenance", "auto-gc", "no-auto-gc", "write-commit-graph",
			"no-write-commit-graph", "prefetch", "prune", "prune-tags", "no-tags", "refetch", "refmap", "tags",
			"recurse-submodules", "jobs", "no-recurse-submodules", "set-upstream", "submodule-prefix", "update-head-ok",
			"upload-pack", "quiet", "verbose", "progress", "server-option", "show-forced-updates", "no-show-forced-updates",
			"ipv4", "ipv6", "filter"},
		"am":          {"no-verify", "verify", "signoff", "keep", "3way", "quiet", "abort", "continue", "skip", "quit"},
		"cherry-pick": {"edit", "no-edit", "mainline", "no-commit", "signoff", "strategy", "strategy-option", "continue", "skip", "quit", "abort", "ff", "allow-empty", "keep-redundant-commits"},
		"revert":      {"edit", "no-edit", "mainline", "no-commit", "signoff", "strategy", "strategy-option", "continue", "skip", "quit", "abort"},
	}
	return m
})

// expandGitAbbrevs rewrites unambiguous prefixes of long options into the
// full option, as git's option parser does. Ambiguous or unknown prefixes
// are left alone: git rejects them.
func expandGitAbbrevs(sub string, args []shell.Word) []shell.Word {
	known := gitLongOptions()[sub]
	if known == nil {
		return args
	}
	out := make([]shell.Word, len(args))
	copy(out, args)
	for i, x := range out {
		if x.Text == "--" {
			break // what follows are paths and refs
		}
		if x.Dynamic || !strings.HasPrefix(x.Text, "--") {
			continue
		}
		name, val, hasVal := strings.Cut(x.Text[2:], "=")
		if name == "" || contains(known, name) {
			continue
		}
		if match := uniquePrefix(known, name); match != "" {
			x.Text = "--" + match
			if hasVal {
				x.Text += "=" + val
			}
			out[i] = x
		}
	}
	return out
}

// uniquePrefix returns the one entry of known that starts with prefix.
func uniquePrefix(known []string, prefix string) string {
	match := ""
	for _, k := range known {
		if strings.HasPrefix(k, prefix) {
			if match != "" {
				return ""
			}
			match = k
		}
	}
	return match
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// gitCtx is one git invocation after its global options.
type gitCtx struct {
	inv      *shell.Invocation // the git command; inv.State has -C applied
	gitDir   shell.Word        // --git-dir / GIT_DIR, when given
	workTree shell.Word        // --work-tree / GIT_WORK_TREE, when given
	config   map[string]string // -c key=value for this invocation, keys lower case
}

func hasAnyFlag(args []shell.Word, flags ...string) bool {
	for _, x := range args {
		if x.Text == "--" {
			return false
		}
		for _, f := range flags {
			if x.Text == f {
				return true
			}
		}
	}
	return false
}

// explicitRepo reports whether the git command names its repository
// (--git-dir, --work-tree, GIT_DIR, GIT_WORK_TREE) instead of finding it
// from its directory.
func explicitRepo(g *gitCtx) bool {
	return g.gitDir.Text != "" || g.gitDir.Dynamic || g.workTree.Text != "" || g.workTree.Dynamic
}

// inFreshRepo reports whether every directory this git command may run
// in is inside a repository git init created earlier in the same call.
func (a *analyzer) inFreshRepo(g *gitCtx) bool {
	st := g.inv.State
	if len(a.freshRepos) == 0 || st.Remote || st.CwdUnknown || len(st.Cwds) == 0 || explicitRepo(g) {
		return false
	}
	for _, c := range st.Cwds {
		if !a.underFresh(c) {
			return false
		}
	}
	return true
}

func (a *analyzer) underFresh(dir string) bool {
	for _, f := range a.freshRepos {
		if under(dir, f) {
			return true
		}
	}
	return false
}

// inOwnRepo reports whether this git command works on the agent's own
// worktree's repository (the one Env describes).
func (a *analyzer) inOwnRepo(g *gitCtx) bool {
	st := g.inv.State
	if st.Remote || st.CwdUnknown || len(st.Cwds) == 0 || explicitRepo(g) {
		return false
	}
	for _, c := range st.Cwds {
		if !a.inOwnWorktree(c) || a.underFresh(c) {
			return false
		}
	}
	return true
}

func (a *analyzer) inOwnWorktree(p string) bool {
	if !a.underRoot(p) {
		return false
	}
	for _, w := range a.m.worktrees {
		if under(p, w) {
			return false
		}
	}
	return true
}
