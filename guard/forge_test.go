package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// One operation, however it is requested (gh, the REST or GraphQL API
// through gh api or curl, an MCP tool), is one effect: the same rule, the
// same verdict under each oversight mode and the same alternative.
func TestForgeSameOperationSameVerdict(t *testing.T) {
	type call struct{ cmd, tool, input string }
	for _, group := range [][]call{
		{ // merging a pull request
			{cmd: "gh pr merge 3"},
			{cmd: "gh api -X PUT repos/o/r/pulls/3/merge"},
			{cmd: "curl -X PUT https://api.github.com/repos/o/r/pulls/3/merge"},
			{tool: "mcp__github__merge_pull_request", input: `{"owner":"o","repo":"r","pullNumber":3}`},
		},
		{ // closing an issue
			{cmd: "gh issue close 3"},
			{cmd: "gh api -X PATCH repos/o/r/issues/3 -f state=closed"},
			{cmd: `gh api graphql -f query='mutation { closeIssue(input:{issueId:"x"}) { clientMutationId } }'`},
			{tool: "mcp__github__update_issue", input: `{"owner":"o","repo":"r","issue_number":3,"state":"closed"}`},
		},
	} {
		for _, mode := range []string{policy.OversightPRGated, policy.OversightAutonomous, policy.OversightCheckpoint} {
			var first Decision
			for i, c := range group {
				env := testEnv()
				env.Oversight = mode
				var d Decision
				if c.tool != "" {
					d = New(policy.Default()).CheckMCP(c.tool, []byte(c.input), env)
				} else {
					d = New(policy.Default()).CheckCommand(c.cmd, env)
				}
				if d.Rule != policy.RuleOversight || d.Action == "" {
					t.Errorf("%s%s under %s: %q %s (%s)", c.cmd, c.tool, mode, d.Action, d.Rule, d.Reason)
					continue
				}
				if i == 0 {
					first = d
					continue
				}
				// The MCP door words its merge alternative without shell commands.
				if d.Action != first.Action || c.tool == "" && d.Alternative != first.Alternative {
					t.Errorf("%s%s under %s: %s, instead %q; %s: %s, instead %q", c.cmd, c.tool, mode, d.Action, d.Alternative, group[0].cmd, first.Action, first.Alternative)
				}
			}
		}
	}
}
