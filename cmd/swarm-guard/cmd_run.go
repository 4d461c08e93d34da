package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/agent"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/hooks/sessionbudget"
	"github.com/swarm-guard/swarm-guard/hooks/state"
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

// Defaults of the run flags that have no policy key.
const (
	defaultMaxTurns    = 100
	defaultIdleTimeout = 30 * time.Minute
	defaultBackoff     = 10 * time.Second
	maxBackoff         = 10 * time.Minute
	// chargeEvery bounds how often one run writes the ledger: often enough
	// that parallel runs of a task see each other's spending, rarely
	// enough that a fast stream is not slowed down by file locking.
	chargeEvery = 250 * time.Millisecond
)

// ledgerFile is the wrapper's budget state in the state directory.
const ledgerFile = "budget.json"

// runFlags are the parsed flags of swarm-guard run.
type runFlags struct {
	maxTurns      int64
	timeout       time.Duration
	idle          time.Duration
	grace         time.Duration
	attempts      int
	backoff       time.Duration
	tokens        int64
	task          string
	taskTokens    int64
	session       string // --session: the swarm session; "" for the machine's
	sessionTokens int64
	trust         bool
	mcp           []string // --mcp: the only MCP servers the agent gets
	oversight     string   // --oversight: who merges, for this task
	argv          []string
	maxTurnsSet   bool
}

func parseRunFlags(c *cli, pol *policy.Policy, args []string) (*runFlags, error) {
	f := &runFlags{}
	fs := newFlags("run")
	fs.SetInterspersed(false) // everything after CMD belongs to CMD
	fs.Int64Var(&f.maxTurns, "max-turns", defaultMaxTurns, "")
	fs.DurationVar(&f.timeout, "timeout", 0, "")
	fs.DurationVar(&f.idle, "idle-timeout", defaultIdleTimeout, "")
	fs.DurationVar(&f.grace, "grace", agent.DefaultGrace, "")
	fs.IntVar(&f.attempts, "attempts", 1, "")
	fs.DurationVar(&f.backoff, "backoff", defaultBackoff, "")
	fs.Int64Var(&f.tokens, "tokens", pol.Budget.WorkerTokens, "")
	fs.StringVar(&f.task, "task", c.getenv("SWARM_GUARD_TASK"), "")
	fs.Int64Var(&f.taskTokens, "task-tokens", pol.Budget.TaskTokens, "")
	fs.StringVar(&f.session, "session", pol.Budget.Session, "")
	fs.Int64Var(&f.sessionTokens, "session-tokens", pol.Budget.SessionTokens, "")
	fs.BoolVar(&f.trust, "trust", false, "")
	fs.StringSliceVar(&f.mcp, "mcp", nil, "")
	fs.StringVar(&f.oversight, "oversight", "", "")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	f.maxTurnsSet = fs.Changed("max-turns")
	f.argv = fs.Args()
	switch {
	case len(f.argv) == 0 || f.argv[0] == "":
		return nil, usageErrorf("usage: run needs a command after --, e.g. swarm-guard run -- claude -p \"fix the tests\"")
	case f.attempts < 1:
		return nil, usageErrorf("usage: --attempts must be at least 1")
	case f.maxTurns < 0 || f.tokens < 0 || f.taskTokens < 0 || f.sessionTokens < 0:
		return nil, usageErrorf("usage: --max-turns and the token budgets must not be negative (0 means no limit)")
	case f.timeout < 0 || f.idle < 0 || f.grace < 0 || f.backoff < 0:
		return nil, usageErrorf("usage: durations must not be negative")
	}
	if f.session != "" && !identity.Valid(f.session) {
		return nil, usageErrorf("usage: the session name %q (--session or [budget] session) is not well formed: it must match %s", f.session, identity.Pattern)
	}
	switch f.oversight {
	case "", policy.OversightPRGated, policy.OversightAutonomous, policy.OversightCheckpoint:
	default:
		return nil, usageErrorf("usage: --oversight must be pr-gated, autonomous or checkpoint, not %q", f.oversight)
	}
	if f.grace == 0 {
		f.grace = agent.DefaultGrace
	}
	return f, nil
}

// runner is one invocation of swarm-guard run.
type runner struct {
	c         *cli
	f         *runFlags
	pol       *policy.Policy
	repo      *gitrepo.Repo // nil outside a git repository
	stateDir  string
	ledger    string // path of the ledger file
	runID     string
	agentID   string
	sessionID string // the budget session (SWARM_GUARD_SESSION)
	summary   bool   // CMD is claude speaking stream-json: show a summary, require a result
	argv      []string
	env       []string
	limits    budget.Limits
	hookLimit bool          // the policy has per-session hook budgets
	guarded   bool          // claude gets the guard's hooks from run (--settings)
	shared    *sharedLedger // the task's spend shared through the git remote; nil when off
	live      bool          // the hook has run for this run (liveMarker)
	out       *runOutput

	worker  budget.Usage // tokens of the finished attempts of this run
	turns   int64        // turns of the finished attempts of this run
	started time.Time
}

func runRun(c *cli, args []string) error {
	r, err := newRunner(c, args)
	if err != nil {
		return err
	}
	// Open the budget session and count the run before anything starts, so
	// that a corrupt ledger or a spent budget stops the run here.
	if ex, err := r.openLedger(); err != nil {
		return err
	} else if ex != nil {
		fmt.Fprintf(c.stderr, "swarm-guard run: not starting %s: %s%s\n", filepath.Base(r.argv[0]), ex, r.budgetHint(ex.Budget))
		return silentExit(outcomeExit(budget.ForBudget(ex.Budget)))
	}
	if r.f.trust && !r.pol.TrustEnv {
		fmt.Fprintf(c.stderr, "swarm-guard run: --trust has no effect: the policy sets trust_env = false\n")
	}
	r.env = r.childEnv()
	r.out = newRunOutput(c.stdout, c.now)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	outcome, detail := r.attempts(ctx)
	return r.finish(outcome, detail)
}

// newRunner reads the policy, the flags and the identity of a run.
func newRunner(c *cli, args []string) (*runner, error) {
	wd, err := c.workdir()
	if err != nil {
		return nil, fmt.Errorf("cannot find the working directory: %w", err)
	}
	// The policy is loaded before the flags: it supplies their defaults.
	repo, root, pol, err := hookenv.RepoPolicy(wd, wd)
	commonDir := ""
	if repo != nil {
		commonDir = repo.CommonDir
	}
	if err != nil {
		return nil, fmt.Errorf("%v (swarm-guard policy check shows the problem)", err)
	}
	f, err := parseRunFlags(c, pol, args)
	if err != nil {
		return nil, err
	}
	if _, err := agent.LookPath(f.argv[0]); err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner // drop exec's repetition of the name
		}
		return nil, fmt.Errorf("cannot run %s: %v", f.argv[0], err)
	}
	r := &runner{c: c, f: f, pol: pol, repo: repo, stateDir: audit.Dir(commonDir, c.getenv), started: c.now(), argv: f.argv}
	r.ledger = filepath.Join(r.stateDir, ledgerFile)
	r.runID = newID("r", r.started)
	if r.agentID, err = runAgentID(c, repo, pol); err != nil {
		return nil, err
	}
	r.hookLimit = pol.Budget.MaxToolCalls > 0 || pol.Budget.MaxTokens > 0
	r.limits = budget.Limits{Turns: f.maxTurns, WorkerTokens: f.tokens, TaskTokens: f.taskTokens, SessionTokens: f.sessionTokens}
	if isClaude(f.argv[0]) {
		var claudeTurns int64
		r.argv, claudeTurns, r.summary = claudeArgv(f.argv, f.maxTurns, f.maxTurnsSet)
		if !f.maxTurnsSet && claudeTurns > 0 {
			r.limits.Turns = claudeTurns
		}
	} else if !f.maxTurnsSet {
		r.limits.Turns = 0 // only stream-json has turns, and only an explicit cap applies to other programs
	}
	if f.task == "" {
		r.limits.TaskTokens = 0
	}
	if err := r.restrictMCP(root); err != nil {
		return nil, err
	}
	if err := r.guardAgent(); err != nil {
		return nil, err
	}
	if err := r.openShared(root); err != nil {
		return nil, err
	}
	return r, nil
}

// openLedger starts the budget session if there is none and counts the
// run, unless a task or session budget is already used up: that one is
// returned.
func (r *runner) openLedger() (*budget.Exceeded, error) {
	var ex *budget.Exceeded
	err := state.Update(r.ledger, func(l *budget.Ledger) error {
		l.EnsureSession(newID("s", r.started), r.started.UTC())
		task, session := l.Spent(r.f.task)
		task += r.shared.othersSpent()
		r.sessionID = l.Session.ID
		if r.f.session != "" {
			r.sessionID = r.f.session
			session = l.SwarmSpent(r.f.session) + r.shared.othersSessionSpent()
		}
		r.shared.setSession(r.sessionID)
		if ex = r.limits.Reached(budget.Spent{Task: task, Session: session}); ex == nil {
			l.StartRun(r.f.task, r.started.UTC())
		}
		return nil
	})
	if err != nil {
		return nil, stateError(err)
	}
	return ex, nil
}

// attempts runs the agent until an attempt does not fail, the attempts are
// used up, or a budget, a timeout or an interruption ends the run.
func (r *runner) attempts(ctx context.Context) (budget.Outcome, string) {
	var deadline time.Time
	if r.f.timeout > 0 {
		deadline = r.started.Add(r.f.timeout)
	}
	for n := 1; ; n++ {
		lim := agent.Limits{IdleTimeout: r.f.idle, Grace: r.f.grace}
		if !deadline.IsZero() {
			lim.Timeout = deadline.Sub(r.c.now())
			if lim.Timeout <= 0 {
				return budget.OutcomeTimeout, fmt.Sprintf("the run reached its --timeout of %v", r.f.timeout)
			}
		}
		if n > 1 {
			// A failed attempt may have used up a budget without passing
			// it while running (the result's final count, say); the
			// other clones' spend is synced first.
			if err := r.shared.syncNow(r.c.now(), r.worker.Budgeted(), r.turns, r.c.stderr); err != nil {
				return budget.OutcomeStateError, err.Error()
			}
			task, session := r.ledgerTotals()
			spent := budget.Spent{Worker: r.worker.Budgeted(), Task: task, Session: session}
			if ex := r.limits.Reached(spent); ex != nil {
				return budget.ForBudget(ex.Budget), ex.String() + r.budgetHint(ex.Budget)
			}
		}
		outcome, detail := r.attempt(ctx, n, lim)
		if !outcome.Retryable() || n >= r.f.attempts {
			if outcome == budget.OutcomeFailed && r.f.attempts > 1 {
				detail = fmt.Sprintf("failed on all %d attempts; the last one: %s", r.f.attempts, detail)
			}
			return outcome, detail
		}
		wait := backoffDelay(r.f.backoff, n)
		if !deadline.IsZero() {
			if left := deadline.Sub(r.c.now()); wait > left {
				wait = max(left, 0)
			}
		}
		fmt.Fprintf(r.c.stderr, "swarm-guard run: attempt %d of %d failed (%s); retrying in %v\n", n, r.f.attempts, detail, wait.Round(time.Millisecond))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return budget.OutcomeInterrupted, "interrupted while waiting to retry"
		case <-t.C:
		}
	}
}

func backoffDelay(base time.Duration, failed int) time.Duration {
	d := base
	for i := 1; i < failed && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// attemptState is the accounting of one attempt, touched only by the
// supervisor's line goroutine until the attempt is over.
type attemptState struct {
	r          *runner
	stream     budget.Stream
	charged    budget.Usage // the part of this attempt's usage already in the ledger
	lastCharge time.Time
	task       int64 // the task's total in the ledger after the last charge
	session    int64 // the session's total in the ledger after the last charge
	stopped    budget.Outcome
	detail     string
}

func (r *runner) attempt(ctx context.Context, n int, lim agent.Limits) (budget.Outcome, string) {
	a := &attemptState{r: r}
	a.stream.Details = r.summary
	a.task, a.session = r.localTotals()
	start := r.c.now()
	headBefore := headCommit(r.repo)
	if r.f.attempts > 1 {
		fmt.Fprintf(r.c.stderr, "swarm-guard run: attempt %d of %d\n", n, r.f.attempts)
	}
	r.out.begin(start, r.summary)
	res, err := agent.Run(ctx, agent.Command{
		Path: r.argv[0], Args: r.argv[1:], Env: r.env, Stdin: childStdin(r.c), Stderr: r.c.stderr,
	}, lim, a.line)
	r.out.end()
	if err != nil {
		// The program was found before the run, so this is something
		// passing (a busy executable, a full process table): a failure
		// like any other.
		res = agent.Result{ExitCode: -1}
		a.detail = err.Error()
	}
	if err := a.charge(r.c.now()); err != nil && a.stopped == "" {
		a.stopped, a.detail = budget.OutcomeStateError, err.Error()
	}
	outcome, detail := a.judge(res)
	if res.Orphans {
		fmt.Fprintf(r.c.stderr, "swarm-guard run: stopped processes the agent left behind in its process group\n")
	}
	usage := a.stream.Usage()
	r.worker = r.worker.Add(usage)
	r.turns += a.stream.Turns()
	rec := budget.Attempt{
		Time: start.UTC(), Event: budget.RecordEvent, Run: r.runID, Attempt: n, Agent: r.agentID, Task: r.f.task,
		BudgetSession: r.sessionID, SessionID: a.stream.SessionID(), Command: filepath.Base(r.argv[0]),
		Turns: a.stream.Turns(), Tokens: usage, Budgeted: usage.Budgeted(), DurationMS: res.Duration.Milliseconds(),
		Outcome: outcome, Detail: detail, ExitCode: res.ExitCode, Signal: agent.SignalName(res.LastSignal),
		HeadBefore: headBefore, HeadAfter: headCommit(r.repo),
	}
	if result := a.stream.Result(); result != nil {
		rec.ResultSubtype = result.Subtype
		if result.HasCost {
			cost := result.CostUSD
			rec.CostUSD = &cost
		}
	}
	if err := audit.Append(filepath.Join(r.stateDir, audit.FileName), rec); err != nil {
		fmt.Fprintf(r.c.stderr, "swarm-guard run: the attempt was not recorded: %v\n", err)
	}
	if r.summary {
		r.out.attemptSummary(rec)
	}
	return outcome, detail
}

// judge decides how an attempt ended and says why.
func (a *attemptState) judge(res agent.Result) (budget.Outcome, string) {
	r := a.r
	switch res.Stopped {
	case agent.StopTimeout:
		a.stopped, a.detail = budget.OutcomeTimeout, fmt.Sprintf("the run reached its --timeout of %v", r.f.timeout)
	case agent.StopIdle:
		a.stopped, a.detail = budget.OutcomeIdle, fmt.Sprintf("the agent printed nothing for %v (--idle-timeout)", r.f.idle)
	case agent.StopCanceled:
		a.stopped, a.detail = budget.OutcomeInterrupted, "swarm-guard run was interrupted"
	}
	result := a.stream.Result()
	outcome := budget.Judge(budget.Ending{Stopped: a.stopped, ExitCode: res.ExitCode, Result: result, NeedResult: r.summary})
	if a.stopped == "" {
		// The hook denied the session's tool calls: whatever the agent
		// made of that, the budget ended its work.
		if kind := a.hookExhausted(); kind != "" {
			return budget.OutcomeToolBudget, "the hook denied tool calls: the " + kind.Describe() + " is used up ([budget] in " + policy.FileName + ")"
		}
	}
	if a.detail != "" {
		return outcome, a.detail
	}
	return outcome, endingDetail(res, result, r.summary)
}

// line accounts one line of the agent's output, shows it, and asks for a
// stop when a budget is passed.
func (a *attemptState) line(line []byte) bool {
	ev := a.stream.Line(line)
	a.r.out.show(ev, line, a.stream.Usage())
	if ev.Kind == budget.EventUser && a.stopped == "" && !a.r.hooksLive(line) {
		a.stopped, a.detail = budget.OutcomeUnguarded, "the agent ran a tool, but swarm-guard's hook never ran for this run: claude was started without its hooks (check --bare, --settings, --setting-sources and the hooks in .claude/settings.json; swarm-guard doctor)"
		return true
	}
	if ev.Kind != budget.EventAssistant && ev.Kind != budget.EventResult {
		return false
	}
	now := a.r.c.now()
	usage := a.stream.Usage()
	pending := usage.Sub(a.charged).Budgeted()
	lim := a.r.limits
	// Once stopping, the rest is recorded by the sync at the end of the
	// run, after the agent is gone.
	if a.stopped == "" {
		if err := a.r.shared.maybeSync(now, a.r.worker.Add(usage).Budgeted(), a.r.turns+a.stream.Turns(), a.r.c.stderr); err != nil {
			a.stopped, a.detail = budget.OutcomeStateError, err.Error()
			return true
		}
	}
	spent := budget.Spent{
		Turns:   a.stream.Turns(),
		Worker:  a.r.worker.Add(usage).Budgeted(),
		Task:    a.task + pending + a.r.shared.othersSpent(),
		Session: a.session + pending + a.r.shared.othersSessionSpent(),
	}
	if a.r.f.task == "" {
		spent.Task = 0
	}
	// Charge the ledger now and then, and whenever the estimate says a
	// shared budget may be passed: the other runs' spending is only known
	// after a charge.
	shared := budget.Limits{TaskTokens: lim.TaskTokens, SessionTokens: lim.SessionTokens}
	if pending != 0 && (now.Sub(a.lastCharge) >= chargeEvery || ev.Kind == budget.EventResult || shared.Check(spent) != nil) {
		if err := a.charge(now); err != nil {
			if a.stopped == "" {
				a.stopped, a.detail = budget.OutcomeStateError, err.Error()
				return true
			}
			return false
		}
		spent.Task, spent.Session = a.task+a.r.shared.othersSpent(), a.session+a.r.shared.othersSessionSpent()
		if a.r.f.task == "" {
			spent.Task = 0
		}
	}
	if a.stopped != "" || ev.Kind == budget.EventResult {
		return false // already stopping, or ending by itself
	}
	if ex := lim.Check(spent); ex != nil {
		a.stopped, a.detail = budget.ForBudget(ex.Budget), ex.String()+a.r.budgetHint(ex.Budget)
		return true
	}
	if ev.NewTurn {
		if kind := a.hookExhausted(); kind != "" {
			a.stopped, a.detail = budget.OutcomeToolBudget, "the hook denies tool calls: the "+kind.Describe()+" is used up"
			return true
		}
	}
	return false
}

// charge writes the attempt's usage not yet in the ledger.
func (a *attemptState) charge(now time.Time) error {
	usage := a.stream.Usage()
	delta := usage.Sub(a.charged)
	if delta.IsZero() {
		return nil
	}
	err := state.Update(a.r.ledger, func(l *budget.Ledger) error {
		a.task, a.session = l.Charge(a.r.f.task, delta, now.UTC())
		if s := a.r.f.session; s != "" {
			a.session = l.ChargeSwarm(s, delta, now.UTC())
		}
		return nil
	})
	if err != nil {
		return stateError(err)
	}
	a.charged, a.lastCharge = usage, now
	return nil
}

// hookExhausted asks the hook's state whether it has denied calls of this
// attempt's Claude Code session for a budget.
func (a *attemptState) hookExhausted() budget.Kind {
	sid := a.stream.SessionID()
	if !a.r.hookLimit || sid == "" {
		return ""
	}
	kind, err := sessionbudget.Exhausted(a.r.stateDir, sid)
	if err != nil {
		return "" // the hook reports its own state problems to the agent
	}
	return kind
}

// ledgerTotals reads the task's and the session's totals, the other
// clones' included.
func (r *runner) ledgerTotals() (task, session int64) {
	task, session = r.localTotals()
	return task + r.shared.othersSpent(), session + r.shared.othersSessionSpent()
}

// localTotals reads the task's and the session's totals in this clone's
// ledger (attemptState.task and .session, to which the other clones'
// spend is added when a budget is checked).
func (r *runner) localTotals() (task, session int64) {
	l, err := state.Read[budget.Ledger](r.ledger)
	if err != nil {
		return 0, 0 // the first charge reports the problem and stops the agent
	}
	task, session = l.Spent(r.f.task)
	if r.f.session != "" {
		session = l.SwarmSpent(r.f.session)
	}
	return task, session
}

// budgetHint says where a budget's limit comes from.
func (r *runner) budgetHint(k budget.Kind) string {
	switch k {
	case budget.TaskTokens:
		return " (task " + r.f.task + "; --task-tokens or [budget] task_tokens)"
	case budget.SessionTokens:
		if r.f.session != "" {
			return " (session " + r.f.session + " across clones; --session-tokens or [budget] session_tokens; a new --session name starts a new one)"
		}
		return " (session " + r.sessionID + "; swarm-guard budget reset starts a new one)"
	case budget.WorkerTokens:
		return " (--tokens or [budget] worker_tokens)"
	case budget.Turns:
		return " (--max-turns)"
	}
	return ""
}

// finish prints the run's last line and turns the outcome into the exit
// code.
func (r *runner) finish(outcome budget.Outcome, detail string) error {
	if err := r.shared.end(r.c.now(), r.worker.Budgeted(), r.turns, r.c.stderr); err != nil {
		fmt.Fprintf(r.c.stderr, "swarm-guard run: %v\n", err)
	}
	name := filepath.Base(r.argv[0])
	elapsed := r.c.now().Sub(r.started).Round(100 * time.Millisecond)
	switch outcome {
	case budget.OutcomeSuccess:
		fmt.Fprintf(r.c.stderr, "swarm-guard run: %s succeeded: %s in %v\n", name, budget.Count(r.worker.Budgeted())+" tokens", elapsed)
	case budget.OutcomeFailed:
		fmt.Fprintf(r.c.stderr, "swarm-guard run: %s failed: %s\n", name, detail)
	default:
		fmt.Fprintf(r.c.stderr, "swarm-guard run: stopped %s: %s\n", name, detail)
	}
	return silentExit(outcomeExit(outcome))
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

// endingDetail describes how an attempt ended by itself.
func endingDetail(res agent.Result, result *budget.Result, needResult bool) string {
	status := "exit status " + strconv.Itoa(res.ExitCode)
	if res.Signal != "" {
		status = "killed by " + res.Signal
	}
	switch {
	case result == nil && needResult:
		return status + " without a result"
	case result == nil:
		return status
	case result.Success() && res.ExitCode == 0:
		return ""
	}
	what := result.Subtype
	if result.IsError && result.Subtype == "success" {
		what = "an error result"
	}
	msg := strings.Join(result.Errors, "; ")
	if msg == "" && result.IsError {
		msg = result.Text
	}
	if msg != "" {
		what += ": " + oneLineText(msg, 160)
	}
	return what + " (" + status + ")"
}

// stateError adds what to do to a budget state error.
func stateError(err error) error {
	var ce *state.CorruptError
	if errors.As(err, &ce) {
		return fmt.Errorf("%v: inspect it, then run swarm-guard budget reset --force to move it aside and start from zero", err)
	}
	return fmt.Errorf("budget state: %w", err)
}

// isClaude reports whether a command is Claude Code's CLI.
func isClaude(cmd string) bool {
	base := filepath.Base(cmd)
	return base == "claude" || base == "claude.exe"
}

// claudeArgv adds what the wrapper needs to claude's arguments: stream-json
// output (which needs --verbose in print mode) and a --max-turns cap. It
// returns the new argv, claude's own --max-turns when it was given, and
// whether the output is stream-json (not when the caller chose text or
// json).
func claudeArgv(argv []string, maxTurns int64, maxTurnsSet bool) (out []string, own int64, streamJSON bool) {
	end := len(argv)
	for i, a := range argv[1:] {
		if a == "--" {
			end = i + 1
			break
		}
	}
	format, verbose := "", false
	hasTurns := false
	for i := 1; i < end; i++ {
		a := argv[i]
		val := ""
		name, v, hasVal := strings.Cut(a, "=")
		if hasVal {
			val = v
		} else if i+1 < end {
			val = argv[i+1]
		}
		switch name {
		case "--output-format":
			format = val
		case "--verbose":
			verbose = true
		case "--max-turns":
			hasTurns = true
			own, _ = strconv.ParseInt(val, 10, 64)
		}
	}
	var add []string
	if format == "" {
		add = append(add, "--output-format", "stream-json")
		format = "stream-json"
	}
	if format == "stream-json" && !verbose {
		add = append(add, "--verbose") // claude refuses stream-json in print mode without it
	}
	if !hasTurns {
		if !maxTurnsSet {
			maxTurns = defaultMaxTurns
		}
		if maxTurns > 0 {
			add = append(add, "--max-turns", strconv.FormatInt(maxTurns, 10))
		}
	}
	out = make([]string, 0, len(argv)+len(add))
	out = append(out, argv[:end]...)
	out = append(out, add...)
	out = append(out, argv[end:]...)
	return out, own, format == "stream-json"
}

// childEnv is the agent's environment: this process's, without
// credentials, with the run's identity.
func (r *runner) childEnv() []string {
	// Claude Code's own provider credentials (API key, gateway token,
	// Bedrock, Vertex) pass: the agent cannot reach its model without them.
	allow := append(slices.Clone(r.pol.Budget.EnvAllow), agent.ProviderCredentials(os.Environ())...)
	env, removed := agent.ScrubEnv(os.Environ(), allow)
	if len(removed) > 0 {
		fmt.Fprintf(r.c.stderr, "swarm-guard run: not passing %s to the agent (allow with [budget] env_allow)\n", strings.Join(removed, ", "))
	}
	env = agent.SetEnv(env, "SWARM_GUARD_AGENT_ID", r.agentID)
	env = agent.SetEnv(env, "SWARM_GUARD_SESSION", r.sessionID)
	env = agent.SetEnv(env, "SWARM_GUARD_RUN", r.runID)
	if r.f.task != "" {
		env = agent.SetEnv(env, "SWARM_GUARD_TASK", r.f.task)
	}
	// Trust is granted per run; an inherited SWARM_GUARD_TRUST=1 would
	// switch the guard off without anyone asking for it.
	env = agent.UnsetEnv(env, "SWARM_GUARD_TRUST")
	if r.f.trust {
		env = agent.SetEnv(env, "SWARM_GUARD_TRUST", "1")
	}
	// The hooks read the task's oversight from here; an inherited value
	// must not outlive the run that set it.
	env = agent.UnsetEnv(env, "SWARM_GUARD_OVERSIGHT")
	if r.f.oversight != "" {
		env = agent.SetEnv(env, "SWARM_GUARD_OVERSIGHT", r.f.oversight)
	}
	return env
}

// childStdin passes this process's standard input to the agent, unless it
// is a terminal: the agent runs in its own process group, and a
// background process reading the terminal would be stopped by SIGTTIN.
func childStdin(c *cli) *os.File {
	f, ok := c.stdin.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		return nil
	}
	return f
}

// runAgentID is the agent id a run passes down as SWARM_GUARD_AGENT_ID:
// the identity every other part of swarm-guard uses (hooks/identity):
// SWARM_GUARD_AGENT_ID, then AGENT_ID, then the branch when [identity]
// source = "branch", then the per-machine id.
func runAgentID(c *cli, repo *gitrepo.Repo, pol *policy.Policy) (string, error) {
	id, err := identity.Resolve(identity.Options{
		Getenv:    c.getenv,
		UseBranch: pol.Identity.Source == "branch",
		Branch:    identity.Branch(repo),
	})
	if err != nil {
		return "", fmt.Errorf("no agent id: %w", err)
	}
	return id.ID, nil
}

// newID makes a run or session id: a prefix, the UTC time and randomness.
func newID(prefix string, now time.Time) string {
	var b [4]byte
	rand.Read(b[:]) // crypto/rand.Read never fails
	return prefix + "-" + now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// headCommit is the commit HEAD points at, read from the git files ("" when
// unknown, as on an unborn branch). Records keep it so the report can ask
// git how many lines an attempt changed.
func headCommit(repo *gitrepo.Repo) string {
	if repo == nil {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(repo.GitDir, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(data))
	ref, ok := strings.CutPrefix(head, "ref:")
	if !ok {
		return validCommit(head)
	}
	ref = strings.TrimSpace(ref)
	if data, err := os.ReadFile(filepath.Join(repo.CommonDir, filepath.FromSlash(ref))); err == nil {
		return validCommit(strings.TrimSpace(string(data)))
	}
	packed, err := os.ReadFile(filepath.Join(repo.CommonDir, "packed-refs"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if id, name, ok := strings.Cut(line, " "); ok && name == ref {
			return validCommit(id)
		}
	}
	return ""
}

func validCommit(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return ""
	}
	if _, err := hex.DecodeString(s); err != nil {
		return ""
	}
	return s
}

// oneLineText folds whitespace and cuts s to at most n runes.
func oneLineText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
