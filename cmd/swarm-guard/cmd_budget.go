package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/agentrun"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/state"
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

// budgetView is what budget show prints.
type budgetView struct {
	File    string     `json:"file"`
	Session budgetLine `json:"session"`
	Tasks   []taskLine `json:"tasks"`
	// Swarm is this clone's part of the named swarm sessions; their
	// totals over every clone are in the remote (report --session).
	Swarm []swarmLine `json:"swarm_sessions"`
}

type swarmLine struct {
	Session string       `json:"session"`
	Usage   budget.Usage `json:"usage"`
	Tokens  int64        `json:"budgeted_tokens"`
}

type budgetLine struct {
	ID      string       `json:"id,omitempty"`
	Started *time.Time   `json:"started,omitempty"`
	Runs    int64        `json:"runs"`
	Usage   budget.Usage `json:"usage"`
	Tokens  int64        `json:"budgeted_tokens"`
	Limit   int64        `json:"limit"`
}

type taskLine struct {
	Task string `json:"task"`
	budgetLine
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
	l, err := state.Read[budget.Ledger](path)
	if err != nil {
		return agentrun.StateError(err)
	}
	v := budgetView{File: path, Tasks: []taskLine{}, Swarm: []swarmLine{}}
	v.Session = budgetLine{ID: l.Session.ID, Runs: l.Session.Runs, Usage: l.Session.Usage, Tokens: l.Session.Usage.Budgeted(), Limit: pol.Budget.SessionTokens}
	if !l.Session.Started.IsZero() {
		t := l.Session.Started
		v.Session.Started = &t
	}
	for _, name := range l.TaskNames() {
		t := l.Tasks[name]
		v.Tasks = append(v.Tasks, taskLine{Task: name, budgetLine: budgetLine{Runs: t.Runs, Usage: t.Usage, Tokens: t.Usage.Budgeted(), Limit: pol.Budget.TaskTokens}})
	}
	names := make([]string, 0, len(l.Swarm))
	for name := range l.Swarm {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		u := l.Swarm[name].Usage
		v.Swarm = append(v.Swarm, swarmLine{Session: name, Usage: u, Tokens: u.Budgeted()})
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case "text":
	default:
		return usageErrorf("usage: --format must be text or json, not %q", *format)
	}
	if v.Session.ID == "" {
		fmt.Fprintf(c.stdout, "no runs yet (%s does not exist)\n", path)
		return nil
	}
	fmt.Fprintf(c.stdout, "session %s since %s: %d runs, %s\n", v.Session.ID, v.Session.Started.Local().Format(time.DateTime), v.Session.Runs, ofLimit(v.Session.Tokens, v.Session.Limit))
	fmt.Fprintf(c.stdout, "  %s\n", v.Session.Usage)
	if len(v.Tasks) == 0 {
		fmt.Fprintln(c.stdout, "no tasks")
	}
	for _, t := range v.Tasks {
		fmt.Fprintf(c.stdout, "task %s: %d runs, %s\n", t.Task, t.Runs, ofLimit(t.Tokens, t.Limit))
	}
	for _, sw := range v.Swarm {
		fmt.Fprintf(c.stdout, "swarm session %s: %s tokens in this clone; swarm-guard report --session %s shows every clone's\n", sw.Session, budget.Exact(sw.Tokens), sw.Session)
	}
	return nil
}

func ofLimit(used, limit int64) string {
	if limit <= 0 {
		return budget.Exact(used) + " tokens (no limit)"
	}
	return fmt.Sprintf("%s of %s tokens (%.0f%%)", budget.Exact(used), budget.Exact(limit), 100*float64(used)/float64(limit))
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
	now := c.now()
	var old budget.LedgerSession
	var oldTask *budget.TaskTally
	reset := func(l *budget.Ledger) error {
		switch {
		case *task != "":
			oldTask = l.Tasks[*task]
			delete(l.Tasks, *task)
			if l.Session.ID == "" {
				l.EnsureSession(agentrun.NewID("s", now), now.UTC())
			}
		case *all:
			old = l.ResetSession(agentrun.NewID("s", now), now.UTC())
			l.Tasks, l.Swarm = nil, nil
		default:
			old = l.ResetSession(agentrun.NewID("s", now), now.UTC())
		}
		return nil
	}
	err := state.Update(path, reset)
	var ce *state.CorruptError
	if errors.As(err, &ce) && *force {
		aside, merr := state.MoveAside(path, now)
		if merr != nil {
			return merr
		}
		fmt.Fprintf(c.stdout, "moved the corrupt %s to %s\n", path, aside)
		err = state.Update(path, reset)
	}
	if err != nil {
		return agentrun.StateError(err)
	}
	l, err := state.Read[budget.Ledger](path)
	if err != nil {
		return agentrun.StateError(err)
	}
	switch {
	case *task != "" && oldTask == nil:
		fmt.Fprintf(c.stdout, "task %s had no budget use; nothing to reset\n", *task)
	case *task != "":
		fmt.Fprintf(c.stdout, "task %s reset (it had used %s tokens in %d runs)\n", *task, budget.Exact(oldTask.Usage.Budgeted()), oldTask.Runs)
	default:
		what := "budget session"
		if *all {
			what = "budget session and every task"
		}
		fmt.Fprintf(c.stdout, "%s reset: new session %s", what, l.Session.ID)
		if old.ID != "" {
			fmt.Fprintf(c.stdout, " (the previous one, %s, used %s tokens in %d runs)", old.ID, budget.Exact(old.Usage.Budgeted()), old.Runs)
		}
		fmt.Fprintln(c.stdout)
	}
	return nil
}
