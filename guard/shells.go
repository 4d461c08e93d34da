package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// ScriptInput judges a script a command reads on standard input that is
// only known at run time (shell.Walker.StdinScript): downloaded text, the
// output of a command, text whose $(...) output becomes script.
func (a *analyzer) ScriptInput(inv *shell.Invocation, what string) {
	in := inv.Stdin
	src := in.Desc
	if in.Subst {
		src += " whose $(...) output becomes script text"
	}
	if in.Net {
		src = "downloaded text (" + in.Desc + ")"
	}
	a.judgeFrom(inv, in.From, effect.UnreadCode{By: what, Code: src, How: effect.ScriptInput})
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
