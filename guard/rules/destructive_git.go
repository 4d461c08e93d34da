package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveGit (G3): git commands that throw away uncommitted or
// unmerged work, which no push or reflog brings back.
var DestructiveGit = Rule{
	ID:      policy.RuleDestructiveGit,
	Reason:  "the command destroys uncommitted or unmerged work",
	Instead: "keep the changes: look with git diff, set them aside with git stash, or ask a human before discarding",
	Deny: []string{
		"git reset --hard",
		"git clean -fdx",
		"git checkout -- .",
		"git restore .",
		"git stash drop",
		"git branch -D x",
	},
	Allow: []string{
		"git reset --soft HEAD~1",
		"git clean -n",
		"git stash",
		"git restore --staged x",
	},
}
