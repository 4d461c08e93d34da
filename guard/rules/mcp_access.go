package rules

import "github.com/swarm-guard/swarm-guard/policy"

// MCPAccess: an MCP server gets the access [mcp] gives it (by default
// reads, and writes only to the agent's own pull requests and issues).
var MCPAccess = Rule{
	ID:      policy.RuleMCPAccess,
	Reason:  "the MCP call goes beyond the access the policy gives its server",
	Instead: "use the server's read tools, or ask a human to grant it in the policy ([mcp.servers.<name>] access, or allow = [\"<tool>\"])",
	Deny: []string{
		`mcp__github__push_files {"owner":"o","repo":"r","branch":"agent-1","files":[{"path":"a.go","content":"x"}],"message":"m"}`,
		`mcp__github__delete_branch {"owner":"o","repo":"r","branch":"agent-1-old"}`,
	},
	Allow: []string{
		`mcp__github__create_pull_request {"owner":"o","repo":"r","title":"t","head":"agent-1","base":"main"}`,
		`mcp__github__get_file_contents {"owner":"o","repo":"r","path":"a.go","ref":"agent-2"}`,
	},
}
