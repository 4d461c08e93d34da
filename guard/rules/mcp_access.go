package rules

import (
	"fmt"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/mcp"
	"github.com/swarm-guard/swarm-guard/policy"
)

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
	Judge: judgeMCPAccess,
}

// judgeMCPAccess decides an MCP call (effect.MCPCall) by its server's
// policy: a per-tool list naming the tool decides first (deny, ask, allow);
// else the call may need at most the access the server is granted, except
// writes to the agent's own pull requests, issues and comments, and merges
// and approvals, which oversight decides.
func judgeMCPAccess(e effect.Effect, _ *Facts) []Verdict {
	c, ok := e.(effect.MCPCall)
	if !ok {
		return nil
	}
	switch c.Listed {
	case "deny":
		return []Verdict{{Reason: c.By + " is denied by [mcp.servers." + c.Server + "] deny", Instead: "use a tool the policy allows, or ask a human"}}
	case "ask":
		return []Verdict{{Reason: c.By + " needs a human's approval ([mcp.servers." + c.Server + "] ask)", Instead: "ask a human", Ask: true}}
	case "allow":
		return nil
	}
	if c.Needs <= c.Granted || c.Own && c.Needs == mcp.Write || c.Oversight {
		return nil
	}
	note := ""
	if c.Guessed {
		note = " (judged from the tool's name; unknown verbs count as writes)"
	}
	return []Verdict{{
		Reason:  fmt.Sprintf("%s is a %s call%s, beyond the %s access the policy gives this server", c.By, c.Needs, note, c.Granted.Level()),
		Instead: fmt.Sprintf("use the server's read tools, or ask a human to grant it in the policy ([mcp.servers.%s] access, or allow = [%q])", c.Server, c.Tool),
	}}
}
