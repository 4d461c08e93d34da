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
