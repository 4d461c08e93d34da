package main

import (
	"fmt"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/report"
)

func init() {
	commands = append(commands, &command{
		name:    "report",
		summary: "summarise hook decisions and the runs of swarm-guard run",
		usage: `Usage: swarm-guard report [--task ID] [--session S] [--since D] [--format text|json | --json]
       swarm-guard report --range BASE..HEAD [--format text|json | --json]

Summarises the hook's decisions recorded in this repository's audit log:
tool calls by decision, denials by rule, calls per agent, and the commands
and paths denied most often — the numbers to tune a policy with.

Sums the attempts recorded by swarm-guard run in this repository's audit log
per task and agent: runs, attempts, outcomes, turns, tokens (budgeted: input
+ cache writes + output), cost when the agent reported it, and the lines
changed between HEAD before and after each attempt with the tokens per
changed line, when git still has both commits.

  --task ID       only this task; with a git remote ([budget] sync_remote),
                  also the task's spend per agent in every clone, from the
                  remote's ledger, and the task budget left
  --session S     only the runs of the swarm session S (run --session);
                  from the remote's ledger, the session's spend per agent
                  and per task in every clone, and the session budget left
  --since D       only attempts started in the last D (90m, 24h, 7d) or
                  since a date (2026-01-02)
  --range R       only the shared budgets of a pull request's commits, for
                  CI (install --ci github runs it): the tasks their agents
                  (Agent-Id trailers) recorded spend on in the sessions
                  the commits name (Agent-Session), and those sessions
                  when they are swarm sessions, from the remote's ledger;
                  the audit log is not read
  --format F      text (default) or json
  --json          the same as --format json`,
		run: runReport,
	})
}

// runReport checks the flags and writes the report (hooks/report).
func runReport(c *cli, args []string) error {
	fs := newFlags("report")
	task := fs.String("task", "", "")
	session := fs.String("session", "", "")
	rng := fs.String("range", "", "")
	since := fs.String("since", "", "")
	format := fs.String("format", "text", "")
	asJSON := fs.Bool("json", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *asJSON {
		*format = "json"
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: report takes no arguments")
	}
	if *format != "text" && *format != "json" {
		return usageErrorf("usage: --format must be text or json, not %q", *format)
	}
	if *rng != "" && (*task != "" || *session != "" || *since != "") {
		return usageErrorf("usage: --range reads the pull request's own tasks and sessions; it takes no --task, --session or --since")
	}
	var from time.Time
	if *since != "" {
		t, err := report.ParseSince(*since, c.now())
		if err != nil {
			return usageErrorf("usage: --since: %v", err)
		}
		from = t
	}
	wd, err := c.workdir()
	if err != nil {
		return fmt.Errorf("cannot find the working directory: %w", err)
	}
	repo, inRepo := gitrepo.Find(wd)
	if *rng != "" {
		if !inRepo {
			return usageErrorf("usage: --range needs a git repository (run it in the checkout of the pull request)")
		}
		return report.Range(c.stdout, repo.Root, *rng, *format == "json")
	}
	if !inRepo {
		repo = nil
	}
	return report.Write(c.stdout, repo, report.Options{Task: *task, Session: *session, Since: from, JSON: *format == "json", Getenv: c.getenv})
}
