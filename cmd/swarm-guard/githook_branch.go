package main

import (
	"fmt"

	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	// The pre-commit hook is the secret scan's (githook_precommit.go), which
	// calls preCommitBranchCheck first. Until that file registers it, the
	// branch check is the whole hook, so that installed hooks never fail
	// with "unknown git hook". Map assignment order between the two init
	// functions does not matter: theirs overwrites, or finds this absent.
	if _, ok := gitHooks["pre-commit"]; !ok {
		gitHooks["pre-commit"] = func(c *cli, args []string) error { return preCommitBranchCheck(c) }
	}
}

// preCommitBranchCheck refuses a commit on a protected branch when the
// policy says git.commit_on_protected = "deny". A detached HEAD (a rebase
// in progress, a bisect) is no branch and passes.
func preCommitBranchCheck(c *cli) error {
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
