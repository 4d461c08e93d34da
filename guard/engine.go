package guard

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

// MaxCommandBytes bounds the commands the engine reads: a Bash command
// longer than this is refused. The walk's own limits (nesting depth,
// syntax nodes visited) are shell.MaxDepth and shell.MaxNodes; inputs
// beyond any of them are denied, never analysed partially.
const MaxCommandBytes = 256 << 10

// Engine decides whether a tool call may run. It is pure: it never runs
// processes, reads the environment or the clock, and touches the file
// system only through the Env it is given.
type Engine struct {
	pol    *policy.Policy
	vendor vendorPacks // the vendor packs [packs] enable turns on
	// explain, when set (Explaining), is told what the walk of each
	// command CheckCommand decides sees, as Explain describes it.
	explain func(line string)
}

// New returns an engine for a validated policy.
func New(p *policy.Policy) *Engine {
	return &Engine{pol: p, vendor: newVendorPacks(p)}
}

// Policy returns the policy the engine enforces.
func (e *Engine) Policy() *policy.Policy { return e.pol }

// Repo answers questions about git repositories that the engine cannot
// answer from the command text alone. Implementations read .git files; they
// must not spawn git.
type Repo interface {
	// BranchAt returns the checked-out branch of the worktree containing dir.
	BranchAt(dir string) (branch string, ok bool)
	// HasBranch reports whether the repository containing dir has a local branch name.
	HasBranch(dir, name string) bool
	// Exists reports whether a path exists.
	Exists(path string) bool
}

// Env is everything the engine knows about the world around a tool call.
// Paths are absolute and cleaned.
type Env struct {
	Cwd string // the agent's working directory
	// Root is the agent's home worktree: the git top level the agent started
	// in (CLAUDE_PROJECT_DIR's worktree, or where swarm-guard run started),
	// not the one containing Cwd. Every path rule is measured against it.
	Root   string
	Home   string
	Temp   string // the system temp directory
	Branch string // branch checked out in Root; "" when detached or unknown
	// Detached says Branch is empty because HEAD is detached, not unknown:
	// a bare git push then pushes nothing.
	Detached bool

	GitDir         string   // the worktree's git dir (Root/.git, or .git/worktrees/<name>)
	CommonDir      string   // the repository's common git dir
	HooksDirs      []string // directories git runs hooks from
	OtherWorktrees []string // other worktrees of the same repository: other agents', read-only
	GuardPaths     []string // the swarm-guard executables themselves

	// Vars are environment variables the agent's shell will also see
	// (TMPDIR, USER, ...). HOME and PWD are derived from Home and Cwd.
	Vars map[string]string
	// Unset are variables known to be unset in the agent's shell: the
	// hook sees the environment the Bash tool's shell starts with, so a
	// default such as ${TMPDIR:-/tmp} applies.
	Unset map[string]bool

	// Swarm ownership (see package guard/swarm).
	HomeBranch string // the branch the agent started on (SWARM_GUARD_HOME_BRANCH); "" means Branch
	AgentID    string // the agent's id ({id} in [swarm] own_branches); "" when unknown

	// Remotes are the URLs the repository's configured remotes name (url
	// and pushurl of each), as written in its config: where its commits
	// may go. A push or remote naming another host is exfiltration.
	Remotes []string

	Repo    Repo                     // optional
	Resolve func(path string) string // optional symlink resolution of absolute paths

	// ReadFile reads a file as it is on disk now: the Makefile,
	// package.json, justfile or script a task runner is about to run, so its
	// commands are judged as if typed. Optional: nil means files cannot be
	// read, and what a runner would run is unknown. A missing file must be
	// reported with an error matching fs.ErrNotExist.
	ReadFile func(path string) ([]byte, error)

	// Secrets are variables a context fills with secrets of no service the
	// guard knows: a CI job's secrets (${{ secrets.X }}, a step's env:
	// mapping one), $CI_JOB_TOKEN. Name -> where the value comes from, as
	// a reason names it ("secrets.DEPLOY_KEY"). Sending one to a host that
	// is not its own service (named like it), a remote's host or in
	// [network] allow_hosts is exfiltration. Set by guard/committed; a
	// typed command's environment has none (its unknown credentials may go
	// where the agent sends them, see rules.SecretExfiltration).
	Secrets map[string]string

	// PathDirs are the directories of the agent's PATH, in order: npx runs
	// a tool npm installed globally in one of them instead of downloading
	// it (packages.go). Optional; the engine only asks Repo.Exists there.
	PathDirs []string

	// Oversight is swarm-guard run's --oversight for this task ("" means
	// the policy's [swarm] oversight).
	Oversight string

	// CaseInsensitive says the file system compares names without case,
	// as macOS's default (APFS, HFS+) does: .GIT is the git directory,
	// .Claude/Settings.json the hook settings, and RM finds /bin/rm. The
	// adapter sets it from the platform; the engine never asks the system.
	CaseInsensitive bool
}

// ToolInput is the subset of Claude Code tool inputs the engine reads.
type ToolInput struct {
	Command      *string `json:"command"`
	FilePath     string  `json:"file_path"`
	NotebookPath string  `json:"notebook_path"`
	Path         string  `json:"path"`
	Pattern      string  `json:"pattern"`
	Glob         string  `json:"glob"`
	Name         string  `json:"name"` // EnterWorktree: the worktree's name under .claude/worktrees
	// The client's network tools (webtools.go).
	URL   string   `json:"url"`   // WebFetch
	Query string   `json:"query"` // WebSearch
	WS    *WSInput `json:"ws"`    // Monitor watching a WebSocket instead of a command
}

// DecodeToolInput decodes the tool_input object of a known tool. Unknown
// fields are ignored.
func DecodeToolInput(raw []byte) (ToolInput, error) {
	var in ToolInput
	if len(raw) == 0 || string(raw) == "null" {
		return in, nil
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, err
	}
	return in, nil
}

// Tool names with a meaning to the engine.
const (
	ToolBash         = "Bash"
	ToolMonitor      = "Monitor"
	ToolPowerShell   = "PowerShell"
	ToolRead         = "Read"
	ToolWrite        = "Write"
	ToolEdit         = "Edit"
	ToolMultiEdit    = "MultiEdit"
	ToolNotebookEdit = "NotebookEdit"
	ToolGrep         = "Grep"
	ToolGlob         = "Glob"
	ToolLS           = "LS"
	// ToolEnterWorktree moves the session into a worktree: a new one of its
	// own ({"name": ...}) or an existing one ({"path": ...}).
	ToolEnterWorktree = "EnterWorktree"
)

// KnownTool reports whether the engine checks calls of this tool. Calls of
// other tools (MCP tools, Agent, ...) get no decision.
func KnownTool(name string) bool {
	switch name {
	case ToolBash, ToolMonitor, ToolPowerShell, ToolRead, ToolWrite, ToolEdit, ToolMultiEdit,
		ToolNotebookEdit, ToolGrep, ToolGlob, ToolLS, ToolEnterWorktree, ToolWebFetch, ToolWebSearch:
		return true
	}
	return false
}

// Check decides one tool call.
func (e *Engine) Check(tool string, in ToolInput, env *Env) Decision {
	switch tool {
	case ToolBash, ToolMonitor:
		if in.Command == nil {
			if tool == ToolMonitor {
				if in.WS != nil {
					return e.checkWeb(tool, in, env) // a Monitor call may watch a URL instead of running a command
				}
				return Decision{}
			}
			return badInput("the Bash call has no \"command\" field", "send the command in tool_input.command")
		}
		return e.CheckCommand(*in.Command, env)
	case ToolPowerShell:
		a := e.newAnalyzer(env)
		a.judge(nil, effect.HiddenCode{By: ToolPowerShell, Why: effect.PowerShellTool})
		for i := range a.findings {
			a.findings[i].trigger = clip(derefOr(in.Command, ""))
		}
		return a.decision()
	case ToolRead:
		return e.CheckPath(OpRead, in.FilePath, env)
	case ToolWrite, ToolEdit, ToolMultiEdit:
		return e.CheckPath(OpWrite, in.FilePath, env)
	case ToolNotebookEdit:
		return e.CheckPath(OpWrite, in.NotebookPath, env)
	case ToolGrep:
		d := e.CheckPath(OpSearch, in.Path, env)
		if !d.Stops() && in.Glob != "" {
			d = Stronger(d, e.checkSearchGlob(in.Glob, in.Path, env))
		}
		if !d.Stops() {
			d = Stronger(d, e.checkCredentialSearch(tool, in, env))
		}
		return d
	case ToolEnterWorktree:
		return e.checkEnterWorktree(in.Path, in.Name, env)
	case ToolWebFetch, ToolWebSearch:
		return e.checkWeb(tool, in, env)
	case ToolGlob, ToolLS:
		d := e.CheckPath(OpList, in.Path, env)
		if !d.Stops() && tool == ToolGlob {
			d = Stronger(d, e.checkCredentialSearch(tool, in, env))
		}
		return d
	}
	return Decision{}
}

// CheckCommand decides a shell command line as the Bash tool would run it.
func (e *Engine) CheckCommand(cmd string, env *Env) Decision {
	if len(cmd) > MaxCommandBytes {
		return badInput(fmt.Sprintf("the command is %d KiB long; swarm-guard refuses commands over %d KiB", len(cmd)>>10, MaxCommandBytes>>10),
			"write long scripts to a file in the worktree and run that file")
	}
	if strings.TrimSpace(cmd) == "" {
		return Decision{}
	}
	valid := utf8.ValidString(cmd)
	if !valid {
		cmd = strings.ToValidUTF8(cmd, "\uFFFD")
	}
	a := e.newAnalyzer(env)
	if e.explain != nil {
		a.explainTo(e.explain)
	}
	a.x.Script(cmd, a.initialState(), nil)
	if e.explain != nil && a.x.Aborted() {
		e.explain(walkStopped)
	}
	d := a.decision()
	// Writes reads the text as given: only a valid one is the same walk.
	d.writesNothing = valid && !a.x.Aborted() && !a.opaque && len(a.writtenFiles()) == 0
	if strings.Contains(cmd, "://") {
		d.sentURLs = a.urls // as SentURLs lists them
	}
	return d
}

// WrittenFiles returns the files a shell command writes, as far as the
// command text tells: redirection targets, tee, cp/mv/install/ln
// destinations, sed -i and perl -i files, dd of=, and so on. Paths are
// absolute; a destination may be a directory. The PostToolUse secret scan
// reads them after the command ran.
func (e *Engine) WrittenFiles(cmd string, env *Env) []string {
	files, _ := e.Writes(cmd, env)
	return files
}

// Writes returns the files cmd writes, as WrittenFiles, and whether the
// command may also write files the analysis cannot list (opaque): a
// program the guard has no model of, or a write to a path only known at
// run time. When opaque is false the list is complete: after ls, git
// status or go test there is nothing to scan, after echo x > f only f.
func (e *Engine) Writes(cmd string, env *Env) (files []string, opaque bool) {
	if len(cmd) > MaxCommandBytes {
		return nil, true
	}
	if strings.TrimSpace(cmd) == "" {
		return nil, false
	}
	a := e.newAnalyzer(env)
	a.x.Script(cmd, a.initialState(), nil)
	if a.x.Aborted() {
		return nil, true
	}
	return a.writtenFiles(), a.opaque
}

// writtenFiles is the files the walk saw written, each once, without
// sinks such as /dev/null.
func (a *analyzer) writtenFiles() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range a.writes {
		if !seen[p] && !isSink(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func derefOr(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}

func badInput(reason, alt string) Decision {
	f := Finding{Action: policy.Deny, Rule: policy.RuleBadInput, Reason: reason, Alternative: alt}
	return Decision{Action: policy.Deny, Rule: f.Rule, Reason: f.Reason, Alternative: f.Alternative, Findings: []Finding{f}}
}

// walkStopped is Explain's line for a walk that gave up.
const walkStopped = "the walk stopped early: the command is too deep or too long to follow"

// explainTo has the walk describe every invocation and effect to line.
func (a *analyzer) explainTo(line func(string)) {
	a.trace = func(inv *shell.Invocation) { line("invocation: " + describeInvocation(inv)) }
	a.traceEffect = func(x effect.Effect) { line(fmt.Sprintf("effect: %T %+v", x, x)) }
}

// Explain walks cmd as CheckCommand does and describes, one line each,
// what the shell layer saw: every invocation dispatched to a program's
// model (its words, those only known at run time marked ?, and the
// directories it may run in) and every effect handed to the rules. It is
// for people asking why (swarm-guard check --trace); it decides nothing.
// To have the lines of the walk that decides, without a second one, use
// Explaining.
func (e *Engine) Explain(cmd string, env *Env) []string {
	if len(cmd) > MaxCommandBytes || strings.TrimSpace(cmd) == "" {
		return nil
	}
	var lines []string
	a := e.newAnalyzer(env)
	a.explainTo(func(line string) { lines = append(lines, line) })
	a.x.Script(strings.ToValidUTF8(cmd, "\uFFFD"), a.initialState(), nil)
	if a.x.Aborted() {
		lines = append(lines, walkStopped)
	}
	return lines
}

// Explaining returns an engine that decides as e does and hands line,
// as Explain would list them, what the walk of each command CheckCommand
// (and Check, for a Bash call) decides sees: the decision and its
// explanation come from one walk.
func (e *Engine) Explaining(line func(string)) *Engine {
	c := *e
	c.explain = line
	return &c
}

// describeInvocation is one line per invocation: the argv as the walk
// resolved it (words only known at run time as ?WORD), then where and
// how it runs.
func describeInvocation(inv *shell.Invocation) string {
	var b strings.Builder
	for i, w := range inv.Argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w.Dynamic {
			b.WriteString("?" + w.Show())
		} else {
			b.WriteString(w.Text)
		}
	}
	cwds := strings.Join(inv.State.Cwds, ",")
	if inv.State.CwdUnknown {
		cwds += ",?"
	}
	fmt.Fprintf(&b, " | cwd=%s", cwds)
	if len(inv.Env) > 0 {
		var kv []string
		for k, v := range inv.Env {
			var vals []string
			for _, x := range v {
				vals = append(vals, x.Show())
			}
			kv = append(kv, k+"="+strings.Join(vals, "|"))
		}
		slices.Sort(kv)
		fmt.Fprintf(&b, " env=%s", strings.Join(kv, ","))
	}
	if len(inv.Via) > 0 {
		fmt.Fprintf(&b, " via=%s", strings.Join(inv.Via, ","))
	}
	if inv.Stdin != nil {
		fmt.Fprintf(&b, " stdin=%q", inv.Stdin.Desc)
	}
	return b.String()
}
