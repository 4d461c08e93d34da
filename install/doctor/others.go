package doctor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
	"github.com/swarm-guard/swarm-guard/hooks/mcpconfig"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/install"
	"github.com/swarm-guard/swarm-guard/policy"
)

// checkClients checks every agent client other than Claude Code that is
// present here (its project directory, its program on PATH, or its
// installed hooks): its hooks run swarm-guard through the launcher that
// fails closed, and none of the traps that make it skip them silently is
// set (install.CheckClient).
func (d *doctor) checkClients() []Result {
	var out []Result
	e := install.ClientEnv{Root: d.Root, Home: d.Getenv("HOME"), Getenv: d.Getenv, LookPath: exec.LookPath}
	for _, c := range clients.Others {
		checks, present := install.CheckClient(c, e)
		if !present {
			continue
		}
		name := "client " + string(c)
		for _, ch := range checks {
			switch ch.Status {
			case "ok":
				out = append(out, ok(name, ch.Detail))
			case "warn":
				out = append(out, warn(name, ch.Detail, ch.Fix))
			default:
				out = append(out, fail(name, ch.Detail, ch.Fix))
			}
		}
	}
	return out
}

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
