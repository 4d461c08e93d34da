package effect

// The guard's own controls: the variables by which the git hooks and the
// guard tell an agent from a human (and how they judge it), the switches
// that turn git hooks off, and the environment the git hooks run in.
// guard/rules/guard_tamper.go judges them.

// Variable is an invocation that gives a variable a value, or takes it
// away from what runs next.
type Variable struct {
	Name string // as written
	// How is the construct: "" for an assignment (NAME=v, export NAME=v,
	// NAME=v cmd); "read", "for", "declare +x", "printf -v" … for other
	// constructs that give it a value of the command's choosing; "unset",
	// "env -u" for those that take it away (with Unset).
	How   string
	Unset bool
	// Values are an assignment's values (several for an array).
	Values []Value
	// ForGit: the assignment is in the environment of a git command
	// (HOME=/tmp/x git commit).
	ForGit bool
}

// Value is one value given to a variable.
type Value struct {
	Text    string // the value; for a Dynamic one, its source as written ("$x")
	Dynamic bool   // only known at run time
}

// FreshEnv is a command started without the agent's environment: env -i,
// or a command that switches user or service manager (sudo without -E,
// doas, su -l, runuser -l, systemd-run). Without CLAUDECODE and
// SWARM_GUARD_*, git hooks it runs take the agent for a human.
type FreshEnv struct {
	By string // "env -i", "sudo", "su -l" …
	// Emptied: the agent empties the environment itself (env -i, env -),
	// rather than a user switch starting a fresh one.
	Emptied bool
	// GitHooks: what it runs may run git hooks (a committing git command,
	// a shell script that names one, a command only known at run time;
	// with Emptied, anything but a git command that runs no hooks).
	GitHooks bool
}

func (Variable) isEffect() {}
func (FreshEnv) isEffect() {}

// NestedRun is an agent started by the agent (swarm-guard run) with
// rights of its own choosing.
type NestedRun struct {
	Trust bool // --trust: the started agent's denials are switched off
	// Oversight are the --oversight modes it asks for, in order, as
	// written; "<unknown>" for one only known at run time.
	Oversight []string
	// Mode are the --mode values it asks for, as Oversight: a nested
	// agent in warn or log mode would run with the guard's denials off.
	Mode []string
}

// GuardChange is a command that changes one of the guard's controls
// itself, as its tool code recognises: the guard's own CLI and nested
// agents, the git hooks and the hook managers that install them, the
// trailers the hooks write, the shared budget ledger, commits the hooks
// never see, the files that configure the guard. The tool code says which
// change it is and the words of the command that makes it; the
// guard-tamper rule writes every sentence (guard/rules/guard_tamper.go,
// guardChanges), beside a command that makes each change.
type GuardChange struct {
	Change Change
	// Command is the command's own words as the sentence starts with
	// them: its argv prefix as written ("swarm-guard budget set",
	// "lefthook install", "git push", "yarn remove husky"), the variable
	// that makes the change ("PATH", "GIT_CONFIG_KEY_0"), the MCP tool
	// ("MCP server github, tool create_commit"), or for a change of a
	// file what the tool does as the file effects say it ("rm deletes",
	// "tee writes": effect.Write's Verb).
	Command string
	// Subject is what the command changes, as written: the file that
	// configures the guard, the ref, the config section or option, the
	// directory put on the PATH.
	Subject string
	// Pattern is the glob that reaches Subject, for a file change by
	// pattern; "" otherwise.
	Pattern string
}

// Change is one kind of change to the guard's controls.
type Change int

const (
	// The guard's installation, budgets and policy (its own CLI), and the
	// agents it starts.
	SetupUnread   Change = iota + 1 // swarm-guard with an argument only known at run time
	Uninstall                       // swarm-guard uninstall
	Approve                         // swarm-guard approve: lifts a denial
	Rewire                          // swarm-guard install --binary, --on-failure or --ci
	BudgetChange                    // swarm-guard budget <verb> (Command) other than show
	PolicyChange                    // swarm-guard policy <verb> (Command) other than check and default
	AgentBare                       // claude --bare: an agent without hooks
	AgentSettings                   // claude --settings that touch the hooks
	AgentSources                    // claude --setting-sources without project

	// The git hooks and the hook managers that install them, and what makes
	// git run other hooks.
	HookManagerUnread  // a hook manager (Command) with an argument only known at run time
	HookManagerRewrite // lefthook install, husky init … (Command)
	HookManagerRemoval // the package manager removes the hook manager (Command)
	ConfigEdit         // git config --edit
	ConfigSection      // git config --remove-section or --rename-section of Subject
	ConfigUnreadKey    // git config with a key only known at run time
	ConfigVarUnreadKey // GIT_CONFIG_KEY_<n> (Command) only known at run time
	ConfigVarUnread    // GIT_CONFIG_PARAMETERS only known at run time
	PathUnread         // PATH (Command) of a git command only known at run time
	PathWritable       // PATH (Command) of a git command puts Subject, a directory the agent can write, on it

	// The trailers by which the hooks say who made a commit.
	TrailerOption  // git -c Subject (trailer.<token>.key=Agent-Id)
	TrailerBrought // a git commit (Command) that brings its own Agent-Id trailer

	// The shared ledger (refs/swarm-guard/), written by swarm-guard run and a
	// human's swarm-guard approve only.
	ApprovalRef // Command (git push …) writes Subject, a ref of the shared approvals
	LedgerRef   // Command writes Subject, a ref of the shared budget ledger

	// Commits that only exist after the git hooks checked them.
	NoVerify      // Command (git commit, git push …) --no-verify
	NoVerifyShort // git commit -n
	CommitTree    // git commit-tree
	FastImport    // git fast-import
	HashObject    // git hash-object -w -t commit
	Replace       // git replace
	ToolCommit    // an MCP tool (Command) that commits

	// The files that configure the guard (policy, settings, hook configs, CI
	// workflow).
	UntrackUnread // git rm --cached --pathspec-from-file Subject
	Untrack       // git rm --cached (or update-index --remove) of Subject
	HideChanges   // Command (git update-index --skip-worktree …) of Subject
	StageOther    // git update-index --cacheinfo of Subject
	FileChange    // Command (rm deletes, tee writes) changes Subject itself
	FileInTree    // Command reaches Pattern, inside Subject, a tree that configures the guard
	FileMatched   // Command's Pattern matches Subject
	FileBelow     // Command (chmod) -R reaches Subject below its path
	ToolWrite     // the Write or Edit tool writes Subject
)

func (NestedRun) isEffect()   {}
func (GuardChange) isEffect() {}
