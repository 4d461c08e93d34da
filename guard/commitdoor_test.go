package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestCommitOnProtectedHere: git commit in the agent's own worktree while
// it is on main is judged as the pre-commit hook judges the commit
// (hooks/githook/branch.go, the same effect and rule): denied with the
// switch-to-a-new-branch Instead, and let through with [git]
// commit_on_protected = "allow", as the hook lets it through.
func TestCommitOnProtectedHere(t *testing.T) {
	onMain := testEnv()
	onMain.Branch = "main"
	want := "work on a branch of your own: git switch -c <new-branch> (your changes come along), then git commit again"
	d := New(corpusPolicy()).CheckCommand("git commit -am wip", onMain)
	if d.Rule != policy.RuleProtectedBranch || d.Reason != "git commit adds commits to main, a protected branch checked out there" || d.Alternative != want {
		t.Errorf("git commit on main: %s %q (%s)", d.Rule, d.Reason, d.Alternative)
	}
	// In another worktree on main the advice is the rule's own: the
	// agent's work belongs in its own worktree.
	d = New(corpusPolicy()).CheckCommand("git -C /work/main commit -am wip", testEnv())
	if d.Rule != policy.RuleProtectedBranch || d.Alternative == want {
		t.Errorf("git -C /work/main commit: %s %q (%s)", d.Rule, d.Reason, d.Alternative)
	}
	allow := corpusPolicy()
	allow.Git.CommitOnProtected = policy.Allow
	if d := New(allow).CheckCommand("git commit -am wip", onMain); d.Action != "" {
		t.Errorf("commit_on_protected allow: %s %s %q", d.Action, d.Rule, d.Reason)
	}
	// Following the Instead: on the new branch the commit is allowed.
	onMain.Branch = "feature"
	if d := New(corpusPolicy()).CheckCommand("git commit -am wip", onMain); d.Action != "" {
		t.Errorf("git commit on feature: %s %s %q", d.Action, d.Rule, d.Reason)
	}
}
