package guard

import (
	"encoding/json"

	"github.com/swarm-guard/swarm-guard/guard/packs"
	"github.com/swarm-guard/swarm-guard/policy"
)

// What the engine is built from and asked about: the policy (Engine, New,
// with the vendor packs it turns on), the tool call (ToolInput and the
// tool names), and the world around it as the engine's callers describe
// it (Env), with the questions about repositories only a reader of .git
// answers (Repo). Every file of the engine may use these; they use none
// of the engine's own.

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

// vendorPacks are the vendor packs a policy turns on ([packs] enable).
type vendorPacks struct {
	on   map[*packs.Pack]bool
	http []*packs.Pack // those with HTTP rules
}

func newVendorPacks(p *policy.Policy) vendorPacks {
	var v vendorPacks
	if len(p.Packs.Enable) == 0 {
		return v // the common case costs nothing, here and per command
	}
	v.on = map[*packs.Pack]bool{}
	for _, vp := range packs.Vendors() {
		if p.Packs.Enabled(vp.Name) {
			v.on[vp] = true
			if vp.JudgesHTTP() {
				v.http = append(v.http, vp)
			}
		}
	}
	return v
}

// WSInput is a Monitor call's WebSocket target ({"ws": {"url": ...}}).
type WSInput struct {
	URL string `json:"url"`
}

// Tool names of the client's network tools.
const (
	ToolWebFetch  = "WebFetch"
	ToolWebSearch = "WebSearch"
)

// MaxCommandBytes bounds the commands the engine reads: a Bash command
// longer than this is refused. The walk's own limits (nesting depth,
// syntax nodes visited) are shell.MaxDepth and shell.MaxNodes; inputs
// beyond any of them are denied, never analysed partially.
const MaxCommandBytes = 256 << 10
