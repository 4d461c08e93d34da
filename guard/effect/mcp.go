package effect

import "github.com/swarm-guard/swarm-guard/guard/mcp"

// MCPCall is one call of an MCP server's tool as the server's access
// sees it: what the call needs and what the policy's [mcp] section gives
// its server, both resolved by the MCP door (guard/mcpcheck.go). What its
// arguments do besides (SQL, paths, branches, shell commands, merges) are
// effects of their own.
type MCPCall struct {
	// By names the call as a reason says it: "MCP server github, tool
	// push_files", "MCP server github of plugin acme, tool push_files".
	By string
	// Server is the server's name as the policy keys it
	// ([mcp.servers.<Server>]); Tool the tool's.
	Server, Tool string
	// Needs is the access the call needs: its tool's class, raised by
	// what its arguments do (SQL that writes, a shell command).
	Needs mcp.Access
	// Granted is the access the policy gives the server ([mcp.servers.X]
	// access, else [mcp] default, else the built-in default); below
	// mcp.Read for access "deny".
	Granted mcp.Access
	// Listed is the server's per-tool list that names the tool first:
	// "deny", "ask", "allow", or "".
	Listed string
	// Own: the tool works on the agent's own pull requests, issues and
	// comments, which needs no write access.
	Own bool
	// Guessed: the tool is unknown and Needs is guessed from its name.
	Guessed bool
	// Oversight: a merge or an approval, which the oversight rule decides
	// (a ForgeAction of the same call) whatever the server's access.
	Oversight bool
}

func (MCPCall) isEffect() {}
