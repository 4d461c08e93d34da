package policy

import (
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// FileName is the name of the policy file at the root of a repository.
const FileName = ".swarm-guard.toml"

// DefaultSource names the embedded default in errors and audit records.
const DefaultSource = "<default policy>"

// DefaultText is the commented default policy. It is both what applies when
// a repository has no policy file and what `swarm-guard install` writes.
//
//go:embed default.toml
var DefaultText string

// Action is what a rule does when it matches.
type Action string

const (
	Deny  Action = "deny"
	Ask   Action = "ask"
	Off   Action = "off"   // rules only: the rule is disabled
	Allow Action = "allow" // dynamic_commands only
	// Warn lets the call run and tells the agent what would have been
	// denied and what to do instead; Log lets it run silently. Both are
	// recorded in the audit log with the decision they stand in for: the
	// shadow modes a team rolls the guard out with (docs/rollout.md).
	Warn Action = "warn"
	Log  Action = "log"
)

// Policy-wide modes ([Policy.Mode], swarm-guard run --mode).
const (
	ModeEnforce = "enforce" // rules act as [rules] says
	ModeWarn    = "warn"    // every deny or ask rule warns instead
	ModeLog     = "log"     // every deny or ask rule only logs
)

// Shadow reports whether an action lets the call run (warn or log).
func (a Action) Shadow() bool { return a == Warn || a == Log }

// FailMode says what the guard does when it cannot decide.
type FailMode string

const (
	FailClosed FailMode = "closed"
	FailOpen   FailMode = "open"
)

// Policy is a decoded and validated policy.
type Policy struct {
	// Source is the file the policy came from, or DefaultSource.
	Source string `toml:"-"`

	Version           int      `toml:"version"`
	ProtectedBranches []string `toml:"protected_branches"`
	Writable          []string `toml:"writable"`
	DynamicCommands   Action   `toml:"dynamic_commands"`
	// Mode is the policy-wide default: "enforce" (or empty), "warn" or
	// "log". Under warn or log every rule set to deny or ask acts as
	// that mode instead, except guard-tamper and the guard's own
	// failures, which stay enforced: an agent in a shadow week still may
	// not switch the guard off. Rules set to warn, log or off keep theirs.
	Mode           string            `toml:"mode"`
	FailMode       FailMode          `toml:"fail_mode"`
	TrustEnv       bool              `toml:"trust_env"`
	ProtectedPaths []string          `toml:"protected_paths"`
	Rules          map[string]Action `toml:"rules"`
	SecretFiles    SecretFiles       `toml:"secret_files"`
	Packages       Packages          `toml:"packages"`
	Allow          []AllowEntry      `toml:"allow"`
	Secrets        Secrets           `toml:"secrets"`
	Identity       Identity          `toml:"identity"`
	Trailers       Trailers          `toml:"trailers"`
	Git            Git               `toml:"git"`
	Verify         Verify            `toml:"verify"`
	Budget         Budget            `toml:"budget"`
	Network        Network           `toml:"network"`
	Swarm          Swarm             `toml:"swarm"`
	MCP            MCP               `toml:"mcp"`
	Approvals      Approvals         `toml:"approvals"`
	Packs          Packs             `toml:"packs"`
	Committed      Committed         `toml:"committed"`
}

// Committed configures how commands a commit adds for others to run
// (workflows, Dockerfiles, Makefiles, package scripts, hooks; package
// guard/committed) are treated at pre-commit.
type Committed struct {
	// Humans is what pre-commit does with a human's commit that adds such
	// a command: "report" (a warning, the commit goes through; the
	// default) or "refuse" (blocked as an agent's is). An agent's commit
	// is always refused.
	Humans string `toml:"humans"`
}

// What pre-commit does with a human's commit adding a command the guard
// would not run (Committed.Humans).
const (
	CommittedReport = "report"
	CommittedRefuse = "refuse"
)

// Approvals configures the denials a human may lift once with swarm-guard
// approve CODE (package hooks/approval).
type Approvals struct {
	// Rules are rules whose denials a human may approve, besides the
	// ask rules and checkpoint oversight (always approvable headless).
	Rules []string `toml:"rules"`
	// Expiry is how long an approval (and a pending request) stays
	// valid, as a Go duration ("1h", "30m"). Empty: one hour.
	Expiry string `toml:"expiry"`
}

// Swarm configures how agents of a swarm work together.
type Swarm struct {
	// Oversight is who merges: "pr-gated" (a human merges; the default),
	// "autonomous" (the forge auto-merges once checks pass) or
	// "checkpoint" (a human approves each merge-like call). swarm-guard run
	// --oversight overrides it for one task.
	Oversight string `toml:"oversight"`
	// OwnBranches are globs of branches (besides the home branch) the agent
	// may push, create and delete. "{id}" is the agent id, "{branch}" the
	// home branch. See package guard/swarm.
	OwnBranches []string `toml:"own_branches"`
}

// Oversight modes.
const (
	OversightPRGated    = "pr-gated"
	OversightAutonomous = "autonomous"
	OversightCheckpoint = "checkpoint"
)

// MCP configures what MCP servers' tools may do (rule mcp-access).
type MCP struct {
	// Default is the access of servers the policy does not list: "read",
	// "write", "admin" or "deny". Empty: read (write for browser servers).
	Default string `toml:"default"`
	// ScanResults scans MCP tool results for secrets after the call
	// (PostToolUse), like Bash output.
	ScanResults bool                 `toml:"scan_results"`
	Servers     map[string]MCPServer `toml:"servers"`
	// Tasks names, per task id, the only MCP servers swarm-guard run
	// --task ID starts the agent with (when --mcp is not given).
	Tasks map[string][]string `toml:"tasks"`
}

// MCPServer is the policy of one MCP server, keyed by its configured name.
type MCPServer struct {
	Access string   `toml:"access"` // "read", "write", "admin" or "deny"
	Allow  []string `toml:"allow"`  // tool-name globs always allowed (arguments are still checked)
	Ask    []string `toml:"ask"`    // tool-name globs that need a human
	Deny   []string `toml:"deny"`   // tool-name globs never allowed
}

// Network restricts where network clients may connect.
type Network struct {
	// AllowHosts, when not empty, are the only hosts curl, wget, httpie,
	// nc, ssh, telnet, ftp, scp and rsync may reach ("api.github.com",
	// "*.internal.example").
	// Secrets never leave, whatever the hosts.
	AllowHosts []string `toml:"allow_hosts"`
}

// SecretFiles lists the files rule secret-file protects.
type SecretFiles struct {
	Patterns   []string `toml:"patterns"`
	Exceptions []string `toml:"exceptions"`
}

// Packages is the package-install allowlist, per ecosystem.
type Packages struct {
	NPM    []string `toml:"npm"`
	Pip    []string `toml:"pip"`
	Go     []string `toml:"go"`
	Cargo  []string `toml:"cargo"`
	Gem    []string `toml:"gem"`
	System []string `toml:"system"`
	// Other covers the long tail (composer, dotnet, deno, R, cpanm...):
	// entries name the ecosystem too, "composer:monolog/monolog".
	Other []string `toml:"other"`
}

// Ecosystem returns the allowlist of one ecosystem ("npm", "pip", ...).
func (p Packages) Ecosystem(name string) []string {
	switch name {
	case "npm":
		return p.NPM
	case "pip":
		return p.Pip
	case "go":
		return p.Go
	case "cargo":
		return p.Cargo
	case "gem":
		return p.Gem
	case "system":
		return p.System
	case "other":
		return p.Other
	}
	return nil
}

// AllowEntry exempts matching simple commands from rules.
type AllowEntry struct {
	Command string   `toml:"command"`
	Rules   []string `toml:"rules"`
	Reason  string   `toml:"reason"`
}

// Secrets configures secret scanning of content.
type Secrets struct {
	PreToolUse      bool     `toml:"pre_tool_use"`
	PostToolUse     bool     `toml:"post_tool_use"`
	PreCommit       bool     `toml:"pre_commit"`
	ConflictMarkers bool     `toml:"conflict_markers"`
	GitleaksAllow   bool     `toml:"gitleaks_allow"`
	AllowPaths      []string `toml:"allow_paths"`
}

// Identity configures how an agent id is found.
type Identity struct {
	Source string `toml:"source"` // "auto" or "branch"
}

// Trailers configures commit trailers.
type Trailers struct {
	AgentKey   string `toml:"agent_key"`
	SessionKey string `toml:"session_key"`
	// HumanKey marks a commit made outside any agent session: the hooks
	// write "<HumanKey>: human" instead of an agent id, so verify tells a
	// human's commit from an agent's and from one that skipped the hooks.
	HumanKey string `toml:"human_key"`
	Require  bool   `toml:"require"`
	// Since is the commit swarm-guard was installed on: it and the commits
	// in its history predate the hooks, so pre-push and verify need no
	// trailer on them. install records it in the committed policy, so
	// every clone and CI agree.
	Since string `toml:"since"`
}

// Git configures the git hooks.
type Git struct {
	CommitOnProtected   Action `toml:"commit_on_protected"`
	PushToProtected     Action `toml:"push_to_protected"`
	PushRequiresTrailer bool   `toml:"push_requires_trailer"`
	// OwnBranchForceWithLease lets an agent push --force-with-lease to the
	// branch checked out in its own worktree when it is not protected.
	// Off by default: forced pushes are what the guard promises to stop.
	OwnBranchForceWithLease bool `toml:"own_branch_force_with_lease"`
	// AllowWorktreeWipe lets rm * at the worktree root through: it
	// destroys uncommitted and untracked work, like git checkout -- .
	AllowWorktreeWipe bool `toml:"allow_worktree_wipe"`
}

// Verify configures swarm-guard verify.
type Verify struct {
	ExemptMerges  bool     `toml:"exempt_merges"`
	ExemptAuthors []string `toml:"exempt_authors"`
	MinAgents     int      `toml:"min_agents"`
	// Scope, when not empty, is the task's expected scope: doublestar
	// globs of the paths its changes may touch. A range changing anything
	// else fails ("changes are within expected scope", the auto-merge
	// criterion). swarm-guard verify --scope overrides it.
	Scope []string `toml:"scope"`
	// HumanCommits is what verify does with a commit the hooks marked as
	// a human's (HumanKey): "allow" (the default) or "deny" (a range
	// that must be the agents' work alone).
	HumanCommits string `toml:"human_commits"`
	// AgentBranches are globs of branches that hold agents' work alone:
	// on a range whose branch matches, humans' commits fail as under
	// human_commits = "deny".
	AgentBranches []string `toml:"agent_branches"`
}

// Values of [verify] human_commits.
const (
	HumanCommitsAllow = "allow"
	HumanCommitsDeny  = "deny"
)

// HumanValue is the value of the human trailer ([trailers] human_key).
const HumanValue = "human"

// Budget configures tool-call and token budgets.
type Budget struct {
	MaxToolCalls  int64    `toml:"max_tool_calls"`
	MaxTokens     int64    `toml:"max_tokens"`
	WorkerTokens  int64    `toml:"worker_tokens"`
	TaskTokens    int64    `toml:"task_tokens"`
	SessionTokens int64    `toml:"session_tokens"`
	EnvAllow      []string `toml:"env_allow"`
	// SyncSeconds is how often swarm-guard run --task shares the task's
	// spend through the git remote (hooks/internal/ledger); SyncTurns shares it
	// every that many turns as well. Both 0 turn sharing off.
	SyncSeconds int64 `toml:"sync_seconds"`
	SyncTurns   int64 `toml:"sync_turns"`
	// SyncRemote is the remote the swarm shares.
	SyncRemote string `toml:"sync_remote"`
	// Session names the swarm session every run of this repository
	// belongs to (swarm-guard run --session overrides it): its spend is
	// shared through the remote and capped by session_tokens. "" keeps
	// the session per machine (swarm-guard budget reset).
	Session string `toml:"session"`
}

// RuleAction returns the action of a rule: as configured (Deny when
// unset), with the policy-wide Mode applied to deny and ask.
func (p *Policy) RuleAction(id string) Action {
	a := p.ConfiguredAction(id)
	if (a == Deny || a == Ask) && (p.Mode == ModeWarn || p.Mode == ModeLog) && !Enforced(id) {
		return Action(p.Mode)
	}
	return a
}

// ConfiguredAction is the rule's own action in [rules] (dynamic_commands
// for dynamic-command), without the policy-wide Mode; Deny when unset.
func (p *Policy) ConfiguredAction(id string) Action {
	if id == RuleDynamicCommand {
		return p.DynamicCommands
	}
	if a, ok := p.Rules[id]; ok {
		return a
	}
	return Deny
}

// Enforced reports whether a rule ignores the policy-wide Mode: changing
// the guard (guard-tamper, which protects the mode itself) and the guard's
// own failures are never shadowed by it.
func Enforced(id string) bool {
	switch id {
	case RuleGuardTamper, RuleBadInput, RuleInternalError, RulePolicyError:
		return true
	}
	return false
}

// Approvable reports whether the policy lets a human lift a denial of the
// rule once ([approvals] rules).
func (p *Policy) Approvable(id string) bool {
	for _, r := range p.Approvals.Rules {
		if r == id {
			return true
		}
	}
	return false
}

// IsProtectedBranch reports whether a branch name (without refs/heads/)
// matches one of the protected branch globs.
func (p *Policy) IsProtectedBranch(name string) bool {
	name = strings.TrimPrefix(name, "refs/heads/")
	for _, pat := range p.ProtectedBranches {
		if ok, _ := filepath.Match(pat, name); ok || pat == name {
			return true
		}
	}
	return false
}

var defaultPolicy = sync.OnceValue(builtinDefault)

// Default returns the default policy: what default.toml says. Callers must
// not modify it; use Clone for a private copy.
func Default() *Policy { return defaultPolicy() }

// builtinDefault is default.toml as a Go value, so a hook process does not
// parse TOML when the repository has no policy file. TestDefaultTextMatches
// keeps the two identical.
func builtinDefault() *Policy {
	return &Policy{
		Source:            DefaultSource,
		Version:           1,
		ProtectedBranches: []string{"main", "master"},
		Writable:          []string{"{temp}/**", "/tmp/**", "/var/tmp/**", "/private/tmp/**", "/private/var/folders/*/*/T/**"},
		DynamicCommands:   Deny,
		Mode:              ModeEnforce,
		FailMode:          FailClosed,
		TrustEnv:          true,
		ProtectedPaths:    []string{".gitleaks.toml", ".gitleaksignore", ".swarm-guard-ignore"},
		Rules: map[string]Action{
			RuleForcePush: Deny, RuleProtectedBranch: Deny, RuleDestructiveGit: Deny, RuleGuardTamper: Deny,
			RuleDeleteOutside: Deny, RuleWriteOutside: Deny, RuleSecretFile: Deny, RuleDestructiveSQL: Deny,
			RuleRemoteCode: Deny, RulePackageInstall: Deny, RuleSecretContent: Deny, RuleBudget: Deny,
			RuleDestructiveTerraform: Deny, RuleDestructiveKubernetes: Deny, RuleDestructiveCloud: Deny,
			RuleDestructiveContainer: Deny, RuleDestructiveDatastore: Deny, RuleDestructiveSystem: Deny, RuleDestructiveService: Deny,
			RuleExfiltration: Deny, RuleMCPAccess: Deny, RuleOversight: Deny,
			RuleForeignBranch: Deny, RuleForeignWorktree: Deny,
		},
		SecretFiles: SecretFiles{
			Patterns: []string{"**/.env", "**/.env.*", "**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx", "**/*.jks", "**/*.keystore",
				"**/*.kdbx", "**/id_rsa*", "**/id_dsa*", "**/id_ecdsa*", "**/id_ed25519*", "**/.git-credentials", "~/.ssh/**",
				"~/.aws/**", "~/.gnupg/**", "~/.netrc", "~/.npmrc", "~/.pypirc", "~/.docker/config.json", "~/.kube/config",
				"~/.config/gh/**", "~/.config/gcloud/**", "~/.claude/.credentials.json", "~/.codex/auth.json", "/proc/*/environ"},
			Exceptions: []string{"**/*.example", "**/*.sample", "**/*.template", "**/*.pub", "/proc/self/environ", "/proc/thread-self/environ"},
		},
		Packages: Packages{NPM: []string{}, Pip: []string{}, Go: []string{}, Cargo: []string{}, Gem: []string{}, System: []string{}, Other: []string{}},
		Secrets: Secrets{PreToolUse: true, PostToolUse: true, PreCommit: true, ConflictMarkers: true, GitleaksAllow: true,
			AllowPaths: []string{}},
		Identity:  Identity{Source: "auto"},
		Trailers:  Trailers{AgentKey: "Agent-Id", SessionKey: "Agent-Session", HumanKey: "Committed-By", Require: true},
		Git:       Git{CommitOnProtected: Deny, PushToProtected: Deny, PushRequiresTrailer: true},
		Verify:    Verify{ExemptMerges: true, ExemptAuthors: []string{}, HumanCommits: HumanCommitsAllow, AgentBranches: []string{}},
		Network:   Network{AllowHosts: []string{}},
		Swarm:     Swarm{Oversight: OversightPRGated, OwnBranches: []string{"agent/{id}/**", "{branch}-*"}},
		MCP:       MCP{ScanResults: true},
		Approvals: Approvals{Rules: []string{}, Expiry: "1h"},
		Packs:     Packs{Enable: []string{}},
		Committed: Committed{Humans: CommittedReport},
		Budget: Budget{WorkerTokens: 500_000, TaskTokens: 2_000_000, SessionTokens: 10_000_000,
			EnvAllow: []string{"ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"}, SyncSeconds: 2, SyncRemote: "origin"},
	}
}

// Clone returns a deep copy of p.
func (p *Policy) Clone() *Policy {
	c := *p
	c.ProtectedBranches = cloneStrings(p.ProtectedBranches)
	c.Writable = cloneStrings(p.Writable)
	c.ProtectedPaths = cloneStrings(p.ProtectedPaths)
	c.Rules = make(map[string]Action, len(p.Rules))
	for k, v := range p.Rules {
		c.Rules[k] = v
	}
	c.SecretFiles.Patterns = cloneStrings(p.SecretFiles.Patterns)
	c.SecretFiles.Exceptions = cloneStrings(p.SecretFiles.Exceptions)
	c.Packages = Packages{
		NPM: cloneStrings(p.Packages.NPM), Pip: cloneStrings(p.Packages.Pip), Go: cloneStrings(p.Packages.Go),
		Cargo: cloneStrings(p.Packages.Cargo), Gem: cloneStrings(p.Packages.Gem), System: cloneStrings(p.Packages.System),
		Other: cloneStrings(p.Packages.Other),
	}
	c.Allow = nil
	for _, a := range p.Allow {
		a.Rules = cloneStrings(a.Rules)
		c.Allow = append(c.Allow, a)
	}
	c.Secrets.AllowPaths = cloneStrings(p.Secrets.AllowPaths)
	c.Approvals.Rules = cloneStrings(p.Approvals.Rules)
	c.Packs.Enable = cloneStrings(p.Packs.Enable)
	c.Verify.ExemptAuthors = cloneStrings(p.Verify.ExemptAuthors)
	c.Verify.Scope = cloneStrings(p.Verify.Scope)
	c.Verify.AgentBranches = cloneStrings(p.Verify.AgentBranches)
	c.Budget.EnvAllow = cloneStrings(p.Budget.EnvAllow)
	c.Swarm.OwnBranches = cloneStrings(p.Swarm.OwnBranches)
	c.Network.AllowHosts = cloneStrings(p.Network.AllowHosts)
	if p.MCP.Tasks != nil {
		c.MCP.Tasks = make(map[string][]string, len(p.MCP.Tasks))
		for k, v := range p.MCP.Tasks {
			c.MCP.Tasks[k] = cloneStrings(v)
		}
	}
	if p.MCP.Servers != nil {
		c.MCP.Servers = make(map[string]MCPServer, len(p.MCP.Servers))
		for k, v := range p.MCP.Servers {
			v.Allow, v.Ask, v.Deny = cloneStrings(v.Allow), cloneStrings(v.Ask), cloneStrings(v.Deny)
			c.MCP.Servers[k] = v
		}
	}
	return &c
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append(make([]string, 0, len(s)), s...)
}

// ExpandPath turns a policy path or glob into an absolute one: "~" becomes
// home, "{temp}" the temp dir, "{root}" the worktree root, and a relative
// pattern is taken relative to root. Globs starting with "**" stay relative
// so they match at any depth.
func ExpandPath(pattern, root, home, temp string) string {
	p := pattern
	switch {
	case p == "~":
		p = home
	case strings.HasPrefix(p, "~/"):
		p = home + p[1:]
	}
	p = strings.ReplaceAll(p, "{temp}", strings.TrimSuffix(temp, "/"))
	p = strings.ReplaceAll(p, "{root}", strings.TrimSuffix(root, "/"))
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "**") && root != "" {
		p = strings.TrimSuffix(root, "/") + "/" + p
	}
	return p
}

// sinceLine is the line install adds to the default policy's [trailers]
// table in a repository that already has commits.
const sinceLine = "since = %q # swarm-guard was installed on this commit: it and its history need no trailer\n"

// trailersAnchor is the line of DefaultText the since line follows.
const trailersAnchor = "require = true           # commit-msg adds a missing agent trailer and refuses a malformed or doubled one\n"

// DefaultTextSince is DefaultText with [trailers] since = commit: what
// install writes into a repository whose history predates it.
func DefaultTextSince(commit string) string {
	if commit == "" {
		return DefaultText
	}
	return strings.Replace(DefaultText, trailersAnchor, trailersAnchor+fmt.Sprintf(sinceLine, commit), 1)
}

// DefaultSince reports whether text is DefaultTextSince of some commit,
// and which: the file install wrote, unchanged.
func DefaultSince(text string) (string, bool) {
	i := strings.Index(text, trailersAnchor+"since = \"")
	if i < 0 {
		return "", false
	}
	rest := text[i+len(trailersAnchor)+len("since = \""):]
	commit, _, ok := strings.Cut(rest, "\"")
	if !ok || len(commit) > 64 {
		return "", false
	}
	if DefaultTextSince(commit) != text {
		return "", false
	}
	return commit, true
}

// ApprovalExpiry is how long an approval and a pending request stay valid
// ([approvals] expiry; one hour when unset).
func (p *Policy) ApprovalExpiry() time.Duration {
	if d, err := time.ParseDuration(p.Approvals.Expiry); err == nil && d > 0 {
		return d
	}
	return time.Hour
}

// ModeEnv is the variable swarm-guard run --mode sets in the agent's
// environment: the policy-wide mode for that run. The agent cannot set it
// (guard-tamper: SWARM_GUARD_* variables are the guard's).
const ModeEnv = "SWARM_GUARD_MODE"

// WithMode returns the policy with its policy-wide Mode replaced, for one
// run (swarm-guard run --mode): p itself when mode is empty or already p's.
func (p *Policy) WithMode(mode string) (*Policy, error) {
	switch mode {
	case "", p.Mode:
		return p, nil
	case ModeEnforce, ModeWarn, ModeLog:
		c := p.Clone()
		c.Mode = mode
		return c, nil
	}
	return nil, fmt.Errorf("%s=%q: the mode must be %q, %q or %q%s", ModeEnv, mode, ModeEnforce, ModeWarn, ModeLog, didYouMean(mode, ModeEnforce, ModeWarn, ModeLog))
}
