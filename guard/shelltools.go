package guard

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

// The analyzer answers the shell layer's questions (shell.Tools) with
// what only the tool families know: secrets (exfil.go), the known output
// of commands (stdin.go) and prompt strings (envvars.go).

func (a *analyzer) SecretSource(stmts []*syntax.Stmt, st *shell.State) *effect.Source {
	return a.secretSource(stmts, st)
}

func (a *analyzer) VarSecret(name string, st *shell.State) *effect.Source {
	return a.varSecret(name, st)
}

func (a *analyzer) KnownOutput(s *syntax.Stmt, st *shell.State) (string, bool) {
	return a.knownOutput(s, st)
}

func (a *analyzer) PromptString(inv *shell.Invocation, v shell.Word, st *shell.State) {
	a.promptString(inv, v, st)
}

// The analyzer is also what the shell walk hands its findings to
// (shell.Families): each simple command goes to the builtins, wrappers
// and tool families (invoke, commands.go), redirections (shell.Redirect)
// and pipeline output to stdin.go, assignments to the rules on variables (envvars.go,
// identityvars.go).

func (a *analyzer) Command(inv *shell.Invocation) { a.invoke(inv) }

func (a *analyzer) Output(s *syntax.Stmt, st *shell.State) *shell.Input { return a.stageOutput(s, st) }

func (a *analyzer) Assigned(name string, val []shell.Word, st *shell.State, inv *shell.Invocation, node syntax.Node) {
	a.envAssign(name, val, st, inv, node)
}

func (a *analyzer) Judge(inv *shell.Invocation, e effect.Effect) { a.judge(inv, e) }

func (a *analyzer) RunFile(inv *shell.Invocation, file shell.Word, lang string) {
	a.runFile(inv, file, lang)
}

func (a *analyzer) Reads(inv *shell.Invocation, file shell.Word) { a.readPath(inv, file) }

func (a *analyzer) Writes(inv *shell.Invocation, file shell.Word, how string) {
	a.writePath(inv, file, how)
}

// Fresh judges a command run in an environment of its own: sudo, doas,
// su -l (freshEnvironment), or an emptied one (env -i), where only git
// commands that run hooks care who runs them.
func (a *analyzer) Fresh(inv *shell.Invocation, by string, emptied bool, rest []shell.Word, script shell.Word) {
	if !emptied {
		a.freshEnvironment(inv, by, rest, script)
		return
	}
	hooks := commandName(rest[0].Text) != "git" || gitRunsHooks[gitSub(rest)]
	a.judge(inv, effect.FreshEnv{By: by, Emptied: true, GitHooks: hooks})
}

func (a *analyzer) BadInput(reason, trigger, fix string) {
	a.add(finding{rule: policy.RuleBadInput, reason: reason, trigger: clip(trigger), alt: fix})
}

func (a *analyzer) Walked() { a.checkFileRuns() }
