package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/redact"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/hooks/jsonobj"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/toolcontent"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Protocol exit codes.
const (
	ExitNoDecision = 0 // the call goes through Claude Code's normal permission flow
	ExitDeny       = 2 // the call is blocked; stderr is the reason the agent reads
)

// MaxInputBytes bounds what is read from stdin. A Write of a large file is
// the biggest legitimate payload.
const MaxInputBytes = 32 << 20

// DefaultDeadline is the internal decision budget, far below the hook
// timeout written by install: a hook Claude Code kills is a hook that
// allowed the call.
const DefaultDeadline = time.Second

// Runtime is what a hook invocation gets from its process.
type Runtime struct {
	Stdin       io.Reader
	Getenv      func(string) string
	Now         func() time.Time
	Executables []string      // the swarm-guard binaries, protected from the agent
	Deadline    time.Duration // 0 means DefaultDeadline
	// PostToolUse handles PostToolUse events (the secret scan). Nil means
	// no decision.
	PostToolUse func(in *Input, ctx *hookenv.Context, pol *policy.Policy) Response
	// ContentCheck scans what a Write/Edit would write and what an MCP
	// call would hand its server, after the path rules
	// passed, and the URL or query a WebFetch, WebSearch or Monitor ws
	// call, or a Bash command's curl, would send, after the engine passed
	// the call. Nil means no content scanning.
	ContentCheck func(in *Input, ctx *hookenv.Context, pol *policy.Policy) guard.Decision
	// BudgetCheck enforces the policy's [budget] limits before the engine
	// runs. Nil means no budget check.
	BudgetCheck func(in *Input, ctx *hookenv.Context, pol *policy.Policy) guard.Decision
}

// Response is the hook's answer.
type Response struct {
	Exit   int
	Stdout string
	Stderr string
}

func deny(msg string) Response {
	return Response{Exit: ExitDeny, Stderr: oneLine(msg) + "\n"}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Handle answers one hook event. It never panics: a panic anywhere below
// becomes a denial naming the internal error.
func Handle(rt Runtime) (resp Response) {
	defer func() {
		if r := recover(); r != nil {
			resp = deny(fmt.Sprintf("swarm-guard blocked this call (rule internal-error): the guard failed internally (%v). Nothing ran; retry once, and report the failure if it repeats.", r))
		}
	}()
	if rt.Getenv == nil {
		rt.Getenv = func(string) string { return "" }
	}
	if rt.Now == nil {
		rt.Now = time.Now
	}
	if rt.Deadline <= 0 {
		rt.Deadline = DefaultDeadline
	}
	data, err := io.ReadAll(io.LimitReader(rt.Stdin, MaxInputBytes+1))
	switch {
	case err != nil:
		return deny("swarm-guard blocked this call (rule bad-input): could not read the hook input: " + err.Error() + ". Claude Code must send the event JSON on stdin.")
	case len(bytes.TrimSpace(data)) == 0:
		return deny("swarm-guard blocked this call (rule bad-input): the hook input on stdin was empty. Run swarm-guard hook only from Claude Code, which sends the event as JSON on stdin.")
	case len(data) > MaxInputBytes:
		return deny(fmt.Sprintf("swarm-guard blocked this call (rule bad-input): the hook input is over %d MiB. Split the write into smaller files.", MaxInputBytes>>20))
	}
	var in Input
	if err := DecodeInput(data, &in); err != nil {
		return deny("swarm-guard blocked this call (rule bad-input): the hook input is not valid JSON (" + jsonError(err) + "). Claude Code sends one JSON object per hook call.")
	}
	switch in.HookEventName {
	case EventPreToolUse:
		return preToolUse(&in, rt)
	case EventPostToolUse, EventPostToolUseFailure:
		return postToolUse(&in, rt)
	case "":
		return deny("swarm-guard blocked this call (rule bad-input): the hook input has no hook_event_name. Claude Code sends it with every event; check the hook command in .claude/settings.json.")
	}
	return Response{Exit: ExitNoDecision} // events the guard has no say in
}

func jsonError(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v at byte %d", se, se.Offset)
	}
	return err.Error()
}

// session holds what one decision needs: environment, policy, audit.
type session struct {
	in     *Input
	rt     Runtime
	ctx    *hookenv.Context
	pol    *policy.Policy
	polErr error
	start  time.Time
	logErr error   // the audit log could not be written
	id     *string // the agent id, once resolved
}

func newSession(in *Input, rt Runtime) *session {
	s := &session{in: in, rt: rt, start: rt.Now()}
	cwd := in.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		if pd := rt.Getenv("CLAUDE_PROJECT_DIR"); pd != "" {
			cwd = pd
		}
	}
	s.ctx = hookenv.Build(hookenv.Options{Cwd: cwd, Home: hookenv.HomeDir(rt.Getenv), ProjectDir: rt.Getenv("CLAUDE_PROJECT_DIR"), Getenv: rt.Getenv, Executables: rt.Executables})
	s.pol, s.polErr = policy.Load(s.ctx.Env.Root)
	if s.polErr == nil {
		s.pol, s.polErr = s.pol.WithMode(rt.Getenv(policy.ModeEnv)) // swarm-guard run --mode
	}
	if rt.Getenv("SWARM_GUARD_RUN") != "" {
		s.ctx.Env.HomeBranch = rt.Getenv("SWARM_GUARD_HOME_BRANCH")
	}
	if s.polErr == nil {
		s.ctx.Env.AgentID = s.agentID()
	}
	return s
}

func preToolUse(in *Input, rt Runtime) Response {
	if in.Cwd == "" && rt.Getenv("CLAUDE_PROJECT_DIR") == "" {
		return deny("swarm-guard blocked this call (rule bad-input): the hook input has no cwd and CLAUDE_PROJECT_DIR is unset, so the guard cannot tell which worktree the call runs in.")
	}
	if !filepath.IsAbs(in.Cwd) && !filepath.IsAbs(rt.Getenv("CLAUDE_PROJECT_DIR")) {
		return deny("swarm-guard blocked this call (rule bad-input): the hook input's cwd " + strconv.Quote(in.Cwd) + " is not an absolute path and CLAUDE_PROJECT_DIR is unset, so the guard cannot tell which worktree the call runs in.")
	}
	s := newSession(in, rt)
	markLive(s.ctx.StateDir, rt.Getenv("SWARM_GUARD_RUN"))
	if s.polErr != nil {
		d := guard.Decision{Action: policy.Deny, Rule: policy.RulePolicyError,
			Reason: "the policy file is broken: " + s.polErr.Error(), Alternative: "a human must fix the policy (swarm-guard policy check shows the problem)"}
		return s.answer(d, "", "")
	}
	if guard.IsMCPTool(in.ToolName) {
		// MCP tools: the server's access, oversight, and the arguments
		// judged like shell commands (guard.CheckMCP), then the secrets
		// the arguments would hand the server (ContentCheck).
		eng := guard.New(s.pol)
		d, ok := withDeadline(rt.Deadline, func() guard.Decision {
			b := s.budget()
			if b.Stops() {
				return b
			}
			d := guard.Stronger(eng.CheckMCP(in.ToolName, in.ToolInput, s.ctx.Env), b)
			if !d.Stops() && rt.ContentCheck != nil {
				d = guard.Stronger(d, rt.ContentCheck(in, s.ctx, s.pol))
			}
			return d
		})
		if !ok {
			d = guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError,
				Reason: fmt.Sprintf("the guard could not decide within %v", rt.Deadline), Alternative: "retry the call with smaller arguments"}
		}
		return s.answer(d, "", "")
	}
	if !guard.KnownTool(in.ToolName) {
		// Other tools the engine has no model of still count
		// against the session budget.
		if d := s.budget(); d.Action != "" {
			return s.answer(d, "", "")
		}
		s.record(guard.Decision{}, "", "")
		return Response{Exit: ExitNoDecision}
	}
	ti, err := decodeToolInput(in)
	if err != nil {
		return s.answer(guard.Decision{Action: policy.Deny, Rule: policy.RuleBadInput,
			Reason: "tool_input of the " + in.ToolName + " call is malformed: " + jsonError(err), Alternative: "resend the call with a well-formed tool_input"}, "", "")
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
	writesNothing := false // the engine's, before a content check's decision replaces it
	d, ok := withDeadline(rt.Deadline, func() guard.Decision {
		b := s.budget()
		if b.Stops() {
			return b
		}
		d := eng.Check(in.ToolName, ti, s.ctx.Env)
		writesNothing = d.WritesNothing()
		d = guard.Stronger(d, b)
		if !d.Stops() && rt.ContentCheck != nil && (isWriteTool(in.ToolName) || web || ti.Command != nil && in.ToolName != guard.ToolPowerShell) {
			d = guard.Stronger(d, rt.ContentCheck(in, s.ctx, s.pol))
		}
		return d
	})
	if !ok {
		d = guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError,
			Reason: fmt.Sprintf("the guard could not decide within %v", rt.Deadline), Alternative: "simplify the command or split it into smaller commands"}
	} else if !d.Stops() && in.ToolName == guard.ToolBash && ti.Command != nil && writesNothing {
		s.notePostFree(command)
	}
	return s.answer(d, command, path)
}

// decodeToolInput decodes the tool_input for the engine. A file tool's
// input is decoded once for the engine and the content check (a Write of
// 10 KB costs about 0.1 ms per decoding): the content check's part goes
// to in.File.
func decodeToolInput(in *Input) (guard.ToolInput, error) {
	if !isWriteTool(in.ToolName) || len(in.ToolInput) == 0 || string(in.ToolInput) == "null" {
		return DecodeToolInput(in.ToolInput)
	}
	if ti, body, ok := decodeWrite(in.ToolInput); ok {
		in.File = &toolcontent.Decoded{FilePath: ti.FilePath, Body: body}
		return ti, nil
	}
	var both struct {
		guard.ToolInput
		toolcontent.Body
	}
	if err := json.Unmarshal(in.ToolInput, &both); err != nil {
		return guard.ToolInput{}, err
	}
	in.File = &toolcontent.Decoded{FilePath: both.FilePath, NotebookPath: both.NotebookPath, Body: both.Body}
	return both.ToolInput, nil
}

// decodeWrite reads a Write call's tool_input ({"file_path": ...,
// "content": ...}) without reflection, as decodeToolInput's json.Unmarshal
// would; ok is false for any other shape.
func decodeWrite(raw json.RawMessage) (ti guard.ToolInput, body toolcontent.Body, ok bool) {
	ok = jsonobj.Members(raw, func(key string, v []byte) bool {
		switch {
		case jsonobj.Is(key, "file_path"):
			return jsonobj.SetString(v, &ti.FilePath)
		case jsonobj.Is(key, "content"):
			return jsonobj.SetString(v, &body.Content)
		}
		return false
	})
	return ti, body, ok
}

// budget runs the [budget] check, if the runtime has one.
func (s *session) budget() guard.Decision {
	if s.rt.BudgetCheck == nil {
		return guard.Decision{}
	}
	return s.rt.BudgetCheck(s.in, s.ctx, s.pol)
}

func isWriteTool(name string) bool {
	switch name {
	case guard.ToolWrite, guard.ToolEdit, guard.ToolMultiEdit, guard.ToolNotebookEdit:
		return true
	}
	return false
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

// answer turns a decision into the protocol response, applying fail_mode
// and the trust escape hatch, and records it.
func (s *session) answer(d guard.Decision, command, path string) Response {
	r := s.respond(d, command, path)
	if s.logErr != nil {
		r.Stderr += "swarm-guard: the decision was not written to the audit log (" + oneLine(s.logErr.Error()) + "); check permissions of " + s.ctx.StateDir + "\n"
	}
	return r
}

func (s *session) respond(d guard.Decision, command, path string) Response {
	failure := d.Rule == policy.RuleBadInput || d.Rule == policy.RuleInternalError
	if d.Stops() && failure && s.pol != nil && s.pol.FailMode == policy.FailOpen {
		s.record(d, command, path, "allowed-fail-open")
		return Response{Exit: ExitNoDecision, Stderr: "swarm-guard: fail_mode is open, so this call was not blocked although " + oneLine(d.Reason) + "\n"}
	}
	if d.Stops() && s.trusted() {
		s.record(d, command, path, "trusted")
		return Response{Exit: ExitNoDecision, Stderr: "swarm-guard: SWARM_GUARD_TRUST=1, so this call was allowed although: " + oneLine(redact.String(d.Message())) + "\n"}
	}
	if lifted, ok := s.approval(&d, command, path); ok {
		s.record(lifted, command, path, "approved")
		return Response{Exit: ExitNoDecision}
	}
	s.record(d, command, path)
	switch d.Action {
	case policy.Deny:
		return deny(redact.String(d.Message()))
	case policy.Ask:
		return Response{Exit: ExitNoDecision, Stdout: askJSON(redact.String(d.Message()))}
	case policy.Warn:
		// The call runs; the model reads the warning beside it
		// (PreToolUse additionalContext: e2e warn-mode). No
		// permissionDecision: the hook never grants what the
		// client's own permission rules would not.
		return Response{Exit: ExitNoDecision, Stdout: contextJSON(redact.String(d.Message()))}
	}
	return Response{Exit: ExitNoDecision} // no decision, or log mode: silent
}

// trusted reports whether the trust escape hatch is open. A broken policy
// cannot open it.
func (s *session) trusted() bool {
	return s.pol != nil && s.polErr == nil && s.pol.TrustEnv && s.rt.Getenv("SWARM_GUARD_TRUST") == "1"
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
		Getenv:    s.rt.Getenv,
		UseBranch: s.pol != nil && s.pol.Identity.Source == "branch",
		Branch:    identity.Branch(s.ctx.Repo),
	})
	if err != nil {
		return ""
	}
	return id.ID
}

// record appends the decision to the audit log. A log that cannot be
// written never changes the decision; the hook says so on stderr, which
// Claude Code keeps in its debug log.
func (s *session) record(d guard.Decision, command, path string, override ...string) {
	action := string(d.Action)
	if action == "" {
		action = "allow"
	}
	if len(override) > 0 {
		action = override[0]
	}
	would := ""
	if d.Action.Shadow() {
		would = string(d.WouldAction())
	}
	src := ""
	if s.pol != nil {
		src = s.pol.Source
	}
	rec := audit.Record{
		Time: s.start.UTC().Format(time.RFC3339Nano), Event: s.in.HookEventName, SessionID: s.in.SessionID,
		AgentID: s.agentID(), SubagentID: s.in.AgentID, Tool: s.in.ToolName, Cwd: s.in.Cwd, Command: redact.String(truncate(command)),
		Path: path, Action: action, Would: would, Rule: d.Rule, Reason: redact.String(d.Reason), Policy: src,
		Micros: s.rt.Now().Sub(s.start).Microseconds(),
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
