package rules

import "github.com/swarm-guard/swarm-guard/policy"

// ProtectedBranch (G2): main and master ([git] protected_branches) change
// only through pull requests a human merges.
// Like ForcePush's, Instead leads to a push that needs no force.
var ProtectedBranch = Rule{
	ID:      policy.RuleProtectedBranch,
	Reason:  "protected branches change only through pull requests a human merges",
	Instead: "stay on your own branch and open a pull request; to pick up changes from a protected branch, merge it (no force push needed, also after you pushed): git fetch origin && git merge origin/<branch>",
	Deny: []string{
		"git push origin HEAD:main",
		"git checkout main",
		"git switch master",
		"git branch -f main HEAD",
		"git update-ref refs/heads/main HEAD",
		"git push origin :main",
	},
	Allow: []string{
		"git fetch origin main",
		"git rebase origin/main",
		"git diff main...",
	},
}
