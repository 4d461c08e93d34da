package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
)

func init() {
	commands = append(commands, &command{
		name:    "id",
		summary: "print this agent's id, the one commits carry in their Agent-Id trailer",
		usage: `Usage: swarm-guard id [--parent] [--json] [--dir DIR]

Prints the agent id: $SWARM_GUARD_AGENT_ID, else $AGENT_ID, else (policy
[identity] source = "branch") the worktree's branch, else a per-machine id
kept in $XDG_CONFIG_HOME/swarm-guard/agent-id (created on first use).
Ids are hygiene, not authentication: anyone can set the variables.

Flags:
  --parent   print the parent id instead: the id without its last dot
             segment (main.feature.auth -> main.feature)
  --json     print {"id", "source", "file", "parent"} as JSON
  --dir DIR  a directory inside the worktree (default: the current one)

Exit codes: 0 printed, 1 no id (a malformed id or id file, or no parent), 2 usage.`,
		run: runID,
	})
}

type idResult struct {
	identity.Identity
	Parent string `json:"parent,omitempty"`
}

func runID(c *cli, args []string) error {
	fs := newFlags("id")
	parent := fs.Bool("parent", false, "")
	asJSON := fs.Bool("json", false, "")
	dir := fs.String("dir", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: unexpected arguments %q", fs.Args())
	}
	where := *dir
	if where == "" {
		wd, err := c.workdir()
		if err != nil {
			return fmt.Errorf("cannot tell the current directory: %w", err)
		}
		where = wd
	}
	where, err := filepath.Abs(where)
	if err != nil {
		return usageErrorf("usage: bad --dir %q: %v", *dir, err)
	}
	repo, _, pol, err := hookenv.RepoPolicy(where, "")
	if err != nil {
		return &exitError{code: exitFailure, msg: fmt.Sprintf("the policy is broken: %v; fix it (swarm-guard policy check)", err)}
	}
	id, err := identity.InWorktree(c.getenv, repo, pol)
	if err != nil {
		return &exitError{code: exitFailure, msg: err.Error()}
	}
	res := idResult{Identity: id}
	res.Parent, _ = identity.Parent(id.ID)
	if *parent && res.Parent == "" {
		return &exitError{code: exitFailure, msg: fmt.Sprintf("agent id %q has no parent: it has no dot segment (parents look like main.feature for main.feature.auth)", id.ID)}
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	if *parent {
		fmt.Fprintln(c.stdout, res.Parent)
	} else {
		fmt.Fprintln(c.stdout, id.ID)
	}
	return nil
}
