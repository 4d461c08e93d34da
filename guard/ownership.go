package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/rules"
)

// Ownership in a swarm (rules foreign-branch and foreign-worktree): the
// agent owns its home worktree (Env.Root) and its branches (package
// guard/swarm decides which); every other worktree of the repository and
// every other branch belongs to another agent or a human.

// checkedOutElsewhere returns the other worktree that has branch checked
// out, or "".
func (a *analyzer) checkedOutElsewhere(branch string) string {
	if a.env.Repo == nil || branch == "" {
		return ""
	}
	for _, w := range a.env.OtherWorktrees {
		if b, ok := a.env.Repo.BranchAt(w); ok && b == branch {
			return w
		}
	}
	return ""
}

// refCheckedOutElsewhere returns the other worktree that has the branch
// of a full ref checked out, or "".
func (a *analyzer) refCheckedOutElsewhere(ref string) string {
	b, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok || a.pol.IsProtectedBranch(b) {
		return ""
	}
	return a.checkedOutElsewhere(b)
}

// ownPRSelector reports whether a gh/glab pull-request selector names the
// agent's own pull request: none (the current branch's) or one of its
// branches. A number or URL may be anybody's.
func (a *analyzer) ownPRSelector(sel string) bool {
	return sel == "" || a.agent().OwnsBranch(sel)
}

// checkoutFinder is implemented by Repos that can tell a checkout of the
// same repository that is not one of its worktrees (another clone).
type checkoutFinder interface {
	SameRepoCheckout(path string) (root string, ok bool)
}

// looksLikeCommit reports whether a refspec source is an abbreviated or
// full commit id.
func looksLikeCommit(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// branchChange judges a change of a local branch, with the other worktree
// that has it checked out when that matters to foreign-branch.
func (a *analyzer) branchChange(inv *shell.Invocation, c effect.BranchChange) {
	if !c.Dynamic {
		if b, ok := rules.BranchName(c.Branch); ok && !a.pol.IsProtectedBranch(b) {
			c.CheckedOutBy = a.checkedOutElsewhere(b)
		}
	}
	a.judge(inv, c)
}
