package guard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// commandVars hold commands that git or other tools run through a shell.
var commandVars = map[string]bool{
	"GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "GIT_PAGER": true, "PAGER": true, "EDITOR": true, "VISUAL": true,
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_EXTERNAL_DIFF": true,
	"GIT_PROXY_COMMAND": true, "LESSOPEN": true, "LESSCLOSE": true, "MANPAGER": true, "SUDO_ASKPASS": true,
}

// envAssign checks a variable assignment: some variables are commands that
// will run later or git config; what others do to the guard (identity
// variables, hook switches) the guard-tamper rule judges from an
// effect.Variable.
func (a *analyzer) envAssign(name string, val []shell.Word, st *shell.State, inv *shell.Invocation, node syntax.Node) {
	rep := inv
	if rep == nil {
		rep = &shell.Invocation{Name: name, Argv: []shell.Word{{Text: name + "=" + showVals(val)}}, State: st, Node: node}
	}
	upper := strings.ToUpper(name)
	switch {
	case commandVars[upper]:
		for _, v := range val {
			if v.Dynamic {
				a.judge(rep, effect.HiddenCode{What: name, Why: effect.CommandVariable})
				continue
			}
			s := strings.TrimSpace(v.Text)
			if s == "" || s == ":" || s == "true" || s == "cat" {
				continue
			}
			a.routeThrough(rep, name, s, proxyVarHosts(upper, s))
			a.x.Script(strings.TrimPrefix(s, "|"), st.Clone(), nil)
		}
	case (upper == "HTTP_PROXY" || upper == "HTTPS_PROXY" || upper == "ALL_PROXY") && inv != nil && isGitInvocation(inv):
		for _, v := range val {
			if v.Static() {
				a.routeThrough(rep, name, v.Text, proxyVarHosts(upper, v.Text))
			}
		}
	case upper == "GIT_CONFIG_PARAMETERS":
		for _, v := range val {
			if v.Dynamic {
				a.judge(rep, effect.GuardChange{Change: effect.ConfigVarUnread})
				continue
			}
			for _, kv := range configParameters(v.Text) {
				a.gitConfigWrite(rep, kv[0], shell.Word{Text: kv[1], Src: v.Src}, true, nil)
			}
		}
	case upper == "PATH" && inv != nil && isGitInvocation(inv):
		a.shadowsGuardOnPath(rep, name, val, st)
	case strings.HasPrefix(upper, "GIT_CONFIG_KEY_"):
		idx := strings.TrimPrefix(upper, "GIT_CONFIG_KEY_")
		valueVar := "GIT_CONFIG_VALUE_" + idx
		var values []shell.Word
		if inv != nil {
			values = inv.Env[valueVar]
		}
		if values == nil {
			values = st.Vars[valueVar]
		}
		for _, k := range val {
			if k.Dynamic {
				a.judge(rep, effect.GuardChange{Change: effect.ConfigVarUnreadKey, Command: name})
				continue
			}
			v := shell.Word{Dynamic: true}
			if len(values) == 1 {
				v = values[0]
			}
			a.gitConfigWrite(rep, k.Text, v, true, nil)
		}
	case upper == "BASH_ENV" || upper == "ENV" || upper == "ZDOTDIR":
		// Files a shell sources when it starts: bash -c reads $BASH_ENV,
		// an interactive sh reads $ENV, zsh reads $ZDOTDIR/.zshenv. Any
		// later shell of this command runs them, so they are read as
		// scripts now.
		for _, v := range val {
			if v.Dynamic {
				a.judge(rep, effect.HiddenCode{What: name, Why: effect.CommandVariable})
				continue
			}
			if upper == "ZDOTDIR" {
				v = shell.Word{Text: strings.TrimSuffix(v.Text, "/") + "/.zshenv", Src: v.Src}
			}
			if v.Text != "" {
				a.runFile(rep, v, "sh")
			}
		}
	case upper == "PS1" || upper == "PS2" || upper == "PS3" || upper == "PS4":
		// Prompts run their $(...) when shown: PS4 on every line of bash -x.
		for _, v := range val {
			a.promptString(rep, v, st)
		}
	case upper == "PROMPT_COMMAND":
		for _, v := range val {
			a.x.RunScript(rep, v, name)
		}
	default:
		if inv != nil && leafCommand(inv) {
			return // CLAUDECODE= ls: a command that starts no other program reads no identity, hook or git variable
		}
		if upper == "CLAUDE_PROJECT_DIR" && len(val) == 1 && val[0].Static() && a.env.Root != "" && shell.CleanJoin(st.FirstCwd(a.env.Cwd), val[0].Text) == a.env.Root {
			return // the value it has already: the agent's own worktree
		}
		// Identity variables, hook switches, git config redirection: the
		// guard-tamper rule's (guard/rules/guard_tamper.go).
		vals := make([]effect.Value, len(val))
		for i, v := range val {
			vals[i] = effect.Value{Text: v.Show(), Dynamic: v.Dynamic}
		}
		a.judge(rep, effect.Variable{Name: name, Values: vals, ForGit: inv != nil && isGitInvocation(inv)})
	}
}

// leafCommands start no other program (no git, no hook, no swarm-guard),
// so a variable set for just one of them changes nothing the guard relies
// on: CLAUDECODE= ls, AGENT_ID=x printenv AGENT_ID.
var leafCommands = map[string]bool{
	"echo": true, "printf": true, "true": true, "false": true, ":": true, "test": true, "[": true, "pwd": true,
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true, "egrep": true, "fgrep": true, "rg": true,
	"sort": true, "uniq": true, "cut": true, "tr": true, "date": true, "printenv": true, "whoami": true, "id": true,
	"uname": true, "basename": true, "dirname": true, "realpath": true, "readlink": true, "stat": true, "file": true,
	"du": true, "df": true, "jq": true, "which": true,
}

// leafCommand reports whether inv is a plain run of a leaf command.
func leafCommand(inv *shell.Invocation) bool {
	return len(inv.Argv) > 0 && inv.Argv[0].Static() && leafCommands[inv.Argv[0].Text]
}

func showVals(val []shell.Word) string {
	if len(val) == 0 {
		return ""
	}
	return val[0].Show()
}

// configParameters parses GIT_CONFIG_PARAMETERS: quoted 'key=value' or
// 'key'='value' items separated by spaces.
func configParameters(s string) [][2]string {
	var items []string
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '\'')
		if j < 0 {
			break
		}
		item := s[i+1 : i+1+j]
		s = s[i+j+2:]
		if strings.HasPrefix(s, "=") && len(s) > 1 && s[1] == '\'' {
			if k := strings.IndexByte(s[2:], '\''); k >= 0 {
				item += "=" + s[2:2+k]
				s = s[k+3:]
			}
		}
		items = append(items, item)
	}
	var out [][2]string
	for _, it := range items {
		k, v, _ := strings.Cut(it, "=")
		out = append(out, [2]string{k, v})
	}
	return out
}

func isGitInvocation(inv *shell.Invocation) bool {
	if len(inv.Argv) == 0 || inv.Argv[0].Dynamic {
		return false
	}
	name := commandName(inv.Argv[0].Text)
	return name == "git" || strings.HasPrefix(name, "git-")
}

// promptString checks a prompt-expanded string (PS4, ${x@P}): its
// command substitutions run.
func (a *analyzer) promptString(inv *shell.Invocation, v shell.Word, st *shell.State) {
	if v.Dynamic {
		if strings.Contains(v.Template(), "$(") || strings.Contains(v.Template(), "`") || strings.Contains(v.Template(), shell.UnknownMark) {
			a.judge(inv, effect.HiddenCode{Why: effect.PromptText})
		}
		return
	}
	if !strings.Contains(v.Text, "$(") && !strings.Contains(v.Text, "`") {
		return
	}
	w, err := syntax.NewParser().Document(strings.NewReader(v.Text))
	if err != nil {
		a.judge(inv, effect.HiddenCode{What: v.Text, Why: effect.PromptUnparsed})
		return
	}
	saved := a.x.Src
	a.x.Src = v.Text
	a.x.Substitutions(w, st)
	a.x.Src = saved
}
