package guard

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/shell"
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
