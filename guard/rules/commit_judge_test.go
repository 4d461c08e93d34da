package rules

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// TestJudgeCommitOnProtected: a commit on a protected branch is the
// protected-branch rule's, from the Bash guard (git commit) and from the
// pre-commit hook alike. Where the branch is checked out in the agent's
// own worktree (Home) the Instead is to take the work to a new branch
// and commit again; [git] commit_on_protected = "allow" lets commits
// through, and a branch that is not protected never needed it.
func TestJudgeCommitOnProtected(t *testing.T) {
	allow := func(p *policy.Policy) { p.Git.CommitOnProtected = policy.Allow }
	for _, c := range []struct {
		name    string
		e       effect.BranchChange
		mut     func(*policy.Policy)
		reason  string
		instead string
	}{
		{"commit on main here", effect.BranchChange{Op: effect.CommitCurrent, Current: []string{"main"}, Args: "commit", Home: true}, nil,
			"git commit adds commits to main, a protected branch checked out there",
			"work on a branch of your own: git switch -c <new-branch> (your changes come along), then git commit again"},
		{"merge on main here", effect.BranchChange{Op: effect.CommitCurrent, Current: []string{"main"}, Args: "merge", Home: true}, nil,
			"git merge adds commits to main, a protected branch checked out there", "then git merge again"},
		{"commit on main in another worktree", effect.BranchChange{Op: effect.CommitCurrent, Current: []string{"main"}, Args: "commit"}, nil,
			"git commit adds commits to main, a protected branch checked out there", ProtectedBranch.Instead},
		{"commit_on_protected allow", effect.BranchChange{Op: effect.CommitCurrent, Current: []string{"main"}, Args: "commit", Home: true}, allow, "", ""},
		{"own branch", effect.BranchChange{Op: effect.CommitCurrent, Current: []string{"agent-1"}, Args: "commit", Home: true}, nil, "", ""},
	} {
		var got []Verdict
		for _, v := range JudgeEffect(c.e, gitFacts(c.mut)) {
			if v.Rule == policy.RuleProtectedBranch {
				got = append(got, v)
			}
		}
		switch {
		case c.reason == "" && len(got) != 0:
			t.Errorf("%s: got %+v, want none", c.name, got)
		case c.reason != "" && (len(got) != 1 || got[0].Reason != c.reason || !strings.HasSuffix(got[0].Instead, c.instead)):
			t.Errorf("%s: got %+v, want %q / …%q", c.name, got, c.reason, c.instead)
		}
	}
}
