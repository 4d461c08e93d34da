package rules

import "github.com/swarm-guard/swarm-guard/policy"

// ForeignBranch: each agent owns its home branch and [swarm]
// own_branches; other agents' branches and tags are theirs.
var ForeignBranch = Rule{
	ID:      policy.RuleForeignBranch,
	Reason:  "the branch belongs to another agent (or is a tag), and changing it breaks that agent's work",
	Instead: "push your own work to your own branch and open a pull request, or ask the branch's owner (a human can widen [swarm] own_branches)",
	Deny: []string{
		"git push origin HEAD:agent/other-7f3a",
		"git push origin --delete agent/other-7f3a",
		"git push origin :refs/tags/v1.0",
		"git push origin agent-1:agent-2",
		"git push origin 'refs/heads/agent/*:refs/heads/agent/*'",
		"git update-ref refs/heads/agent-2 HEAD",
	},
	Allow: []string{
		"git push origin HEAD",
		"git push -u origin agent-1",
		"git push origin HEAD:agent/w1-aaaa/spike",
		"git push origin v1.1",
	},
}
