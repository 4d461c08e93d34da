package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Explain walks cmd as CheckCommand does and describes, one line each,
// what the shell layer saw: every invocation dispatched to a program's
// model (its words, those only known at run time marked ?, and the
// directories it may run in) and every effect handed to the rules. It is
// for people asking why (swarm-guard check --trace); it decides nothing.
// To have the lines of the walk that decides, without a second one, use
// Explaining.
func (e *Engine) Explain(cmd string, env *Env) []string {
	if len(cmd) > MaxCommandBytes || strings.TrimSpace(cmd) == "" {
		return nil
	}
	var lines []string
	a := e.newAnalyzer(env)
	a.explainTo(func(line string) { lines = append(lines, line) })
	a.x.Script(strings.ToValidUTF8(cmd, "\uFFFD"), a.initialState(), nil)
	if a.x.Aborted() {
		lines = append(lines, walkStopped)
	}
	return lines
}

// Explaining returns an engine that decides as e does and hands line,
// as Explain would list them, what the walk of each command CheckCommand
// (and Check, for a Bash call) decides sees: the decision and its
// explanation come from one walk.
func (e *Engine) Explaining(line func(string)) *Engine {
	c := *e
	c.explain = line
	return &c
}

// walkStopped is Explain's line for a walk that gave up.
const walkStopped = "the walk stopped early: the command is too deep or too long to follow"

// explainTo has the walk describe every invocation and effect to line.
func (a *analyzer) explainTo(line func(string)) {
	a.trace = func(inv *shell.Invocation) { line("invocation: " + describeInvocation(inv)) }
	a.traceEffect = func(x effect.Effect) { line(fmt.Sprintf("effect: %T %+v", x, x)) }
}

// describeInvocation is one line per invocation: the argv as the walk
// resolved it (words only known at run time as ?WORD), then where and
// how it runs.
func describeInvocation(inv *shell.Invocation) string {
	var b strings.Builder
	for i, w := range inv.Argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w.Dynamic {
			b.WriteString("?" + w.Show())
		} else {
			b.WriteString(w.Text)
		}
	}
	cwds := strings.Join(inv.State.Cwds, ",")
	if inv.State.CwdUnknown {
		cwds += ",?"
	}
	fmt.Fprintf(&b, " | cwd=%s", cwds)
	if len(inv.Env) > 0 {
		var kv []string
		for k, v := range inv.Env {
			var vals []string
			for _, x := range v {
				vals = append(vals, x.Show())
			}
			kv = append(kv, k+"="+strings.Join(vals, "|"))
		}
		slices.Sort(kv)
		fmt.Fprintf(&b, " env=%s", strings.Join(kv, ","))
	}
	if len(inv.Via) > 0 {
		fmt.Fprintf(&b, " via=%s", strings.Join(inv.Via, ","))
	}
	if inv.Stdin != nil {
		fmt.Fprintf(&b, " stdin=%q", inv.Stdin.Desc)
	}
	return b.String()
}
