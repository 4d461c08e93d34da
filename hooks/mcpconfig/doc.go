// Package mcpconfig reads the MCP servers Claude Code would start for a
// repository — the project's .mcp.json, and the user's ~/.claude.json
// (user scope, and the local scope of this project) — so that swarm-guard
// run can hand an agent only the servers its task needs (--mcp, through
// Claude Code's --mcp-config and --strict-mcp-config) and doctor can list
// them with the access the policy gives each.
package mcpconfig
