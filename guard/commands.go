package guard

import (
	"path"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// judgeFrom is judge for an effect whose trigger starts at an earlier
// node: the producer of a pipeline (curl ... | sh) is part of what runs.
func (a *analyzer) judgeFrom(inv *shell.Invocation, from syntax.Node, e effect.Effect) {
	n := len(a.findings)
	a.judge(inv, e)
	if from == nil || inv.Node == nil || len(a.findings) == n {
		return
	}
	if t := a.excerptSpan(from, inv.Node); t != "" {
		for i := n; i < len(a.findings); i++ {
			a.findings[i].trigger = t
		}
	}
}

// hashCmd records hash -p PROGRAM NAME: NAME now runs PROGRAM.
func (a *analyzer) hashCmd(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "p"})
	prog, ok := p.Value("p")
	if !ok {
		return
	}
	for _, n := range p.Operands {
		if !n.Static() {
			continue
		}
		if !prog.Static() {
			a.judge(inv, effect.HiddenCode{By: "hash -p", What: n.Text, Why: effect.BoundProgram})
			continue
		}
		if a.progs == nil {
			a.progs = map[string]string{}
		}
		a.progs["hash:"+n.Text] = prog.Text
	}
}

// dataCommands treat their arguments as data or only look at file names:
// naming a secret file in them is not access.
var dataCommands = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{
		"echo": true, "true": true, "false": true, ":": true, "test": true, "[": true,
		"ls": true, "stat": true, "file": true, "du": true, "realpath": true, "readlink": true, "basename": true,
		"dirname": true, "which": true, "type": true, "whereis": true, "man": true, "help": true, "date": true,
		"sleep": true, "pwd": true, "id": true, "whoami": true, "uname": true, "hostname": true, "mkdir": true,
		"exit": true, "return": true, "wait": true, "jobs": true, "kill": true, "ulimit": true,
		"umask": true, "history": true, "tput": true, "clear": true, "seq": true, "yes": true, "expr": true,
		"let": true, "shopt": true, "setopt": true, "unsetopt": true, "emulate": true, "compgen": true,
		"complete": true, "disown": true, "bg": true, "fg": true, "logger": true, "notify-send": true,
		"gh": true, "lsof": true, "ps": true, "pgrep": true, "uptime": true, "nproc": true, "free": true, "df": true,
	}
	return m
})

// invoke dispatches one resolved command.
func (a *analyzer) invoke(inv *shell.Invocation) {
	if !a.x.Visit() || len(inv.Argv) == 0 {
		return
	}
	head := inv.Argv[0]
	if head.Dynamic || head.Glob || head.Echoed {
		a.judge(inv, effect.HiddenCode{What: quoteShow(head), Why: effect.CommandName})
		return
	}
	inv.Name = commandName(head.Text)
	if prog, ok := a.programFor(inv, head); ok && len(inv.Via) < shell.MaxDepth {
		// A link, copy or hash -p entry the command made: the real program runs.
		a.x.Reinvoke(inv, append([]shell.Word{{Text: prog, Src: head.Src}}, inv.Args()...), head.Text)
		return
	}
	if strings.Contains(head.Text, "/") {
		a.readPath(inv, head) // running ./.env reads it
		a.runFile(inv, head, "")
	}
	// command and builtin skip shell functions: git() { command git "$@"; }
	// calls the real git. Inside its own body a function is not re-entered.
	if fn, ok := inv.State.Funcs[inv.Name]; ok && !strings.Contains(head.Text, "/") && !inv.ViaBuiltin() && !inv.State.InFunc[inv.Name] {
		if forkBomb(fn, inv.Name) {
			a.judge(inv, effect.ForkBomb{Function: inv.Name})
		}
		a.x.CallFunction(fn, inv)
		return
	}
	if !quietProgram(inv) {
		a.opaque = true
	}
	if a.env.CaseInsensitive && inv.Name != strings.ToLower(inv.Name) {
		// RM and Git find /bin/rm and git on a file system that ignores
		// case (macOS): judge them as the program that runs.
		inv.Name = strings.ToLower(inv.Name)
	}
	if a.trace != nil {
		a.trace(inv)
	}
	if helpOnly(inv) {
		return // gh pr merge --help prints help and does nothing else
	}
	if hs, ok := programs()[inv.Name]; ok {
		for _, h := range hs {
			h(a, inv)
		}
		return
	}
	if sub, ok := strings.CutPrefix(inv.Name, "git-"); ok && sub != "" {
		a.dashedGit(inv, sub)
		return
	}
	a.genericCommand(inv)
}

// genericCommand handles commands the guard has no model of: their static
// arguments may be file operands, so secret files among them are access.
func (a *analyzer) genericCommand(inv *shell.Invocation) {
	for _, x := range inv.Args() {
		a.readOperand(inv, x)
	}
}

// readOperand treats an argument (or the value of --opt=value) as a file
// the command may read.
func (a *analyzer) readOperand(inv *shell.Invocation, x shell.Word) {
	if x.Dynamic {
		if environTemplate(x.Template()) {
			a.readPath(inv, x)
		}
		return
	}
	if strings.HasPrefix(x.Text, "-") {
		if _, v, ok := strings.Cut(x.Text, "="); ok && v != "" {
			a.readPath(inv, shell.Word{Text: v, Glob: x.Glob, Src: x.Src})
		}
		return
	}
	if strings.HasPrefix(x.Text, "@") && len(x.Text) > 1 {
		a.readPath(inv, shell.Word{Text: x.Text[1:], Glob: x.Glob, Src: x.Src}) // curl -d @file, gh --body-file @x
	}
	if _, v, ok := strings.Cut(x.Text, "="); ok && v != "" && !strings.Contains(x.Text[:strings.Index(x.Text, "=")], "/") {
		a.readPath(inv, shell.Word{Text: v, Glob: x.Glob, Src: x.Src}) // dd if=.env, key=value forms
	}
	a.readPath(inv, x)
}

func (a *analyzer) dataCommand(inv *shell.Invocation) {}

// --- shell builtins that change the analysis state ---

// cd, chdir, pushd and popd change the working directories (shell.Walker.Cd).
func cd(a *analyzer, inv *shell.Invocation) { a.x.Cd(inv) }

// source and . run a file's body in this shell (shell.Walker.SourceCmd).
func source(a *analyzer, inv *shell.Invocation) { a.x.SourceCmd(inv) }

// DynamicScript judges a script only known at run time
// (shell.Families.DynamicScript).
func (a *analyzer) DynamicScript(inv *shell.Invocation, script shell.Word, what string) {
	if what == "eval" && a.envSetup(script) {
		return
	}
	src, from := "text only known at run time", effect.FromRunTime
	switch {
	case script.Net:
		src, from = "downloaded text", effect.FromNetwork
	case script.Proc:
		src, from = "the output of a process substitution", effect.FromProcess
	}
	a.judge(inv, effect.UnreadCode{By: what, Code: src + " (" + clip(script.Show()) + ")", How: effect.ScriptWord, From: from})
}

// --- wrappers: commands that run another command ---

// plainWrapper sees through a wrapper that only runs another command
// (nohup, timeout, nice, exec, command ...): shell.Wrapped knows their
// arguments.
func (a *analyzer) plainWrapper(inv *shell.Invocation) {
	a.x.Reinvoke(inv, shell.Wrapped(inv), inv.Name)
}

// envSetupCommands print the shell code that puts an installed tool
// manager on the PATH, run as eval "$(brew shellenv)": the code comes
// from the tool installed on this machine, not from the agent or the
// network, and only sets variables and functions.
var envSetupCommands = map[string]bool{
	"brew shellenv": true, "brew shellenv bash": true, "brew shellenv zsh": true,
	"pyenv init -": true, "pyenv init --path": true, "pyenv init - bash": true, "pyenv init - zsh": true, "pyenv virtualenv-init -": true,
	"rbenv init -": true, "rbenv init - bash": true, "rbenv init - zsh": true, "nodenv init -": true, "goenv init -": true, "jenv init -": true,
	"direnv hook bash": true, "direnv hook zsh": true, "direnv export bash": true, "direnv export zsh": true,
	"fnm env": true, "fnm env --use-on-cd": true, "zoxide init bash": true, "zoxide init zsh": true,
	"mise activate bash": true, "mise activate zsh": true, "mise env": true, "ssh-agent -s": true, "ssh-agent": true,
	"opam env": true, "conda shell.bash hook": true, "conda shell.zsh hook": true, "luarocks path": true,
}

// envSetup reports whether an eval's script is the output of one of the
// envSetupCommands, run by its bare name or from an installed location
// (/opt/homebrew/bin/brew), not from a file the agent can write.
func (a *analyzer) envSetup(script shell.Word) bool {
	src := strings.TrimSpace(script.Src)
	if len(src) >= 2 && src[0] == '"' && src[len(src)-1] == '"' {
		src = src[1 : len(src)-1]
	}
	inner, ok := strings.CutPrefix(src, "$(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return false
	}
	fields := strings.Fields(strings.TrimSuffix(inner, ")"))
	if len(fields) < 2 {
		return false
	}
	prog := fields[0]
	if strings.Contains(prog, "/") {
		if !path.IsAbs(prog) || a.underRoot(prog) || a.writable(prog) || strings.HasPrefix(prog, a.env.Temp+"/") {
			return false
		}
		prog = path.Base(prog)
	}
	return envSetupCommands[prog+" "+strings.Join(fields[1:], " ")]
}

// helpCLIs print their help and stop when --help (or -h) appears anywhere
// among the options of any subcommand: their option parsers (cobra, git's
// parse-options, clap, yargs, oclif) treat it before running anything.
var helpCLIs = map[string]bool{
	"gh": true, "glab": true, "git": true, "kubectl": true, "helm": true, "terraform": true, "tofu": true,
	"cargo": true, "npm": true, "vercel": true, "netlify": true, "fly": true, "flyctl": true, "wrangler": true,
	"firebase": true, "supabase": true, "gcloud": true, "az": true, "twine": true, "mc": true,
	"rclone": true, "azcopy": true, "doctl": true, "pulumi": true, "cdk": true,
}

// forgeCoreCommands are gh's and glab's own commands: an extension or an
// alias (gh my-ext --help) gets --help as an argument and runs.
var forgeCoreCommands = map[string]bool{
	"pr": true, "mr": true, "issue": true, "repo": true, "release": true, "gist": true, "snippet": true, "api": true,
	"run": true, "workflow": true, "ci": true, "secret": true, "variable": true, "ssh-key": true, "gpg-key": true,
	"label": true, "cache": true, "project": true, "ruleset": true, "search": true, "status": true, "auth": true,
	"deploy-key": true, "schedule": true, "cluster": true, "incident": true, "environment": true,
}

// helpOnly reports whether inv asks one of the helpCLIs for help: a
// static --help (or a final -h) before any "--", not taken as the value
// of the option before it (gh pr merge 1 --subject --help merges, with
// the subject "--help").
func helpOnly(inv *shell.Invocation) bool {
	if !helpCLIs[inv.Name] {
		return false
	}
	args := inv.Args()
	if (inv.Name == "gh" || inv.Name == "glab") && (len(args) == 0 || !forgeCoreCommands[args[0].Text]) {
		return false
	}
	for i, x := range args {
		if !x.Static() {
			return false // an unknown word may be "--" or an option's value
		}
		if x.Text == "--" {
			return false
		}
		if x.Text != "--help" && !(x.Text == "-h" && i == len(args)-1) {
			continue
		}
		if i > 0 && strings.HasPrefix(args[i-1].Text, "-") && !strings.Contains(args[i-1].Text, "=") {
			return false
		}
		return true
	}
	return false
}
