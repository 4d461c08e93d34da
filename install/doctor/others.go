package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/mcpconfig"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/policy"
)

func (d *doctor) checkSecretScanner() []Result {
	const name = "secret scanner"
	exe, err := client.Find(d.Binary, nil)
	if err != nil {
		return []Result{fail(name, "secret scanner not installed: "+err.Error(), "run `make install` in the swarm-guard source tree: it installs swarm-guard-secrets next to swarm-guard")}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := wire.Request{Root: d.Root, GitleaksAllow: d.Policy.Secrets.GitleaksAllow}
	if _, err := client.Run(ctx, exe, req, nil); err != nil {
		return []Result{fail(name, err.Error(), "fix the gitleaks configuration (.gitleaks.toml) named above, or reinstall both executables with `make install`")}
	}
	cfg := "the default gitleaks rules"
	if _, err := os.Stat(filepath.Join(d.Root, ".gitleaks.toml")); err == nil {
		cfg = ".gitleaks.toml parses"
	}
	return []Result{ok(name, exe+" with "+cfg)}
}

// checkMCPServers lists the MCP servers Claude Code would start here, with
// the access the policy gives each (rule mcp-access).
func (d *doctor) checkMCPServers() []Result {
	root := d.Root
	servers, err := mcpconfig.Load(root, d.Getenv("HOME"))
	if err != nil {
		return []Result{fail("mcp servers", err.Error(), "fix the JSON of that file (claude mcp list reads the same files)")}
	}
	if len(servers) == 0 {
		return []Result{ok("mcp servers", "none configured (.mcp.json, ~/.claude.json)")}
	}
	eng := guard.New(d.Policy)
	oversight := d.Policy.Swarm.Oversight
	var out []Result
	for _, name := range mcpconfig.Names(servers) {
		s := servers[name]
		access := eng.MCPServerAccess(name)
		detail := fmt.Sprintf("%s (%s scope): %s access", name, s.Scope, access)
		if access == "read" {
			detail += " (plus the agent's own pull requests, issues and comments)"
		}
		detail += "; merges and approvals: " + map[string]string{
			policy.OversightPRGated: "denied (pr-gated)", policy.OversightAutonomous: "denied (autonomous: only gh pr merge --auto)",
			policy.OversightCheckpoint: "a human approves each (checkpoint)"}[oversight]
		out = append(out, ok("mcp server", detail))
	}
	return out
}
