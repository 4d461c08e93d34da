package main

import (
	"fmt"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/agent"
	"github.com/swarm-guard/swarm-guard/hooks/agentrun"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "run",
		summary: "run an agent under turn, time, idle, attempt and token budgets",
		usage: `Usage: swarm-guard run [flags] -- CMD [ARGS...]

Runs CMD (usually claude -p "...") and stops it when a budget runs out.
For claude, the output is read as stream-json (--output-format stream-json
--verbose and --max-turns are added when missing) and shown as a summary.
Other programs get time limits, retries and a scrubbed environment; their
output passes through, and token budgets apply to any stream-json in it.

Flags:
  --max-turns N         stop after N model turns (default: claude's own
                        --max-turns, else 100; 0 = no limit)
  --timeout D           wall-clock limit of the whole run, retries included
                        (e.g. 90m; default 0 = none)
  --idle-timeout D      stop when the agent prints nothing for D (default 30m;
                        0 = none)
  --grace D             time from SIGINT to SIGKILL when stopping; SIGTERM is
                        sent halfway (default 10s)
  --attempts N          attempts in all; a failed attempt is retried (default 1)
  --backoff D           wait before the second attempt, doubled for each
                        further one (default 10s)
  --tokens N            token budget of this run (default: policy
                        [budget] worker_tokens; 0 = no limit)
  --task ID             the task this run works on (default $SWARM_GUARD_TASK)
  --task-tokens N       token budget of all runs of the task (default: policy
                        [budget] task_tokens)
  --session S           the swarm session this run belongs to (default:
                        policy [budget] session): its spend is shared with
                        every clone through the git remote, and
                        --session-tokens caps the whole session
  --session-tokens N    token budget of the session: all runs of --session
                        in every clone, or without one, all runs on this
                        machine since swarm-guard budget reset (default:
                        policy [budget] session_tokens)
  --trust               set SWARM_GUARD_TRUST=1 for the agent
  --mcp NAME[,NAME...]  start claude with only these MCP servers (from .mcp.json
                        and ~/.claude.json; default: [mcp.tasks] of the policy
                        for --task, else every configured server)
  --oversight MODE      who merges for this task: pr-gated, autonomous or
                        checkpoint (default: the policy's [swarm] oversight)
  --mode MODE           the policy-wide mode for this run: enforce, warn (the
                        calls run, the agent is told what would be denied) or
                        log (they run silently); default: the policy's mode

run never starts claude without the guard: it refuses --bare, --settings
that disable hooks, --setting-sources without project and
CLAUDE_CODE_SIMPLE, passes its own hooks with --settings, and stops the
agent (exit 12) if it runs a tool while swarm-guard's hook never ran.

Tokens are input + cache writes + output; cache reads are reported, not
budgeted. Every attempt is recorded in the audit log (swarm-guard report).

Exit codes: 0 success; 2 usage or internal error; 3 the agent failed on
every attempt; 4 --timeout; 5 --idle-timeout; 6 turn limit; 7 run token
budget; 8 task token budget; 9 session token budget; 10 the policy's
per-session budget (enforced by the hook); 11 claude's --max-budget-usd; 12 refused or stopped an agent without the
guard's hooks; 130 swarm-guard run itself was interrupted.`,
		run: runRun,
	})
}

// runRun reads the policy (it supplies the flags' defaults) and the
// flags, and runs the agent (hooks/agentrun).
func runRun(c *cli, args []string) error {
	wd, err := c.workdir()
	if err != nil {
		return fmt.Errorf("cannot find the working directory: %w", err)
	}
	repo, root, pol, err := hookenv.RepoPolicy(wd, wd)
	if err != nil {
		return fmt.Errorf("%v (swarm-guard policy check shows the problem)", err)
	}
	f, err := parseRunFlags(c, pol, args)
	if err != nil {
		return err
	}
	env := agentrun.Env{Stdin: c.stdin, Stdout: c.stdout, Stderr: c.stderr, Getenv: c.getenv, Now: c.now, Executable: c.executable}
	outcome, err := agentrun.Run(env, agentrun.Workspace{Repo: repo, Root: root, Policy: pol}, f)
	switch {
	case err != nil && outcome != "":
		return &exitError{code: outcomeExit(outcome), msg: err.Error()}
	case err != nil:
		return err
	}
	return silentExit(outcomeExit(outcome))
}

func parseRunFlags(c *cli, pol *policy.Policy, args []string) (*agentrun.Flags, error) {
	f := &agentrun.Flags{}
	fs := newFlags("run")
	fs.SetInterspersed(false) // everything after CMD belongs to CMD
	fs.Int64Var(&f.MaxTurns, "max-turns", agentrun.DefaultMaxTurns, "")
	fs.DurationVar(&f.Timeout, "timeout", 0, "")
	fs.DurationVar(&f.Idle, "idle-timeout", agentrun.DefaultIdleTimeout, "")
	fs.DurationVar(&f.Grace, "grace", agent.DefaultGrace, "")
	fs.IntVar(&f.Attempts, "attempts", 1, "")
	fs.DurationVar(&f.Backoff, "backoff", agentrun.DefaultBackoff, "")
	fs.Int64Var(&f.Tokens, "tokens", pol.Budget.WorkerTokens, "")
	fs.StringVar(&f.Task, "task", c.getenv("SWARM_GUARD_TASK"), "")
	fs.Int64Var(&f.TaskTokens, "task-tokens", pol.Budget.TaskTokens, "")
	fs.StringVar(&f.Session, "session", pol.Budget.Session, "")
	fs.Int64Var(&f.SessionTokens, "session-tokens", pol.Budget.SessionTokens, "")
	fs.BoolVar(&f.Trust, "trust", false, "")
	fs.StringSliceVar(&f.MCP, "mcp", nil, "")
	fs.StringVar(&f.Oversight, "oversight", "", "")
	fs.StringVar(&f.Mode, "mode", "", "")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	f.MaxTurnsSet = fs.Changed("max-turns")
	f.Argv = fs.Args()
	switch {
	case len(f.Argv) == 0 || f.Argv[0] == "":
		return nil, usageErrorf("usage: run needs a command after --, e.g. swarm-guard run -- claude -p \"fix the tests\"")
	case f.Attempts < 1:
		return nil, usageErrorf("usage: --attempts must be at least 1")
	case f.MaxTurns < 0 || f.Tokens < 0 || f.TaskTokens < 0 || f.SessionTokens < 0:
		return nil, usageErrorf("usage: --max-turns and the token budgets must not be negative (0 means no limit)")
	case f.Timeout < 0 || f.Idle < 0 || f.Grace < 0 || f.Backoff < 0:
		return nil, usageErrorf("usage: durations must not be negative")
	}
	if f.Session != "" && !identity.Valid(f.Session) {
		return nil, usageErrorf("usage: the session name %q (--session or [budget] session) is not well formed: it must match %s", f.Session, identity.Pattern)
	}
	switch f.Mode {
	case "", policy.ModeEnforce, policy.ModeWarn, policy.ModeLog:
	default:
		return nil, usageErrorf("usage: --mode must be enforce, warn or log, not %q", f.Mode)
	}
	switch f.Oversight {
	case "", policy.OversightPRGated, policy.OversightAutonomous, policy.OversightCheckpoint:
	default:
		return nil, usageErrorf("usage: --oversight must be pr-gated, autonomous or checkpoint, not %q", f.Oversight)
	}
	if f.Grace == 0 {
		f.Grace = agent.DefaultGrace
	}
	return f, nil
}

// outcomeExit is the exit code of swarm-guard run for an outcome.
func outcomeExit(o budget.Outcome) int {
	switch o {
	case budget.OutcomeSuccess:
		return exitOK
	case budget.OutcomeFailed:
		return exitAgentFailed
	case budget.OutcomeTimeout:
		return exitTimeout
	case budget.OutcomeIdle:
		return exitIdle
	case budget.OutcomeMaxTurns:
		return exitMaxTurns
	case budget.OutcomeWorkerTokens:
		return exitWorkerTokens
	case budget.OutcomeTaskTokens:
		return exitTaskTokens
	case budget.OutcomeSessionTokens:
		return exitSessionTokens
	case budget.OutcomeToolBudget:
		return exitToolBudget
	case budget.OutcomeCostBudget:
		return exitCostBudget
	case budget.OutcomeInterrupted:
		return exitInterrupted
	case budget.OutcomeUnguarded:
		return exitUnguarded
	}
	return exitBlock
}
