package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DeleteOutsideWorktree (G5): an agent's deletes stay in its own worktree
// and the temp dir; everything else is someone else's.
var DeleteOutsideWorktree = Rule{
	ID:      policy.RuleDeleteOutside,
	Reason:  "deleting outside the agent's worktree and the temp dir removes what is not the agent's",
	Instead: "delete only inside the worktree or under the temp dir; ask a human for anything else",
	Deny: []string{
		"rm -rf ~",
		"find / -delete",
		"mv ~/x .",
		"ln -s / r && rm -rf r/*",
	},
	Allow: []string{
		"rm -rf build",
		"rm -rf /tmp/cache",
		"find . -name '*.pyc' -delete",
	},
}
