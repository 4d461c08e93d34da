package githook

import (
	"context"
	"fmt"

	"github.com/swarm-guard/swarm-guard/hooks/internal/conflict"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/format"
	"github.com/swarm-guard/swarm-guard/policy"
)

// PreCommit is the pre-commit git hook: the branch check first, then
// the staged additions, scanned for secrets and unresolved conflict
// markers. git runs it in the worktree with the environment of the commit,
// so GIT_INDEX_FILE (git commit -a, git commit <paths>) selects the index
// that is about to be committed. Anything that goes wrong blocks the
// commit: an unscanned commit is how a secret gets out.
func PreCommit(c Env) int { return exitCode(preCommit(c)) }

func preCommit(c Env) error {
	if err := preCommitBranchCheck(c); err != nil {
		return err
	}
	hc, err := newGitHookContext(c, "pre-commit")
	if err != nil {
		return err
	}
	if hc.repo == nil {
		return nil // a bare repository has no worktree to commit from
	}
	if err := preCommitCommands(c, hc); err != nil {
		return err
	}
	self, _ := c.Executable()
	findings, err := secretscan.PreCommit(context.Background(), secretscan.PreCommitRequest{
		Dir: hc.repo.Root, Root: hc.repo.Root, Policy: hc.pol, Runner: secretscan.Runner{Self: self},
	})
	if err != nil {
		return refuse(c, "pre-commit", fmt.Sprintf("could not scan the staged changes for secrets, so the commit is blocked: %v", err))
	}
	if len(findings) == 0 {
		return nil
	}
	secrets, markers := 0, 0
	for _, f := range findings {
		if f.Rule == conflict.Rule {
			markers++
		} else {
			secrets++
		}
	}
	what := ""
	switch {
	case secrets > 0 && markers > 0:
		what = fmt.Sprintf("%d secret(s) and %d unresolved conflict marker(s)", secrets, markers)
	case secrets > 0:
		what = fmt.Sprintf("%d secret(s)", secrets)
	default:
		what = fmt.Sprintf("%d unresolved conflict marker(s)", markers)
	}
	if hc.shadowed(policy.RuleSecretContent, "the staged changes add "+what) {
		for _, f := range findings {
			if hc.pol.RuleAction(policy.RuleSecretContent) == policy.Warn {
				fmt.Fprintf(c.Stderr, "  %s: %s: %s\n", format.Location(f), f.Rule, f.Preview)
			}
		}
		return nil
	}
	fmt.Fprintf(c.Stderr, "swarm-guard pre-commit: the staged changes add %s; the commit is blocked:\n", what)
	for _, f := range findings {
		fmt.Fprintf(c.Stderr, "  %s: %s: %s\n", format.Location(f), f.Rule, f.Preview)
	}
	var fixes []string
	if secrets > 0 {
		allow := "a fake credential for a test can carry a gitleaks:allow comment"
		if !hc.pol.Secrets.GitleaksAllow {
			allow = "gitleaks:allow comments are turned off by the policy, so build test credentials at run time"
		}
		fixes = append(fixes, "secrets: delete them from the files and read them from an environment variable or a secret manager instead; rotate any that are real; "+allow+"; then git add the files and commit again")
	}
	if markers > 0 {
		fixes = append(fixes, "conflict markers: finish resolving the merge in those files, then git add them and commit again")
	}
	return refuse(c, "pre-commit", fixes...)
}
