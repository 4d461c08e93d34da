package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
)

// Ownership as git commands meet it (rules foreign-branch and
// foreign-worktree): which remote ref a push writes, a git command that
// changes another agent's worktree, checkouts past another worktree's
// lock, and whether a command works on the swarm's repository at all.
// What the agent owns is ownership.go's.

// remoteRefName names the remote ref a push destination writes the way
// git does: dst is what the refspec names (refs/heads/x, refs/tags/v1, or
// a short name); src the source side ("" for a delete).
func (a *analyzer) remoteRefName(g *gitCtx, src, dst string, op swarm.RefOp) string {
	switch {
	case strings.HasPrefix(dst, "refs/"):
		return dst
	case strings.HasPrefix(dst, "heads/"), strings.HasPrefix(dst, "tags/"):
		return "refs/" + dst
	case op == swarm.RefUpdate && strings.HasPrefix(src, "refs/tags/"):
		return "refs/tags/" + dst // git names the destination like the source
	case op == swarm.RefUpdate && a.env.Repo != nil && len(g.inv.State.Cwds) > 0 && src != "HEAD" && src != "@" && !looksLikeCommit(src) &&
		!strings.HasPrefix(src, "refs/") && !strings.ContainsAny(src, "~^@") && !a.newBranches[src] && !a.env.Repo.HasBranch(g.inv.State.Cwds[0], src):
		// "git push origin v1.0" or "v1.0:v1.0": a source that is no local
		// branch is a tag. (A commit id may update an existing remote
		// branch, so it stays a branch push.)
		return "refs/tags/" + dst
	}
	return "refs/heads/" + dst
}

// worktreeChangingGit lists git subcommands that change the worktree,
// index or HEAD they run in.
var worktreeChangingGit = map[string]bool{
	"add": true, "commit": true, "reset": true, "clean": true, "checkout": true, "switch": true, "restore": true,
	"merge": true, "rebase": true, "cherry-pick": true, "revert": true, "am": true, "apply": true, "pull": true,
	"rm": true, "mv": true, "checkout-index": true, "read-tree": true, "update-index": true, "sparse-checkout": true,
	"stash": true, "submodule": true, "bisect": true,
}

// gitInForeignWorktree: a git command that changes a worktree, run in
// another agent's worktree (git -C, cd, --work-tree).
func (a *analyzer) gitInForeignWorktree(g *gitCtx, sub string, args []shell.Word) {
	if !worktreeChangingGit[sub] {
		return
	}
	switch sub {
	case "stash":
		if len(args) > 0 && (args[0].Text == "list" || args[0].Text == "show") {
			return
		}
	case "apply":
		if hasAnyFlag(args, "--check", "--stat", "--numstat", "--summary") && !hasAnyFlag(args, "--apply") {
			return
		}
	case "submodule":
		if len(args) == 0 || args[0].Text == "status" || args[0].Text == "summary" || args[0].Text == "foreach" {
			return // foreach's command is judged on its own
		}
	case "bisect":
		if len(args) > 0 && (args[0].Text == "log" || args[0].Text == "visualize" || args[0].Text == "view") {
			return
		}
	}
	dirs := append([]string(nil), g.inv.State.Cwds...)
	if g.workTree.Static() && g.workTree.Text != "" && len(g.inv.State.Cwds) > 0 {
		dirs = []string{shell.CleanJoin(g.inv.State.Cwds[0], g.workTree.Text)}
	}
	unknown := g.inv.State.CwdUnknown && !(g.workTree.Static() && g.workTree.Text != "") || g.workTree.Dynamic || g.gitDir.Dynamic
	w := effect.WorkIn{Tool: "git " + sub, Dynamic: unknown && !g.inv.State.Remote}
	for _, d := range dirs {
		wd := effect.WorkDir{Path: d}
		if root, ok := a.sameRepoCheckout(a.resolve(d)); ok && !a.underRoot(a.resolve(d)) {
			wd.Checkout = root
		}
		w.Dirs = append(w.Dirs, wd)
	}
	a.judge(g.inv, w)
}

// worktreePrune: git worktree prune drops the records of worktrees whose
// directory is missing right now, other agents' included.
func (a *analyzer) worktreePrune(inv *shell.Invocation, args []shell.Word) {
	if hasAnyFlag(args, "-n", "--dry-run") {
		return
	}
	a.judge(inv, effect.PruneWorktrees{})
}

// ignoreOtherWorktrees: git checkout/switch --ignore-other-worktrees checks
// out a branch another worktree has checked out; the commits made here
// would then move that agent's branch under it.
func (a *analyzer) ignoreOtherWorktrees(g *gitCtx, args []shell.Word) {
	if !hasAnyFlag(args, "--ignore-other-worktrees") {
		return
	}
	for _, x := range args {
		if x.Static() && !strings.HasPrefix(x.Text, "-") {
			a.branchChange(g.inv, effect.BranchChange{Op: effect.CheckoutIgnoreOther, Branch: x.Text})
			return
		}
	}
}

// inSwarmRepo reports whether a git command may run in the swarm's
// repository: the home worktree, another worktree or another clone of it,
// or somewhere the guard cannot tell. A push from an unrelated repository
// (a scratch repository under the temp dir, a test fixture) is not about
// the swarm's branches.
func (a *analyzer) inSwarmRepo(g *gitCtx) bool {
	st := g.inv.State
	if st.Remote || st.CwdUnknown || len(st.Cwds) == 0 || g.gitDir.Text != "" || g.gitDir.Dynamic || a.env.Root == "" {
		return true
	}
	for _, c := range st.Cwds {
		d := a.resolve(c)
		if a.underRoot(d) {
			return true
		}
		for _, w := range a.m.worktrees {
			if under(d, w) {
				return true
			}
		}
		if _, ok := a.sameRepoCheckout(d); ok {
			return true
		}
		if a.env.Repo == nil {
			return true
		}
		if _, ok := a.env.Repo.BranchAt(d); !ok {
			return true // not in any repository the guard can see: git may find one
		}
	}
	return false
}
