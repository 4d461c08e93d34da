package agentrun

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/hooks/internal/state"
	"github.com/swarm-guard/swarm-guard/hooks/sessionbudget"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Defaults of the run flags that have no policy key.
const (
	DefaultMaxTurns    = 100
	DefaultIdleTimeout = 30 * time.Minute
	DefaultBackoff     = 10 * time.Second
	maxBackoff         = 10 * time.Minute
	// chargeEvery bounds how often one run writes the ledger: often enough
	// that parallel runs of a task see each other's spending, rarely
	// enough that a fast stream is not slowed down by file locking.
	chargeEvery = 250 * time.Millisecond
)

// ErrUsage marks a mistake in how swarm-guard run or budget was called
// (a flag's value, --mcp for an agent other than claude): its message
// starts "usage: ", and the CLI adds where the usage is.
var ErrUsage = errors.New("usage")

// LedgerFile is the wrapper's budget state in the state directory.
const LedgerFile = "budget.json"

// Flags are the flags of swarm-guard run (cmd/swarm-guard parses them,
// with the policy's defaults).
type Flags struct {
	MaxTurns      int64
	MaxTurnsSet   bool // --max-turns was given (else claude's own, or DefaultMaxTurns)
	Timeout       time.Duration
	Idle          time.Duration
	Grace         time.Duration
	Attempts      int
	Backoff       time.Duration
	Tokens        int64
	Task          string
	TaskTokens    int64
	Session       string // --session: the swarm session; "" for the machine's
	SessionTokens int64
	Trust         bool
	MCP           []string // --mcp: the only MCP servers the agent gets
	Oversight     string   // --oversight: who merges, for this task
	Mode          string   // --mode: the policy-wide mode for this run
	Argv          []string // the agent's command line
}

// Env is the process run runs in.
type Env struct {
	Stdin      io.Reader
	Stdout     io.Writer
	Stderr     io.Writer
	Getenv     func(string) string
	Now        func() time.Time
	Executable func() (string, error) // swarm-guard itself, for the agent's hooks
}

// Workspace is where the run happens: the git worktree around the working
// directory (nil outside one), the root the policy was read from, and that
// policy (hookenv.RepoPolicy).
type Workspace struct {
	Repo   *gitrepo.Repo
	Root   string
	Policy *policy.Policy
}

// runner is one invocation of swarm-guard run.
type runner struct {
	c         Env
	f         *Flags
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

// Run runs the agent of f.Argv under the run's budgets, in ws, and
// returns how the run ended; the caller turns that into the exit code.
// It prints its own report on c.Stderr. A run that does not start
// returns an error: with budget.OutcomeUnguarded when claude would have
// run without the guard's hooks, else with no outcome (a usage error's
// message starts with "usage:").
func Run(c Env, ws Workspace, f *Flags) (budget.Outcome, error) {
	r, err := newRunner(c, ws, f)
	if err != nil {
		var u *unguardedError
		if errors.As(err, &u) {
			return budget.OutcomeUnguarded, err
		}
		return "", err
	}
	// Open the budget session and count the run before anything starts, so
	// that a corrupt ledger or a spent budget stops the run here.
	if ex, err := r.openLedger(); err != nil {
		return "", err
	} else if ex != nil {
		fmt.Fprintf(c.Stderr, "swarm-guard run: not starting %s: %s%s\n", filepath.Base(r.argv[0]), ex, r.budgetHint(ex.Budget))
		return budget.ForBudget(ex.Budget), nil
	}
	if r.f.Trust && !r.pol.TrustEnv {
		fmt.Fprintf(c.Stderr, "swarm-guard run: --trust has no effect: the policy sets trust_env = false\n")
	}
	r.env = r.childEnv()
	r.out = newRunOutput(c.Stdout, c.Now)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	outcome, detail := r.attempts(ctx)
	r.finish(outcome, detail)
	return outcome, nil
}

// newRunner reads the identity of a run and prepares the agent's command.
func newRunner(c Env, ws Workspace, f *Flags) (*runner, error) {
	repo, root, pol := ws.Repo, ws.Root, ws.Policy
	commonDir := ""
	if repo != nil {
		commonDir = repo.CommonDir
	}
	if _, err := agent.LookPath(f.Argv[0]); err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner // drop exec's repetition of the name
		}
		return nil, fmt.Errorf("cannot run %s: %v", f.Argv[0], err)
	}
	r := &runner{c: c, f: f, pol: pol, repo: repo, stateDir: audit.Dir(commonDir, c.Getenv), started: c.Now(), argv: f.Argv}
	r.ledger = filepath.Join(r.stateDir, LedgerFile)
	r.runID = newID("r", r.started)
	id, err := identity.InWorktree(c.Getenv, repo, pol)
	if err != nil {
		return nil, fmt.Errorf("no agent id: %w", err)
	}
	r.agentID = id.ID
	r.hookLimit = pol.Budget.MaxToolCalls > 0 || pol.Budget.MaxTokens > 0
	r.limits = budget.Limits{Turns: f.MaxTurns, WorkerTokens: f.Tokens, TaskTokens: f.TaskTokens, SessionTokens: f.SessionTokens}
	if isClaude(f.Argv[0]) {
		var claudeTurns int64
		r.argv, claudeTurns, r.summary = claudeArgv(f.Argv, f.MaxTurns, f.MaxTurnsSet)
		if !f.MaxTurnsSet && claudeTurns > 0 {
			r.limits.Turns = claudeTurns
		}
	} else if !f.MaxTurnsSet {
		r.limits.Turns = 0 // only stream-json has turns, and only an explicit cap applies to other programs
	}
	if f.Task == "" {
		r.limits.TaskTokens = 0
	}
	if err := r.restrictMCP(root); err != nil {
		return nil, err
	}
	if err := r.guardAgent(root); err != nil {
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
		task, session := l.Spent(r.f.Task)
		task += r.shared.othersSpent()
		r.sessionID = l.Session.ID
		if r.f.Session != "" {
			r.sessionID = r.f.Session
			session = l.SwarmSpent(r.f.Session) + r.shared.othersSessionSpent()
		}
		r.shared.setSession(r.sessionID)
		if ex = r.limits.Reached(budget.Spent{Task: task, Session: session}); ex == nil {
			l.StartRun(r.f.Task, r.started.UTC())
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
	if r.f.Timeout > 0 {
		deadline = r.started.Add(r.f.Timeout)
	}
	for n := 1; ; n++ {
		lim := agent.Limits{IdleTimeout: r.f.Idle, Grace: r.f.Grace}
		if !deadline.IsZero() {
			lim.Timeout = deadline.Sub(r.c.Now())
			if lim.Timeout <= 0 {
				return budget.OutcomeTimeout, fmt.Sprintf("the run reached its --timeout of %v", r.f.Timeout)
			}
		}
		if n > 1 {
			// A failed attempt may have used up a budget without passing
			// it while running (the result's final count, say); the
			// other clones' spend is synced first.
			if err := r.shared.syncNow(r.c.Now(), r.worker.Budgeted(), r.turns, r.c.Stderr); err != nil {
				return budget.OutcomeStateError, err.Error()
			}
			task, session := r.ledgerTotals()
			spent := budget.Spent{Worker: r.worker.Budgeted(), Task: task, Session: session}
			if ex := r.limits.Reached(spent); ex != nil {
				return budget.ForBudget(ex.Budget), ex.String() + r.budgetHint(ex.Budget)
			}
		}
		outcome, detail := r.attempt(ctx, n, lim)
		if !outcome.Retryable() || n >= r.f.Attempts {
			if outcome == budget.OutcomeFailed && r.f.Attempts > 1 {
				detail = fmt.Sprintf("failed on all %d attempts; the last one: %s", r.f.Attempts, detail)
			}
			return outcome, detail
		}
		wait := backoffDelay(r.f.Backoff, n)
		if !deadline.IsZero() {
			if left := deadline.Sub(r.c.Now()); wait > left {
				wait = max(left, 0)
			}
		}
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: attempt %d of %d failed (%s); retrying in %v\n", n, r.f.Attempts, detail, wait.Round(time.Millisecond))
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
	start := r.c.Now()
	headBefore := headCommit(r.repo)
	if r.f.Attempts > 1 {
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: attempt %d of %d\n", n, r.f.Attempts)
	}
	r.out.begin(start, r.summary)
	res, err := agent.Run(ctx, agent.Command{
		Path: r.argv[0], Args: r.argv[1:], Env: r.env, Stdin: childStdin(r.c), Stderr: r.c.Stderr,
	}, lim, a.line)
	r.out.end()
	if err != nil {
		// The program was found before the run, so this is something
		// passing (a busy executable, a full process table): a failure
		// like any other.
		res = agent.Result{ExitCode: -1}
		a.detail = err.Error()
	}
	if err := a.charge(r.c.Now()); err != nil && a.stopped == "" {
		a.stopped, a.detail = budget.OutcomeStateError, err.Error()
	}
	outcome, detail := a.judge(res)
	if res.Orphans {
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: stopped processes the agent left behind in its process group\n")
	}
	usage := a.stream.Usage()
	r.worker = r.worker.Add(usage)
	r.turns += a.stream.Turns()
	rec := budget.Attempt{
		Time: start.UTC(), Event: budget.RecordEvent, Run: r.runID, Attempt: n, Agent: r.agentID, Task: r.f.Task,
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
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: the attempt was not recorded: %v\n", err)
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
		a.stopped, a.detail = budget.OutcomeTimeout, fmt.Sprintf("the run reached its --timeout of %v", r.f.Timeout)
	case agent.StopIdle:
		a.stopped, a.detail = budget.OutcomeIdle, fmt.Sprintf("the agent printed nothing for %v (--idle-timeout)", r.f.Idle)
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
	now := a.r.c.Now()
	usage := a.stream.Usage()
	pending := usage.Sub(a.charged).Budgeted()
	lim := a.r.limits
	// Once stopping, the rest is recorded by the sync at the end of the
	// run, after the agent is gone.
	if a.stopped == "" {
		if err := a.r.shared.maybeSync(now, a.r.worker.Add(usage).Budgeted(), a.r.turns+a.stream.Turns(), a.r.c.Stderr); err != nil {
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
	if a.r.f.Task == "" {
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
		if a.r.f.Task == "" {
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
		a.task, a.session = l.Charge(a.r.f.Task, delta, now.UTC())
		if s := a.r.f.Session; s != "" {
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
	task, session = l.Spent(r.f.Task)
	if r.f.Session != "" {
		session = l.SwarmSpent(r.f.Session)
	}
	return task, session
}

// budgetHint says where a budget's limit comes from.
func (r *runner) budgetHint(k budget.Kind) string {
	switch k {
	case budget.TaskTokens:
		return " (task " + r.f.Task + "; --task-tokens or [budget] task_tokens)"
	case budget.SessionTokens:
		if r.f.Session != "" {
			return " (session " + r.f.Session + " across clones; --session-tokens or [budget] session_tokens; a new --session name starts a new one)"
		}
		return " (session " + r.sessionID + "; swarm-guard budget reset starts a new one)"
	case budget.WorkerTokens:
		return " (--tokens or [budget] worker_tokens)"
	case budget.Turns:
		return " (--max-turns)"
	}
	return ""
}

// finish prints the run's last line.
func (r *runner) finish(outcome budget.Outcome, detail string) {
	if err := r.shared.end(r.c.Now(), r.worker.Budgeted(), r.turns, r.c.Stderr); err != nil {
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: %v\n", err)
	}
	name := filepath.Base(r.argv[0])
	elapsed := r.c.Now().Sub(r.started).Round(100 * time.Millisecond)
	switch outcome {
	case budget.OutcomeSuccess:
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: %s succeeded: %s in %v\n", name, budget.Count(r.worker.Budgeted())+" tokens", elapsed)
	case budget.OutcomeFailed:
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: %s failed: %s\n", name, detail)
	default:
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: stopped %s: %s\n", name, detail)
	}
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
			maxTurns = DefaultMaxTurns
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
		fmt.Fprintf(r.c.Stderr, "swarm-guard run: not passing %s to the agent (allow with [budget] env_allow)\n", strings.Join(removed, ", "))
	}
	env = agent.SetEnv(env, "SWARM_GUARD_AGENT_ID", r.agentID)
	env = agent.SetEnv(env, "SWARM_GUARD_SESSION", r.sessionID)
	env = agent.SetEnv(env, "SWARM_GUARD_RUN", r.runID)
	if r.f.Task != "" {
		env = agent.SetEnv(env, "SWARM_GUARD_TASK", r.f.Task)
	}
	// Trust is granted per run; an inherited SWARM_GUARD_TRUST=1 would
	// switch the guard off without anyone asking for it.
	env = agent.UnsetEnv(env, "SWARM_GUARD_TRUST")
	if r.f.Trust {
		env = agent.SetEnv(env, "SWARM_GUARD_TRUST", "1")
	}
	// The hooks read the task's oversight from here; an inherited value
	// must not outlive the run that set it.
	env = agent.UnsetEnv(env, "SWARM_GUARD_OVERSIGHT")
	if r.f.Oversight != "" {
		env = agent.SetEnv(env, "SWARM_GUARD_OVERSIGHT", r.f.Oversight)
	}
	// The same for the mode (hooks and git hooks read it): shadow mode
	// is per run.
	env = agent.UnsetEnv(env, policy.ModeEnv)
	if r.f.Mode != "" {
		env = agent.SetEnv(env, policy.ModeEnv, r.f.Mode)
	}
	return env
}

// childStdin passes this process's standard input to the agent, unless it
// is a terminal: the agent runs in its own process group, and a
// background process reading the terminal would be stopped by SIGTTIN.
func childStdin(c Env) *os.File {
	f, ok := c.Stdin.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		return nil
	}
	return f
}

// newID makes a run or session id: a prefix, the UTC time and randomness.
func newID(prefix string, now time.Time) string {
	var b [4]byte
	rand.Read(b[:]) // crypto/rand.Read never fails
	return prefix + "-" + now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// headCommit is the commit HEAD points at ("" when unknown, as on an
// unborn branch). Records keep it so the report can ask git how many lines
// an attempt changed.
func headCommit(repo *gitrepo.Repo) string {
	if repo == nil {
		return ""
	}
	id, _ := repo.Head()
	return id
}

// oneLineText folds whitespace and cuts s to at most n runes.
func oneLineText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
