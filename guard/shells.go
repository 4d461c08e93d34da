package guard

import (
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/shell"
)

var shellNames = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash", "oksh", "pdksh", "loksh"}

// shellOptionLetters are the single-letter options of bash and sh. An
// argument with any other letter is not an option: it is the script.
const shellOptionLetters = "abcefhiklmnprstuvxBCDEHPT"

// shellLongOptions are the long options of bash, zsh and dash; anything
// else starting with -- is not an option.
var shellLongOptions = map[string]bool{"--norc": true, "--noprofile": true, "--login": true, "--posix": true,
	"--restricted": true, "--verbose": true, "--version": true, "--help": true, "--debugger": true,
	"--dump-strings": true, "--dump-po-strings": true, "--noediting": true, "--pretty-print": true,
	"--no-rcs": true, "--no-globalrcs": true, "--emulate": true}

func isShellName(n string) bool {
	for _, s := range shellNames {
		if s == n {
			return true
		}
	}
	return false
}

// shell handles bash -c SCRIPT, bash FILE and bash reading its script from
// standard input.
func (a *analyzer) shell(inv *shell.Invocation) {
	args := inv.Args()
	cflag, sflag, errexit := false, false, false
	i := 0
scan:
	for ; i < len(args); i++ {
		x := args[i]
		if x.Dynamic {
			break
		}
		s := x.Text
		switch {
		case s == "--" || s == "-":
			i++
			break scan
		case s == "-o" || s == "+o" || s == "-O" || s == "+O" || s == "--rcfile" || s == "--init-file":
			if s == "-o" && i+1 < len(args) && args[i+1].Text == "errexit" {
				errexit = true
			}
			if (s == "--rcfile" || s == "--init-file") && i+1 < len(args) {
				a.runFile(inv, args[i+1], "sh") // an interactive bash sources it first
			}
			i++
		case s == "--command":
			cflag = true
		case shellLongOptions[s]:
		case len(s) > 1 && (s[0] == '-' || s[0] == '+') && strings.Trim(s[1:], shellOptionLetters) == "":
			if s[0] == '-' {
				cflag = cflag || strings.Contains(s, "c")
				sflag = sflag || strings.Contains(s, "s")
				errexit = errexit || strings.Contains(s, "e")
			}
		default:
			break scan
		}
	}
	rest := args[min(i, len(args)):]
	if cflag {
		if len(rest) == 0 {
			return
		}
		script := rest[0]
		if script.Dynamic || script.Proc {
			a.dynamicScript(inv, script, inv.Name+" -c")
			return
		}
		st := inv.State.Clone()
		st.Positional, st.PosUnknown = nil, false
		if len(rest) > 1 {
			st.Vars["0"] = []shell.Word{rest[1]}
			st.Positional = append([]shell.Word(nil), rest[2:]...)
		}
		st.Errexit = errexit
		a.script(script.Text, st, nil)
		return
	}
	if sflag || len(rest) == 0 {
		a.stdinScriptArgs(inv, inv.Name, rest, true)
		return
	}
	if len(rest) > 0 {
		f := rest[0]
		switch {
		case f.Proc:
			a.dynamicScript(inv, f, inv.Name)
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
	a.script(in.Text, st, nil)
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
