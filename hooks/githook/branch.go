package githook

import (
	"fmt"

	"github.com/swarm-guard/swarm-guard/policy"
)

// preCommitBranchCheck refuses a commit on a protected branch when the
// policy says git.commit_on_protected = "deny". A detached HEAD (a rebase
// in progress, a bisect) is no branch and passes. PreCommit runs it
// first.
func preCommitBranchCheck(c Env) error {
	hc, err := newGitHookContext(c, "pre-commit")
	if err != nil {
		return err
	}
	if hc.repo == nil || hc.pol.Git.CommitOnProtected != policy.Deny {
		return nil
	}
	if b := hc.repo.Branch; b != "" && hc.pol.IsProtectedBranch(b) {
		return refuse(c, "pre-commit", fmt.Sprintf("branch %s is protected (policy git.commit_on_protected): commit on a branch of your own instead: git switch -c <new-branch>, then commit again", b))
	}
	return nil
}
