package main

import (
	"encoding/json"
	"fmt"

	"github.com/swarm-guard/swarm-guard/install/doctor"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "doctor",
		summary: "check that every piece of swarm-guard is installed and works here",
		usage: `Usage: swarm-guard doctor [--dir DIR] [--format text|json | --json]

Checks the policy, the agent id, the Claude Code hooks in
.claude/settings.json and the binary they run, the git hooks (present,
executable, swarm-guard's, their binary there) and the secret scanner with
the repository's gitleaks configuration, and lists the MCP servers
configured for the repository with the access the policy gives each, and
every other agent client present (Codex, Gemini CLI, Copilot CLI, opencode,
Qwen Code, Droid): its hooks, and the traps that make it skip them. Prints
one line per check and a remedy under each failure.

Exit codes: 0 all good, 1 a check failed, 2 usage.`,
		run: runDoctor,
	})
}

func runDoctor(c *cli, args []string) error {
	fs := newFlags("doctor")
	dir := fs.String("dir", "", "")
	format := fs.String("format", "text", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: unexpected arguments %q", fs.Args())
	}
	t, err := findInstallTarget(c, *dir, "")
	if err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return usageErrorf("usage: --format must be text or json, not %q", *format)
	}
	p := doctor.Place{Root: t.ctx.Env.Root, Repo: t.ctx.Repo, Git: t.git, Binary: t.binary, Getenv: c.getenv}
	if p.Policy, p.PolicyErr = policy.Load(p.Root); p.PolicyErr != nil {
		p.Policy = policy.Default()
	}
	failures := 0
	type jsonCheck struct {
		Name   string `json:"name"`
		Status string `json:"status"` // ok, FAIL, warn, skip
		Detail string `json:"detail"`
		Fix    string `json:"fix,omitempty"`
	}
	var checks []jsonCheck
	for _, r := range doctor.Check(p) {
		if r.Status == doctor.Fail {
			failures++
		}
		if *format == "json" {
			checks = append(checks, jsonCheck{r.Name, r.Status, r.Detail, r.Fix})
			continue
		}
		fmt.Fprintf(c.stdout, "%-4s  %s: %s\n", r.Status, r.Name, r.Detail)
		if r.Status == doctor.Fail {
			fmt.Fprintf(c.stdout, "      fix: %s\n", r.Fix)
		}
		if r.Status == doctor.Warn && r.Fix != "" {
			fmt.Fprintf(c.stdout, "      hint: %s\n", r.Fix)
		}
	}
	if *format == "json" {
		b, _ := json.MarshalIndent(struct {
			Checks   []jsonCheck `json:"checks"`
			Problems int         `json:"problems"`
		}{checks, failures}, "", "  ")
		fmt.Fprintln(c.stdout, string(b))
		if failures > 0 {
			return failed()
		}
		return nil
	}
	if failures > 0 {
		fmt.Fprintf(c.stdout, "%d problem(s) found.\n", failures)
		return failed()
	}
	fmt.Fprintln(c.stdout, "All good.")
	return nil
}
