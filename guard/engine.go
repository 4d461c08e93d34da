package guard

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Check decides one tool call.
func (e *Engine) Check(tool string, in ToolInput, env *Env) Decision {
	switch tool {
	case ToolBash, ToolMonitor:
		if in.Command == nil {
			if tool == ToolMonitor {
				if in.WS != nil {
					return e.checkWeb(tool, in, env) // a Monitor call may watch a URL instead of running a command
				}
				return Decision{}
			}
			return badInput("the Bash call has no \"command\" field", "send the command in tool_input.command")
		}
		return e.CheckCommand(*in.Command, env)
	case ToolPowerShell:
		a := e.newAnalyzer(env)
		a.judge(nil, effect.HiddenCode{By: ToolPowerShell, Why: effect.PowerShellTool})
		for i := range a.findings {
			a.findings[i].trigger = clip(derefOr(in.Command, ""))
		}
		return a.decision()
	case ToolRead:
		return e.CheckPath(OpRead, in.FilePath, env)
	case ToolWrite, ToolEdit, ToolMultiEdit:
		return e.CheckPath(OpWrite, in.FilePath, env)
	case ToolNotebookEdit:
		return e.CheckPath(OpWrite, in.NotebookPath, env)
	case ToolGrep:
		d := e.CheckPath(OpSearch, in.Path, env)
		if !d.Stops() && in.Glob != "" {
			d = Stronger(d, e.checkSearchGlob(in.Glob, in.Path, env))
		}
		if !d.Stops() {
			d = Stronger(d, e.checkCredentialSearch(tool, in, env))
		}
		return d
	case ToolEnterWorktree:
		return e.checkEnterWorktree(in.Path, in.Name, env)
	case ToolWebFetch, ToolWebSearch:
		return e.checkWeb(tool, in, env)
	case ToolGlob, ToolLS:
		d := e.CheckPath(OpList, in.Path, env)
		if !d.Stops() && tool == ToolGlob {
			d = Stronger(d, e.checkCredentialSearch(tool, in, env))
		}
		return d
	}
	return Decision{}
}

// CheckCommand decides a shell command line as the Bash tool would run it.
func (e *Engine) CheckCommand(cmd string, env *Env) Decision {
	if len(cmd) > MaxCommandBytes {
		return badInput(fmt.Sprintf("the command is %d KiB long; swarm-guard refuses commands over %d KiB", len(cmd)>>10, MaxCommandBytes>>10),
			"write long scripts to a file in the worktree and run that file")
	}
	if strings.TrimSpace(cmd) == "" {
		return Decision{}
	}
	valid := utf8.ValidString(cmd)
	if !valid {
		cmd = strings.ToValidUTF8(cmd, "\uFFFD")
	}
	a := e.newAnalyzer(env)
	if e.explain != nil {
		a.explainTo(e.explain)
	}
	a.x.Script(cmd, a.initialState(), nil)
	if e.explain != nil && a.x.Aborted() {
		e.explain(walkStopped)
	}
	d := a.decision()
	// Writes reads the text as given: only a valid one is the same walk.
	d.writesNothing = valid && !a.x.Aborted() && !a.opaque && len(a.writtenFiles()) == 0
	if strings.Contains(cmd, "://") {
		d.sentURLs = a.urls // as SentURLs lists them
	}
	return d
}

// WrittenFiles returns the files a shell command writes, as far as the
// command text tells: redirection targets, tee, cp/mv/install/ln
// destinations, sed -i and perl -i files, dd of=, and so on. Paths are
// absolute; a destination may be a directory. The PostToolUse secret scan
// reads them after the command ran.
func (e *Engine) WrittenFiles(cmd string, env *Env) []string {
	files, _ := e.Writes(cmd, env)
	return files
}

// Writes returns the files cmd writes, as WrittenFiles, and whether the
// command may also write files the analysis cannot list (opaque): a
// program the guard has no model of, or a write to a path only known at
// run time. When opaque is false the list is complete: after ls, git
// status or go test there is nothing to scan, after echo x > f only f.
func (e *Engine) Writes(cmd string, env *Env) (files []string, opaque bool) {
	if len(cmd) > MaxCommandBytes {
		return nil, true
	}
	if strings.TrimSpace(cmd) == "" {
		return nil, false
	}
	a := e.newAnalyzer(env)
	a.x.Script(cmd, a.initialState(), nil)
	if a.x.Aborted() {
		return nil, true
	}
	return a.writtenFiles(), a.opaque
}

// writtenFiles is the files the walk saw written, each once, without
// sinks such as /dev/null.
func (a *analyzer) writtenFiles() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range a.writes {
		if !seen[p] && !isSink(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func derefOr(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}

// walkStopped is Explain's line for a walk that gave up.
const walkStopped = "the walk stopped early: the command is too deep or too long to follow"

// explainTo has the walk describe every invocation and effect to line.
func (a *analyzer) explainTo(line func(string)) {
	a.trace = func(inv *shell.Invocation) { line("invocation: " + describeInvocation(inv)) }
	a.traceEffect = func(x effect.Effect) { line(fmt.Sprintf("effect: %T %+v", x, x)) }
}

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

func (e *Engine) newAnalyzer(env *Env) *analyzer {
	if env == nil {
		env = &Env{Cwd: "/", Root: "/"}
	}
	a := &analyzer{eng: e, pol: e.pol, env: env, m: compileMatchers(e.pol, env)}
	a.x = shell.Walker{Families: a, Expander: shell.Expander{Tools: a, Env: shell.Env{Home: env.Home, Cwd: env.Cwd, Root: env.Root, Temp: env.Temp,
		Vars: env.Vars, Unset: env.Unset, Resolve: env.Resolve}}}
	return a
}
