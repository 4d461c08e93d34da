package shell

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// The builtins that change the shell's state or run text as a script in
// it. Package guard's dispatch table calls them by name, so the tool
// families can still layer their own checks onto a builtin; what a
// builtin does to a variable the families judge (Families.Judge,
// Families.Assigned), and a script only known at run time
// goes to Families.DynamicScript.

// RunScript walks a word that a shell will run as a script (trap, su -c,
// flock -c, a git alias ...) in a copy of the invocation's state, or hands
// it to the families when it is only known at run time. what names the
// construct for messages ("trap", "su -c").
func (w *Walker) RunScript(inv *Invocation, script Word, what string) {
	if script.Dynamic {
		w.Families.DynamicScript(inv, script, what)
		return
	}
	w.Script(script.Text, inv.State.Clone(), nil)
}

// Eval runs its arguments, joined, as a script in this shell: its cd and
// assignments stay (unless eval itself runs behind a wrapper).
func (w *Walker) Eval(inv *Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	script := JoinWords(args)
	if script.Dynamic {
		w.Families.DynamicScript(inv, script, "eval")
		return
	}
	st := inv.State
	if !inv.InThisShell() {
		st = st.Clone()
	}
	w.Script(script.Text, st, nil)
}

// Read applies read, mapfile, readarray and getopts: the variables they
// assign get values only known at run time; mapfile -C's callback is a
// script that runs for every chunk.
func (w *Walker) Read(inv *Invocation) {
	args := inv.Args()
	if inv.Name == "mapfile" || inv.Name == "readarray" {
		p := ParseOpts(args, Spec{Short: "dnOsuCc"})
		if cb, ok := p.Value("C"); ok {
			w.RunScript(inv, cb, inv.Name+" -C")
		}
	}
	// find ... | while read -r f: f is one of the paths find lists (a
	// name with a line break in it can split, as with xargs; see Xargs).
	listed, names := Word{Dynamic: true}, 0
	if inv.Name == "read" && inv.Stdin != nil && len(inv.Stdin.Paths) == 1 && !inv.Stdin.Paths[0].Dynamic {
		listed = inv.Stdin.Paths[0]
		for _, x := range args {
			if !x.Dynamic && IsName(x.Text) {
				names++
			}
		}
		w.Families.Reads(inv, listed)
	}
	for i, x := range args {
		if x.Dynamic || strings.HasPrefix(x.Text, "-") {
			if inv.Name == "read" && (x.Text == "-d" || x.Text == "-n" || x.Text == "-N" || x.Text == "-p" || x.Text == "-t" || x.Text == "-u" || x.Text == "-i") {
				args[i+min(1, len(args)-1-i)].Src = "\x00skip"
			}
			continue
		}
		if x.Src == "\x00skip" {
			continue
		}
		if IsName(x.Text) {
			w.rebound(x.Text, inv.Name, inv, inv.State, nil)
			if names == 1 && !listed.Dynamic {
				inv.State.Vars[x.Text] = []Word{listed}
				continue
			}
			inv.State.Vars[x.Text] = []Word{{Dynamic: true, Src: "$" + x.Text}}
		}
	}
	if inv.Name == "read" && len(args) == 0 {
		inv.State.Vars["REPLY"] = []Word{{Dynamic: true, Src: "$REPLY"}}
		if !listed.Dynamic {
			inv.State.Vars["REPLY"] = []Word{listed}
		}
	}
}

// PrintfVar applies printf -v NAME: NAME gets a value chosen at run time.
func (w *Walker) PrintfVar(inv *Invocation) {
	args := inv.Args()
	for i := 0; i+1 < len(args); i++ {
		if args[i].Text == "-v" && IsName(args[i+1].Text) {
			w.rebound(args[i+1].Text, "printf -v", inv, inv.State, nil)
			inv.State.Vars[args[i+1].Text] = []Word{{Dynamic: true, Src: "$" + args[i+1].Text}}
		}
	}
}

// Export applies export, declare, typeset, local and readonly when the
// parser sees them as plain commands (zsh and POSIX modes, or `builtin
// export`): NAME=value assigns.
func (w *Walker) Export(inv *Invocation) {
	for _, x := range inv.Args() {
		if x.Dynamic || strings.HasPrefix(x.Text, "-") {
			continue
		}
		name, val, ok := strings.Cut(x.Text, "=")
		if !IsName(name) || !ok {
			continue
		}
		v := []Word{{Text: val}}
		inv.State.Assign(name, v)
		w.Families.Assigned(name, v, inv.State, inv, inv.Node)
	}
}

// Unset applies unset: the variable is empty, the function gone.
func (w *Walker) Unset(inv *Invocation) {
	for _, x := range inv.Args() {
		if !x.Dynamic {
			w.Families.Judge(inv, effect.Variable{Name: x.Text, How: "unset", Unset: true})
		}
		if !x.Dynamic && IsName(x.Text) {
			inv.State.Vars[x.Text] = []Word{{Text: ""}}
			delete(inv.State.Funcs, x.Text)
		}
	}
}

// Alias applies alias NAME=VALUE: the value is a command that may run
// later, so it is walked; it is also remembered, so a later use of the
// alias in this command is expanded (callExpr).
func (w *Walker) Alias(inv *Invocation) {
	for _, x := range inv.Args() {
		if x.Dynamic {
			continue
		}
		if name, val, ok := strings.Cut(x.Text, "="); ok {
			w.Script(val, inv.State.Clone(), nil)
			if inv.InThisShell() {
				inv.State.Aliases[name] = val
			}
		}
	}
}

// Trap applies trap ACTION SIGNAL...: the action is a script that runs
// later in this shell.
func (w *Walker) Trap(inv *Invocation) {
	args := inv.Args()
	if len(args) < 2 || strings.HasPrefix(args[0].Text, "-") {
		return
	}
	w.RunScript(inv, args[0], "trap")
}

// Shells are the shells' program names.
var Shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash", "oksh", "pdksh", "loksh"}

// IsShell reports whether a program name is a shell's.
func IsShell(n string) bool {
	for _, s := range Shells {
		if s == n {
			return true
		}
	}
	return false
}

// shellOptionLetters are the single-letter options of bash and sh. An
// argument with any other letter is not an option: it is the script.
const shellOptionLetters = "abcefhiklmnprstuvxBCDEHPT"

// shellLongOptions are the long options of bash, zsh and dash; anything
// else starting with -- is not an option.
var shellLongOptions = map[string]bool{"--norc": true, "--noprofile": true, "--login": true, "--posix": true,
	"--restricted": true, "--verbose": true, "--version": true, "--help": true, "--debugger": true,
	"--dump-strings": true, "--dump-po-strings": true, "--noediting": true, "--pretty-print": true,
	"--no-rcs": true, "--no-globalrcs": true, "--emulate": true}

// ShellCall is how a shell (sh, bash, zsh ...) was asked to run, from its
// arguments.
type ShellCall struct {
	Command bool // -c: Rest[0] is the script, Rest[1] its $0, then its positional parameters
	Stdin   bool // -s: the script comes from standard input, Rest are its positional parameters
	Errexit bool // -e or -o errexit
	// NoExec: -n reads the commands and runs none (a syntax check); an
	// interactive shell (-i) ignores it.
	NoExec bool
	// RCFiles are the values of --rcfile and --init-file: files an
	// interactive bash sources first.
	RCFiles []Word
	Rest    []Word // the arguments after the options
}

// ParseShell reads a shell's options; the first argument that is not an
// option ends them (bash -c 'script' name args, bash file args).
func ParseShell(args []Word) ShellCall {
	var c ShellCall
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
				c.Errexit = true
			}
			if (s == "--rcfile" || s == "--init-file") && i+1 < len(args) {
				c.RCFiles = append(c.RCFiles, args[i+1])
			}
			i++
		case s == "--command":
			c.Command = true
		case shellLongOptions[s]:
		case len(s) > 1 && (s[0] == '-' || s[0] == '+') && strings.Trim(s[1:], shellOptionLetters) == "":
			if s[0] == '-' {
				c.NoExec = c.NoExec || strings.Contains(s, "n") && !strings.Contains(s, "i")
				c.Command = c.Command || strings.Contains(s, "c")
				c.Stdin = c.Stdin || strings.Contains(s, "s")
				c.Errexit = c.Errexit || strings.Contains(s, "e")
			}
		default:
			break scan
		}
	}
	c.Rest = args[min(i, len(args)):]
	return c
}

// ShellCommand walks the script of sh -c SCRIPT [NAME [ARGS...]] in a new
// shell: NAME is its $0, ARGS its positional parameters, -e its errexit.
func (w *Walker) ShellCommand(inv *Invocation, c ShellCall) {
	if len(c.Rest) == 0 {
		return
	}
	script := c.Rest[0]
	if script.Dynamic || script.Proc {
		w.Families.DynamicScript(inv, script, inv.Name+" -c")
		return
	}
	st := inv.State.Clone()
	st.Positional, st.PosUnknown = nil, false
	if len(c.Rest) > 1 {
		st.Vars["0"] = []Word{c.Rest[1]}
		st.Positional = append([]Word(nil), c.Rest[2:]...)
	}
	st.Errexit = c.Errexit
	w.Script(script.Text, st, nil)
}

// Shell runs a shell program (sh, bash, zsh ...): its start-up files,
// then the script of -c, a script on standard input (-s, or no operand),
// or a script file, whose body the families read (Families.RunFile).
func (w *Walker) Shell(inv *Invocation) {
	c := ParseShell(inv.Args())
	if c.NoExec {
		return // bash -n reads the script for syntax errors and runs nothing
	}
	for _, f := range c.RCFiles {
		w.Families.RunFile(inv, f, "sh") // an interactive bash sources it first
	}
	if c.Command {
		w.ShellCommand(inv, c)
		return
	}
	if c.Stdin || len(c.Rest) == 0 {
		w.stdinScript(inv, inv.Name, c.Rest, true)
		return
	}
	f := c.Rest[0]
	switch {
	case f.Proc:
		w.Families.DynamicScript(inv, f, inv.Name)
	case f.Static() && (f.Text == "/dev/stdin" || f.Text == "/proc/self/fd/0"):
		w.StdinScript(inv, inv.Name)
	default:
		w.Families.Reads(inv, f) // a script file: its body is not read here, but a secret file is not a script
		w.Families.RunFile(inv, f, "sh")
	}
}

// SourceCmd runs source FILE and . FILE: the file's body in this shell
// (Families.RunFile), or the script on standard input.
func (w *Walker) SourceCmd(inv *Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	f := args[0]
	switch {
	case f.Proc || f.Dynamic && f.Net:
		w.Families.DynamicScript(inv, f, inv.Name)
	case f.Static() && (f.Text == "/dev/stdin" || f.Text == "/proc/self/fd/0" || f.Text == "-"):
		w.StdinScript(inv, "source")
	default:
		w.Families.Reads(inv, f)
		w.Families.RunFile(inv, f, "sh")
	}
}

// StdinScript walks the script a command reads on standard input (bash,
// source /dev/stdin, at, ssh): its text when known. A file the redirect
// names runs as that file (bash < script.sh as bash script.sh); text only
// known at run time goes to Families.ScriptInput.
func (w *Walker) StdinScript(inv *Invocation, what string) {
	w.stdinScript(inv, what, nil, false)
}

// stdinScript is StdinScript with the positional parameters of bash -s
// ARGS.
func (w *Walker) stdinScript(inv *Invocation, what string, positional []Word, setPositional bool) {
	in := inv.Stdin
	if in != nil && in.File && in.FilePath.Text != "" {
		w.Families.RunFile(inv, in.FilePath, "sh")
		return
	}
	if in == nil || in.File {
		return // an interactive shell, or a file the redirect does not name
	}
	if in.Dynamic || in.Subst {
		w.Families.ScriptInput(inv, what)
		return
	}
	st := inv.State.Clone()
	if setPositional {
		st.Positional, st.PosUnknown = append([]Word(nil), positional...), false
	}
	w.Script(in.Text, st, nil)
}
