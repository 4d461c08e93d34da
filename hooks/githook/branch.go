package githook

import (
	"fmt"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/policy"
)

// preCommitBranchCheck refuses a commit on a protected branch. The commit
// is the effect the Bash guard sees in `git commit` on that branch
// (effect.CommitCurrent), judged by the protected-branch rule
// (guard/rules/protected_branch.go), so the refusal has the rule's reason
// and Instead, and [git] commit_on_protected = "allow" lets it through in
// both places. A detached HEAD (a rebase in progress, a bisect) is no
// branch and passes. PreCommit runs it first.
func preCommitBranchCheck(c Env) error {
	hc, err := newGitHookContext(c, "pre-commit")
	if err != nil {
		return err
	}
	if hc.repo == nil || hc.repo.Branch == "" {
		return nil
	}
	commit := effect.BranchChange{Op: effect.CommitCurrent, Current: []string{hc.repo.Branch}, Args: "commit", Home: true}
	var problems []string
	for _, v := range rules.JudgeEffect(commit, &rules.Facts{Policy: hc.pol}) {
		if p := fmt.Sprintf("%s (rule %s); instead: %s", v.Reason, v.Rule, v.Instead); v.Rule == policy.RuleProtectedBranch && !hc.shadowed(v.Rule, p) {
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return refuse(c, "pre-commit", problems...)
	}
	return nil
}
