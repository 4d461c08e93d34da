package main

import (
	"fmt"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/agentrun"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "budget",
		summary: "show or reset the token budgets of swarm-guard run",
		usage: `Usage:
  swarm-guard budget show [--format text|json]
  swarm-guard budget reset [--task ID | --all] [--force]

show prints the budget session (all runs since the last reset) and every
task: tokens used against the limits of the policy.

reset starts a new budget session: the session token budget is full again
and runs get a new SWARM_GUARD_SESSION. Task totals are kept; --task ID
clears one task and --all clears the session and every task. A corrupt
state file is never reset silently: --force moves it aside (to
budget.json.corrupt-<time>) and starts from zero.

Named swarm sessions (run --session S, [budget] session) and the other
clones' spend on a task live in the git remote's ledger (swarm-guard
report --session S, --task T): reset clears only this machine's counts
(--all clears its swarm sessions too); a new --session name starts a new
swarm session.`,
		run: runBudget,
	})
}

func runBudget(c *cli, args []string) error {
	if len(args) == 0 {
		return usageErrorf("usage: budget needs a subcommand: show or reset")
	}
	stateDir, pol, err := budgetContext(c)
	if err != nil {
		return err
	}
	path := filepath.Join(stateDir, agentrun.LedgerFile)
	switch args[0] {
	case "show":
		return budgetShow(c, pol, path, args[1:])
	case "reset":
		return budgetReset(c, path, args[1:])
	}
	return usageErrorf("usage: unknown budget subcommand %q", args[0])
}

// budgetContext finds the state directory and the policy of the repository
// around the working directory.
func budgetContext(c *cli) (string, *policy.Policy, error) {
	wd, err := c.workdir()
	if err != nil {
		return "", nil, fmt.Errorf("cannot find the working directory: %w", err)
	}
	repo, _, pol, err := hookenv.RepoPolicy(wd, wd)
	if err != nil {
		return "", nil, fmt.Errorf("%v (swarm-guard policy check shows the problem)", err)
	}
	commonDir := ""
	if repo != nil {
		commonDir = repo.CommonDir
	}
	return audit.Dir(commonDir, c.getenv), pol, nil
}

func budgetShow(c *cli, pol *policy.Policy, path string, args []string) error {
	fs := newFlags("budget show")
	format := fs.String("format", "text", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: budget show takes no arguments")
	}
	return agentrun.ShowLedger(c.stdout, path, pol, *format)
}

func budgetReset(c *cli, path string, args []string) error {
	fs := newFlags("budget reset")
	task := fs.String("task", "", "")
	all := fs.Bool("all", false, "")
	force := fs.Bool("force", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || (*all && *task != "") {
		return usageErrorf("usage: budget reset [--task ID | --all] [--force]")
	}
	return agentrun.ResetLedger(c.stdout, path, *task, *all, *force, c.now())
}
