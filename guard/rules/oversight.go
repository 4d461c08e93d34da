package rules

import "github.com/swarm-guard/swarm-guard/policy"

// Oversight: merging, approving and repository settings are a human's
// under the default [swarm] oversight (pr-gated).
var Oversight = Rule{
	ID:      policy.RuleOversight,
	Reason:  "merging, approving and repository settings are reserved for humans",
	Instead: "open or update the pull request and leave merging, approving and repository settings to a human (a task may run with --oversight autonomous to allow gh pr merge --auto)",
	Deny: []string{
		"gh pr merge 12 --squash",
		"gh pr review 12 --approve",
		`mcp__github__merge_pull_request {"owner":"o","repo":"r","pullNumber":12,"merge_method":"squash"}`,
	},
	Allow: []string{
		"gh pr create --fill",
		"gh pr view 12",
		`mcp__github__get_pull_request {"owner":"o","repo":"r","pullNumber":12}`,
	},
}
