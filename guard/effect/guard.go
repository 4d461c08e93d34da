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
// itself, as its tool code recognises: the guard's own CLI, a hook
// manager's, the trailers the hooks write, the shared budget ledger,
// commits the hooks never see.
type GuardChange struct {
	Control Control
	// Does says what the command does, as a reason says it, whole:
	// "swarm-guard uninstall switches the guard off".
	Does string
	// Instead is the alternative for this case; "" for the control's own
	// (guard/rules/guard_tamper.go).
	Instead string
}

// Control is one of the guard's controls.
type Control int

const (
	GuardSetup    Control = iota + 1 // the guard's installation, budgets and policy (its own CLI)
	GitHooks                         // the git hooks and the hook managers that install them
	Trailers                         // the commit trailers by which the hooks say who made a commit
	BudgetLedger                     // the shared budget ledger (refs/swarm-guard/), written by swarm-guard run only
	HookedHistory                    // commits that only exist after the hooks checked them
	GuardFiles                       // the files that configure the guard (policy, settings, hook configs, CI workflow)
)

func (NestedRun) isEffect()   {}
func (GuardChange) isEffect() {}
