// Package guard is swarm-guard's decision engine: given a Claude Code tool
// call (a shell command or a file path), the world around it (an Env) and
// a policy, it decides whether the call must be blocked, and says why,
// what triggered it and what to do instead.
//
// Shell commands are parsed with mvdan.cc/sh, never matched as text. The
// analysis sees through quoting and escaping, wrappers (sudo, env, xargs,
// find -exec, bash -c, eval, ssh, interpreters' one-liners), control flow,
// functions, substitutions and here-documents.
//
// Three layers, so a newcomer finds any decision in one place:
//
//   - the shell core (package guard/internal/shell) turns a command into invocations:
//     program, arguments, the working directories it may run in, its
//     environment assignments, its input and the state of the shell.
//     shell.Walker walks the script (statements, pipelines, compound commands,
//     substitutions, assignments, functions, aliases) and hands each simple
//     command to the analyzer through shell.Families (shelltools.go); word
//     expansion (shell.Expander), the builtins that change the shell's state
//     or run text as a script (cd, set, shift, read, export, unset, alias,
//     trap, eval, the shells and source), what echo and printf print
//     (shell.Printed), the plain and the acting wrappers (shell.Wrapped; sudo,
//     doas, env, su, runuser, flock, watch, script, strace, time, xargs,
//     parallel) and option parsing (shell.ParseOpts) are there too. The walk
//     also turns redirections into data (shell.Redirect: the files written and
//     read, the standard input a statement gets from a file, a here-document
//     or <(cmd)). Still here: the program table (programs.go: for each
//     program, the checks that run first, in order, then its own handler;
//     commands.go's invoke dispatches through it), what those files and a pipeline
//     stage's output mean (stdin.go), what a script file holds (filestate.go:
//     runFile, walked once the command is), find -exec and what find lists
//     (fileops.go), and the interpreters' options (interp.go);
//   - the tool families (git.go, paths.go and fileops.go, exfil.go,
//     sql.go, packages.go, forge.go, selfguard.go, runners …) describe what
//     an invocation does as effects (package guard/effect), with the facts
//     only they can resolve: the absolute path an operand means and where
//     it lies, the branch HEAD names, whether a secret flows into a send;
//   - the rules (package guard/rules, one file per rule id) judge effects
//     and hold every reason and alternative. effects.go hands each effect
//     to rules.JudgeEffect; the pre-push hook and the MCP door build the
//     same effects, so their decisions read the same.
//
// The tool packs (guard/packs: Terraform, Kubernetes, cloud, containers,
// data stores, system) are the tool family of infrastructure and system
// tools, kept as tables: each pattern has its rule id, name, reason,
// alternative, matcher and must-deny / must-allow examples in the pack's
// file. packs_handler.go runs the matchers on every invocation of a
// pack's programs and turns each match into an effect
// (effect.ToolOperation, carrying the pattern's texts); the pack's rule
// (guard/rules/destructive_<family>.go) judges it through
// rules.JudgeEffect like every other effect, so the policy's [rules]
// entry, oversight, the audit log and check see it the same way. "Why is
// terraform destroy denied?" is answered by guard/packs/terraform.go.
// Where a decision needs a fact only the engine has, the pack names the
// words and the engine resolves them: a container's bind-mount sources
// (Rule.Mounts) become effect.HostMount with the resolved path, and the
// rule (destructive_container.go) decides from where it lies; device
// writes (dd of=, mkfs) and recursive chmod/chown are the file family's
// effect.Write, judged by write-outside-worktree.
//
// The files use each other downward: what every file may use (env.go:
// Engine, Env, Repo, the tool call; decision.go; hosts.go) uses nothing
// of the engine's own, the analyzer, ownership, paths and the hand-over to
// the rules (effects.go) sit on it, and the families, the program table
// and the entry points (engine.go) build on those. A helper two families
// share lives in the lowest file that needs it.
//
// The engine is pure: no process execution, no environment or clock
// reads. What it needs from the file system (symlinks, which branch is
// checked out) comes through Env, so it is fast, deterministic and
// fuzzable. Inputs it cannot analyse (too long, too deep, unparseable,
// names only known at run time) are denied, never guessed at.
package guard
