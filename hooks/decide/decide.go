package decide

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/redact"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/hooks/sessionbudget"
	"github.com/swarm-guard/swarm-guard/policy"
)

// DefaultDeadline is the internal decision budget, far below the hook
// timeout written by install: a hook the client kills is a hook that
// allowed the call.
const DefaultDeadline = time.Second

// Facts is what the adapter gathered about the process around the event.
type Facts struct {
	// Getenv reads the environment the call runs in (nil: empty).
	Getenv func(string) string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Executables are the swarm-guard binaries, protected from the agent
	// (hookenv.GuardExecutables).
	Executables []string
	// Deadline bounds the decision; 0 means DefaultDeadline.
	Deadline time.Duration
	// PolicyFile, when set, is the policy to decide under instead of the
	// worktree's (check --policy).
	PolicyFile string
	// Policy, when set, is the policy to decide under, already loaded: it
	// wins over PolicyFile (replay decides ten thousand recorded calls
	// under one policy, loaded once).
	Policy *policy.Policy
	// Context, when set, is the worktree the call runs in, already
	// described (hookenv.Build with this event's cwd and Getenv's
	// CLAUDE_PROJECT_DIR): replay describes each of a history's few
	// worktrees once, not once per call.
	Context *hookenv.Context
	// Effects turns on what only the hook does besides deciding: the
	// audit log, the proof that `swarm-guard run`'s agent is guarded, the
	// record swarm-guard-post answers a write-free command's PostToolUse
	// with, the budget's counting and PostToolUse's file watcher. Without
	// it (check, replay) deciding leaves no trace on disk.
	Effects bool
	// Trace, when true, fills Answer.Trace with each step consulted.
	Trace bool
}

// Answer is the decision on one event.
type Answer struct {
	// Decision is what was decided: Action "" (no decision: the client's
	// own permissions apply), policy.Deny, policy.Ask, or a shadow mode's
	// policy.Warn (the call runs, the model reads Message beside it) or
	// policy.Log (the call runs silently), with the rule,
	// the reason, the trigger, the Instead (Alternative) and every finding.
	// On PostToolUse the tool already ran: Deny means "block", the
	// agent's cue to repair what the call did.
	guard.Decision
	// Message is the one line the agent reads (redacted); "" without a
	// decision.
	Message string
	// UpdatedOutput, on PostToolUse, is the tool's result as the model
	// must read it instead (lines holding a secret withheld); nil leaves
	// the result alone.
	UpdatedOutput json.RawMessage
	// Lifted names why a decision was let through: "allowed-fail-open"
	// (fail_mode = "open" and the guard failed), "trusted"
	// (SWARM_GUARD_TRUST=1 under trust_env) or "approved" (a human's
	// one-time approval of exactly this call, package approval). Action is then "" and Rule,
	// Reason and Alternative keep the decision that was lifted.
	Lifted string
	// Notes are lines for the person operating the agent (the client's
	// debug log), never for the model.
	Notes []string
	// Where the event was decided: the policy's source, the worktree
	// root and the working directory.
	Policy, Root, Cwd string
	// Trace lists each step consulted, when Facts.Trace asked for it.
	Trace []string
}

// Refuse is the answer to an event the adapter could not read at all:
// a denial under rule bad-input whose message is the given sentence.
func Refuse(message string) Answer {
	return Answer{Decision: guard.Decision{Action: policy.Deny, Rule: policy.RuleBadInput, Reason: message}, Message: "swarm-guard blocked this call (rule bad-input): " + message}
}

// InternalError is the answer when deciding panicked with r.
func InternalError(r any) Answer {
	return Answer{Decision: guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError},
		Message: fmt.Sprintf("swarm-guard blocked this call (rule internal-error): the guard failed internally (%v). Nothing ran; retry once, and report the failure if it repeats.", r)}
}

// Decide answers one event: the one decision function of swarm-guard.
// The hook, `check` and everything else that decides call it, so the same
// event gets the same decision everywhere. It never panics: a panic
// anywhere below becomes a denial naming the internal error.
func Decide(ev *event.Event, f Facts) (a Answer) {
	defer func() {
		if r := recover(); r != nil {
			a = InternalError(r)
		}
	}()
	if f.Getenv == nil {
		f.Getenv = func(string) string { return "" }
	}
	if f.Now == nil {
		f.Now = time.Now
	}
	if f.Deadline <= 0 {
		f.Deadline = DefaultDeadline
	}
	switch ev.HookEventName {
	case event.PreToolUse:
		return preToolUse(ev, f)
	case event.PostToolUse, event.PostToolUseFailure:
		return postToolUse(ev, f)
	case "":
		return Refuse("the hook input has no hook_event_name. Claude Code sends it with every event; check the hook command in .claude/settings.json.")
	}
	return Answer{} // events the guard has no say in
}

// JSONError words a JSON decoding error with its byte offset.
func JSONError(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v at byte %d", se, se.Offset)
	}
	return err.Error()
}

// session holds what one decision needs: environment, policy, audit.
type session struct {
	in     *event.Event
	f      Facts
	ctx    *hookenv.Context
	pol    *policy.Policy
	polErr error
	start  time.Time
	logErr error   // the audit log could not be written
	id     *string // the agent id, once resolved
	trace  []string
}

func newSession(in *event.Event, f Facts) *session {
	s := &session{in: in, f: f, start: f.Now()}
	cwd := in.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		if pd := f.Getenv("CLAUDE_PROJECT_DIR"); pd != "" {
			cwd = pd
		}
	}
	if s.ctx = f.Context; s.ctx == nil {
		s.ctx = BuildContext(cwd, f)
	}
	switch {
	case f.Policy != nil:
		s.pol = f.Policy
	case f.PolicyFile != "":
		s.pol, s.polErr = policy.LoadFile(f.PolicyFile)
	default:
		s.pol, s.polErr = policy.Load(s.ctx.Env.Root)
	}
	if s.polErr == nil {
		s.pol, s.polErr = s.pol.WithMode(f.Getenv(policy.ModeEnv)) // swarm-guard run --mode
	}
	if f.Getenv("SWARM_GUARD_RUN") != "" {
		s.ctx.Env.HomeBranch = f.Getenv("SWARM_GUARD_HOME_BRANCH")
	}
	if s.polErr == nil {
		s.ctx.Env.AgentID = s.agentID()
	}
	return s
}

// BuildContext describes the worktree a call in cwd runs in, as Decide
// does when Facts.Context is nil.
func BuildContext(cwd string, f Facts) *hookenv.Context {
	return hookenv.Build(hookenv.Options{Cwd: cwd, Home: hookenv.HomeDir(f.Getenv), ProjectDir: f.Getenv("CLAUDE_PROJECT_DIR"), Getenv: f.Getenv, Executables: f.Executables})
}

// tracef notes one step of the decision when the caller asked for a trace.
func (s *session) tracef(format string, args ...any) {
	if s.f.Trace {
		s.trace = append(s.trace, fmt.Sprintf(format, args...))
	}
}

func preToolUse(in *event.Event, f Facts) Answer {
	if in.Cwd == "" && f.Getenv("CLAUDE_PROJECT_DIR") == "" {
		return Refuse("the hook input has no cwd and CLAUDE_PROJECT_DIR is unset, so the guard cannot tell which worktree the call runs in.")
	}
	if !filepath.IsAbs(in.Cwd) && !filepath.IsAbs(f.Getenv("CLAUDE_PROJECT_DIR")) {
		return Refuse("the hook input's cwd " + strconv.Quote(in.Cwd) + " is not an absolute path and CLAUDE_PROJECT_DIR is unset, so the guard cannot tell which worktree the call runs in.")
	}
	s := newSession(in, f)
	if f.Effects {
		markLive(s.ctx.StateDir, f.Getenv("SWARM_GUARD_RUN"))
	}
	if s.polErr != nil {
		d := guard.Decision{Action: policy.Deny, Rule: policy.RulePolicyError,
			Reason: "the policy file is broken: " + s.polErr.Error(), Alternative: "a human must fix the policy (swarm-guard policy check shows the problem)"}
		return s.answer(d, "", "")
	}
	if guard.IsMCPTool(in.ToolName) {
		// MCP tools: the server's access, oversight, and the arguments
		// judged like shell commands (guard.CheckMCP), then the secrets
		// the arguments would hand the server (the content check).
		eng := guard.New(s.pol)
		d, ok := withDeadline(f.Deadline, func() guard.Decision {
			b := s.budget()
			if b.Stops() {
				return b
			}
			d := eng.CheckMCP(in.ToolName, in.ToolInput, s.ctx.Env)
			s.traceDecision("engine (MCP server access, oversight, arguments)", d)
			d = guard.Stronger(d, b)
			if !d.Stops() {
				c := contentCheck(in, s.ctx, s.pol, nil, secretsRunner(f.Deadline))
				s.traceDecision("secrets in the arguments", c)
				d = guard.Stronger(d, c)
			}
			return d
		})
		if !ok {
			d = guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError,
				Reason: fmt.Sprintf("the guard could not decide within %v", f.Deadline), Alternative: "retry the call with smaller arguments"}
		}
		return s.answer(d, "", "")
	}
	if !guard.KnownTool(in.ToolName) {
		// Other tools the engine has no model of still count
		// against the session budget.
		if d := s.budget(); d.Action != "" {
			return s.answer(d, "", "")
		}
		s.tracef("tool %s: the engine has no model of it; no decision", in.ToolName)
		return s.answer(guard.Decision{}, "", "")
	}
	ti, err := in.EngineInput()
	if err != nil {
		return s.answer(guard.Decision{Action: policy.Deny, Rule: policy.RuleBadInput,
			Reason: "tool_input of the " + in.ToolName + " call is malformed: " + JSONError(err), Alternative: "resend the call with a well-formed tool_input"}, "", "")
	}
	command, path := "", firstNonEmpty(ti.FilePath, ti.NotebookPath, ti.Path)
	if ti.Command != nil {
		command = *ti.Command
	}
	web := guard.IsWebTool(in.ToolName, ti)
	if web {
		command = guard.WebTarget(in.ToolName, ti) // the audit log's command column holds the URL or query, redacted
	}
	eng := guard.New(s.pol)
	if s.f.Trace && ti.Command != nil {
		// What the shell layer saw, from the walk that decides.
		eng = eng.Explaining(func(line string) { s.tracef("shell: %s", line) })
	}
	writesNothing := false // the engine's, before a content check's decision replaces it
	d, ok := withDeadline(f.Deadline, func() guard.Decision {
		b := s.budget()
		if b.Stops() {
			return b
		}
		d := eng.Check(in.ToolName, ti, s.ctx.Env)
		s.traceDecision("engine", d)
		writesNothing = d.WritesNothing()
		sent := d.SentURLs() // the engine's walk, for the content check
		d = guard.Stronger(d, b)
		if !d.Stops() && (event.IsWriteTool(in.ToolName) || web || ti.Command != nil && in.ToolName != guard.ToolPowerShell) {
			c := contentCheck(in, s.ctx, s.pol, sent, secretsRunner(f.Deadline))
			s.traceDecision("secrets in what the call writes or sends", c)
			d = guard.Stronger(d, c)
		}
		return d
	})
	if !ok {
		d = guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError,
			Reason: fmt.Sprintf("the guard could not decide within %v", f.Deadline), Alternative: "simplify the command or split it into smaller commands"}
	} else if f.Effects && !d.Stops() && in.ToolName == guard.ToolBash && ti.Command != nil && writesNothing {
		s.notePostFree(command)
	}
	return s.answer(d, command, path)
}

// traceDecision notes what one step decided, each finding included.
func (s *session) traceDecision(step string, d guard.Decision) {
	if !s.f.Trace {
		return
	}
	if d.Action == "" && len(d.Findings) == 0 {
		s.tracef("%s: no rule matched", step)
		return
	}
	if d.Action != "" && len(d.Findings) == 0 {
		s.tracef("%s: %s by rule %s: %s", step, d.Action, d.Rule, d.Reason)
	}
	for _, fi := range d.Findings {
		if fi.AllowedBy != "" {
			s.tracef("%s: rule %s matched, allowed by [[allow]] %q", step, fi.Rule, fi.AllowedBy)
			continue
		}
		s.tracef("%s: rule %s matched (%s): %s", step, fi.Rule, fi.Action, fi.Reason)
	}
}

// budget runs the [budget] check: counted only by the hook, whose calls
// are the session's.
func (s *session) budget() guard.Decision {
	if !s.f.Effects {
		return guard.Decision{}
	}
	d := sessionbudget.HookCheck(s.in, s.ctx, s.pol)
	if d.Action != "" {
		s.traceDecision("session budget", d)
	}
	return d
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// withDeadline runs f and gives up after d. A late result is dropped: the
// hook answers with a denial and exits, taking the goroutine with it.
func withDeadline(d time.Duration, f func() guard.Decision) (guard.Decision, bool) {
	ch := make(chan guard.Decision, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError,
					Reason: fmt.Sprintf("the guard failed internally (%v)", r), Alternative: "retry once; report the failure if it repeats"}
			}
		}()
		ch <- f()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case dec := <-ch:
		return dec, true
	case <-timer.C:
		return guard.Decision{}, false
	}
}

// answer turns a decision into the answer, applying fail_mode and the
// trust escape hatch, and records it.
func (s *session) answer(d guard.Decision, command, path string) Answer {
	a := s.respond(d, command, path)
	if s.logErr != nil {
		a.Notes = append(a.Notes, "swarm-guard: the decision was not written to the audit log ("+oneLine(s.logErr.Error())+"); check permissions of "+s.ctx.StateDir)
	}
	a.Root, a.Cwd, a.Trace = s.ctx.Env.Root, s.ctx.Env.Cwd, s.trace
	if s.pol != nil {
		a.Policy = s.pol.Source
	} else if s.f.PolicyFile != "" {
		a.Policy = s.f.PolicyFile
	}
	return a
}

func (s *session) respond(d guard.Decision, command, path string) Answer {
	failure := d.Rule == policy.RuleBadInput || d.Rule == policy.RuleInternalError
	if d.Stops() && failure && s.pol != nil && s.pol.FailMode == policy.FailOpen {
		s.record(d, command, path, "allowed-fail-open")
		lifted := d
		lifted.Action = ""
		return Answer{Decision: lifted, Lifted: "allowed-fail-open", Notes: []string{"swarm-guard: fail_mode is open, so this call was not blocked although " + oneLine(d.Reason)}}
	}
	if d.Stops() && s.trusted() {
		s.record(d, command, path, "trusted")
		lifted := d
		lifted.Action = ""
		return Answer{Decision: lifted, Lifted: "trusted", Notes: []string{"swarm-guard: SWARM_GUARD_TRUST=1, so this call was allowed although: " + oneLine(redact.String(d.Message()))}}
	}
	if lifted, ok := s.approval(&d, command, path); ok {
		s.record(lifted, command, path, "approved")
		lifted.Action = ""
		return Answer{Decision: lifted, Lifted: "approved"}
	}
	s.record(d, command, path)
	return Answer{Decision: d, Message: oneLine(redact.String(d.Message()))}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// trusted reports whether the trust escape hatch is open. A broken policy
// cannot open it.
func (s *session) trusted() bool {
	return s.pol != nil && s.polErr == nil && s.pol.TrustEnv && s.f.Getenv("SWARM_GUARD_TRUST") == "1"
}

// agentID is the agent's id for the audit log, resolved as for commit
// trailers. A failure to resolve it never changes the decision.
func (s *session) agentID() string {
	if s.id == nil {
		id := s.resolveAgentID()
		s.id = &id
	}
	return *s.id
}

func (s *session) resolveAgentID() string {
	id, err := identity.Resolve(identity.Options{
		Getenv:    s.f.Getenv,
		UseBranch: s.pol != nil && s.pol.Identity.Source == "branch",
		Branch:    identity.Branch(s.ctx.Repo),
	})
	if err != nil {
		return ""
	}
	return id.ID
}

// record appends the decision to the audit log, when the caller is the
// hook. A log that cannot be written never changes the decision; the
// answer notes it for the operator.
func (s *session) record(d guard.Decision, command, path string, override ...string) {
	if !s.f.Effects {
		return
	}
	action := string(d.Action)
	if action == "" {
		action = "allow"
	}
	if len(override) > 0 {
		action = override[0]
	}
	src := ""
	if s.pol != nil {
		src = s.pol.Source
	}
	would := ""
	if d.Action.Shadow() {
		would = string(d.WouldAction())
	}
	rec := audit.Record{
		Time: s.start.UTC().Format(time.RFC3339Nano), Event: s.in.HookEventName, SessionID: s.in.SessionID,
		AgentID: s.agentID(), SubagentID: s.in.AgentID, Client: s.in.Client, Tool: s.in.ToolName, Cwd: s.in.Cwd, Command: redact.String(truncate(command)),
		Path: path, Action: action, Would: would, Rule: d.Rule, Reason: redact.String(d.Reason), Policy: src,
		Micros: s.f.Now().Sub(s.start).Microseconds(),
	}
	if err := audit.Append(filepath.Join(s.ctx.StateDir, audit.FileName), rec); err != nil {
		s.logErr = err
	}
}

func truncate(s string) string {
	const max = 4096
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// markLive records that the guard's hook runs in the agent that
// swarm-guard run started (SWARM_GUARD_RUN): run stops an agent whose tool
// results arrive without this proof. One stat per call once it exists.
func markLive(stateDir, run string) {
	if run == "" || stateDir == "" {
		return
	}
	p := filepath.Join(stateDir, "live", filepath.Base(run))
	if _, err := os.Stat(p); err == nil {
		return
	}
	if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
		_ = os.WriteFile(p, nil, 0o644) // best effort: without it, run stops the agent and says why
	}
}
