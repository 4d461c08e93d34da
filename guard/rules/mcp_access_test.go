package rules

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/mcp"
	"github.com/swarm-guard/swarm-guard/policy"
)

// The MCP access judge: the per-tool lists first, then the access the call
// needs against the access its server is granted.
func TestJudgeMCPAccess(t *testing.T) {
	call := func(needs, granted mcp.Access, f func(*effect.MCPCall)) effect.MCPCall {
		c := effect.MCPCall{By: "MCP server github, tool push_files", Server: "github", Tool: "push_files", Needs: needs, Granted: granted}
		if f != nil {
			f(&c)
		}
		return c
	}
	for _, tc := range []struct {
		name string
		e    effect.Effect
		want string // "", "deny" or "ask"
	}{
		{"read on read", call(mcp.Read, mcp.Read, nil), ""},
		{"write on read", call(mcp.Write, mcp.Read, nil), "deny"},
		{"write on write", call(mcp.Write, mcp.Write, nil), ""},
		{"destructive on write", call(mcp.Destructive, mcp.Write, nil), "deny"},
		{"destructive on admin", call(mcp.Destructive, mcp.Destructive, nil), ""},
		{"read on none", call(mcp.Read, -1, nil), "deny"},
		{"own write on read", call(mcp.Write, mcp.Read, func(c *effect.MCPCall) { c.Own = true }), ""},
		{"own destructive on read", call(mcp.Destructive, mcp.Read, func(c *effect.MCPCall) { c.Own = true }), "deny"},
		{"merge on read (oversight's)", call(mcp.Destructive, mcp.Read, func(c *effect.MCPCall) { c.Oversight = true }), ""},
		{"listed deny, read", call(mcp.Read, mcp.Destructive, func(c *effect.MCPCall) { c.Listed = "deny" }), "deny"},
		{"listed ask", call(mcp.Write, mcp.Read, func(c *effect.MCPCall) { c.Listed = "ask" }), "ask"},
		{"listed allow, destructive", call(mcp.Destructive, -1, func(c *effect.MCPCall) { c.Listed = "allow" }), ""},
		{"no effect", nil, ""},
		{"a forge effect", effect.ForgeAction{Op: effect.ForgeState, By: "gh"}, ""},
	} {
		got := ""
		for _, v := range judgeMCPAccess(tc.e, &Facts{}) {
			got = "deny"
			if v.Ask {
				got = "ask"
			}
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
		for _, v := range JudgeEffect(tc.e, &Facts{Policy: policy.Default(), Oversight: policy.OversightPRGated}) {
			if _, isCall := tc.e.(effect.MCPCall); isCall && v.Rule != policy.RuleMCPAccess {
				t.Errorf("%s: verdict of rule %s", tc.name, v.Rule)
			}
		}
	}
	v := judgeMCPAccess(call(mcp.Write, -1, func(c *effect.MCPCall) { c.Guessed = true }), &Facts{})[0]
	for _, want := range []string{"MCP server github, tool push_files is a write call", "unknown verbs count as writes", "beyond the no access", `allow = ["push_files"]`} {
		if !strings.Contains(v.Reason+" "+v.Instead, want) {
			t.Errorf("verdict %+v lacks %q", v, want)
		}
	}
}
