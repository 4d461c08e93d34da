package guard

import (
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/shell"
)

// shell handles bash -c SCRIPT, bash FILE and bash reading its script from
// standard input.
func (a *analyzer) shell(inv *shell.Invocation) {
	c := shell.ParseShell(inv.Args())
	for _, f := range c.RCFiles {
		a.runFile(inv, f, "sh") // an interactive bash sources it first
	}
	if c.Command {
		a.x.ShellCommand(inv, c)
		return
	}
	rest := c.Rest
	if c.Stdin || len(rest) == 0 {
		a.stdinScriptArgs(inv, inv.Name, rest, true)
		return
	}
	if len(rest) > 0 {
		f := rest[0]
		switch {
		case f.Proc:
			a.DynamicScript(inv, f, inv.Name)
		case f.Static() && (f.Text == "/dev/stdin" || f.Text == "/proc/self/fd/0"):
			a.stdinScript(inv, inv.Name)
		default:
			a.readPath(inv, f) // a script file: its body is not read, but a secret file is not a script
			a.runFile(inv, f, "sh")
		}
		return
	}
}

// stdinScript checks a script a shell reads from standard input.
func (a *analyzer) stdinScript(inv *shell.Invocation, what string) {
	a.stdinScriptArgs(inv, what, nil, false)
}

// stdinScriptArgs checks a script read from standard input with its
// positional parameters (bash -s ARGS).
func (a *analyzer) stdinScriptArgs(inv *shell.Invocation, what string, positional []shell.Word, setPositional bool) {
	in := inv.Stdin
	if in != nil && in.File && in.FilePath.Text != "" {
		a.runFile(inv, in.FilePath, "sh") // bash < script.sh runs the file as bash script.sh does
		return
	}
	if in == nil || in.File {
		return // an interactive shell, or a file the redirect does not name
	}
	if in.Dynamic || in.Subst {
		src := in.Desc
		if in.Subst {
			src += " whose $(...) output becomes script text"
		}
		if in.Net {
			src = "downloaded text (" + in.Desc + ")"
		}
		a.judgeFrom(inv, in.From, effect.UnreadCode{By: what, Code: src, How: effect.ScriptInput})
		return
	}
	st := inv.State.Clone()
	if setPositional {
		st.Positional, st.PosUnknown = slices.Clone(positional), false
	}
	a.x.Script(in.Text, st, nil)
}

// pwsh cannot be analysed: its commands are refused like dynamic ones.
func (a *analyzer) powershell(inv *shell.Invocation) {
	for _, x := range inv.Args() {
		s := strings.ToLower(x.Text)
		if s == "-c" || s == "-command" || s == "-encodedcommand" || s == "-e" || s == "-ec" || strings.HasPrefix(s, "-command") {
			a.judge(inv, effect.HiddenCode{By: inv.Name, Why: effect.PowerShell})
			return
		}
	}
}
