package guard

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

// FuzzCheckCommand checks three properties on arbitrary input:
//   - the engine never panics (a panic in the hook is a crash, not a decision);
//   - it is deterministic;
//   - wrapping a denied command in bash -c, eval or a subshell (and, for a
//     simple command, sudo or env) never turns it into an allowed one.
func FuzzCheckCommand(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.command)
	}
	eng := New(policy.Default())
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 8<<10 {
			return // keep iterations fast; long inputs are covered by TestLimits
		}
		d := eng.CheckCommand(cmd, testEnv())
		again := eng.CheckCommand(cmd, testEnv())
		if d.Action != again.Action || d.Rule != again.Rule || d.Reason != again.Reason {
			t.Fatalf("non-deterministic: %q gave %s/%s then %s/%s", cmd, d.Action, d.Rule, again.Action, again.Rule)
		}
		if d.Action != policy.Deny {
			return
		}
		ws := wrappings(cmd)
		if d.Rule == policy.RuleBadInput && len(ws) > 2 {
			// Text that does not parse can become valid syntax between
			// parentheses; only the quoting wrappers keep it intact.
			ws = ws[:2]
		}
		for _, w := range ws {
			if wd := eng.CheckCommand(w, testEnv()); wd.Action != policy.Deny {
				t.Errorf("%q is denied (%s: %s) but %q is not", cmd, d.Rule, d.Reason, w)
			}
		}
	})
}

// wrappings returns cmd wrapped in ways that keep its meaning.
func wrappings(cmd string) []string {
	quoted, err := syntax.Quote(cmd, syntax.LangBash)
	if err != nil {
		return nil // not representable as one shell word (NUL bytes)
	}
	out := []string{"bash -c " + quoted, "eval " + quoted}
	if !strings.HasSuffix(cmd, `\`) {
		// A trailing backslash would join the closing line: "x \" + "\n)"
		// is "x )", another command.
		out = append(out, "("+cmd+"\n)")
	}
	if simpleCommand(cmd) {
		out = append(out, "sudo "+cmd, "env "+cmd)
	}
	return out
}

// simpleCommand reports whether cmd is one plain command with arguments,
// where prefixing sudo or env keeps its meaning.
func simpleCommand(cmd string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	s := f.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	// NAME=value prefixes are assignments only for the shell: after sudo or
	// env, "A+=0" is a program name, so the meaning would change.
	if !ok || len(ce.Args) == 0 || len(ce.Assigns) > 0 || s.Negated || s.Background {
		return false
	}
	name := shell.WordLiteral(ce.Args[0])
	if strings.HasPrefix(name, "-") {
		return false // after sudo or env, -x is an option, not a command
	}
	if strings.Contains(name, "=") {
		return false // after sudo or env, 'A=1'x is an assignment, not a command
	}
	switch name {
	case "", "cd", "pushd", "popd", "set", "shift", "export", "unset", "alias", "trap", "eval", "source", ".",
		"exec", "read", "local", "declare", "typeset", "readonly", "return", "exit", "builtin", "command":
		return false // shell builtins: under sudo/env they are programs or nothing
	}
	return true
}
