package guard

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

// The analyzer answers the shell layer's questions (shell.Tools) with
// what only the tool families know: secrets (exfil.go), the known output
// of commands (stdin.go) and prompt strings (envvars.go).

func (a *analyzer) SecretSource(stmts []*syntax.Stmt, st *shell.State) string {
	return a.secretSource(stmts, st)
}

func (a *analyzer) VarSecret(name string, st *shell.State) string { return a.varSecret(name, st) }

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

func (a *analyzer) Rebound(name, how string, inv *shell.Invocation, st *shell.State, node syntax.Node) {
	a.identityTarget(inv, node, st, name, how)
}

func (a *analyzer) Unset(name, how string, inv *shell.Invocation) {
	a.judge(inv, effect.Variable{Name: name, How: how, Unset: true})
}

func (a *analyzer) BadInput(reason, trigger, fix string) {
	a.add(finding{rule: policy.RuleBadInput, reason: reason, trigger: clip(trigger), alt: fix})
}

func (a *analyzer) Walked() { a.checkFileRuns() }
