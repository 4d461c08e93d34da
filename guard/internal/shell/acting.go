package shell

import (
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// The acting wrappers: commands that run another command and do
// something of their own on the way (sudo and doas start a fresh
// environment, env changes it, time and strace write a file, su and
// flock run a script). Each says what runs, through Reinvoke (an argv) or
// RunScript (a script); what the wrapper itself does goes to the
// families (Families.Assigned, Writes, Fresh, Judge). Package guard's
// dispatch table names them.

// Reinvoke runs argv as the command wrapped by inv: the families get it
// as an invocation of its own, the wrapper added to Via.
func (w *Walker) Reinvoke(inv *Invocation, argv []Word, wrapper string) {
	if len(argv) == 0 {
		return
	}
	n := *inv
	n.Argv = argv
	n.Via = append(append([]string(nil), inv.Via...), wrapper)
	w.Families.Command(&n)
}

// hasArg reports whether args hold s before a "--".
func hasArg(args []Word, s string) bool {
	for _, x := range args {
		if x.Text == "--" {
			return false
		}
		if x.Text == s {
			return true
		}
	}
	return false
}

// LeadingAssignments moves NAME=value words (sudo, env) into the
// environment of inv and returns the words after them.
func (w *Walker) LeadingAssignments(inv *Invocation, args []Word) []Word {
	for len(args) > 0 && !args[0].Dynamic {
		name, val, ok := strings.Cut(args[0].Text, "=")
		if !ok || !IsName(name) {
			break
		}
		v := []Word{{Text: val, Src: args[0].Src}}
		if inv.Env == nil {
			inv.Env = map[string][]Word{}
		}
		inv.Env[name] = v
		w.Families.Assigned(name, v, inv.State, inv, inv.Node)
		args = args[1:]
	}
	return args
}

// Sudo runs the command after sudo's options and assignments (in -D's
// directory), in a fresh environment unless -E; sudo -e edits files.
func (w *Walker) Sudo(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "ugpUChrtTRD", Long: Longs("user", "group", "prompt", "other-user", "close-from", "host", "role", "type", "command-timeout", "chroot", "chdir"), Stop: true})
	if p.Has("e", "edit") {
		w.sudoeditFiles(inv, p.Rest)
		return
	}
	if p.Has("l", "list", "v", "validate", "k", "K", "V") && len(p.Rest) == 0 {
		return
	}
	rest := w.LeadingAssignments(inv, p.Rest)
	if d, ok := p.Value("D", "chdir"); ok {
		inv = w.WithCwd(inv, d)
	}
	w.Reinvoke(inv, rest, "sudo")
	if !p.Has("E", "preserve-env") {
		w.Families.Fresh(inv, "sudo", false, rest, Word{})
	}
}

// Sudoedit writes the files it edits.
func (w *Walker) Sudoedit(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "ugpUChrtTRD", Stop: true})
	w.sudoeditFiles(inv, p.Rest)
}

func (w *Walker) sudoeditFiles(inv *Invocation, files []Word) {
	for _, f := range files {
		w.Families.Writes(inv, f, "sudoedit edits")
	}
}

// Doas runs the command after its options in a fresh environment.
func (w *Walker) Doas(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "uC", Stop: true})
	w.Reinvoke(inv, p.Rest, "doas")
	w.Families.Fresh(inv, "doas", false, p.Rest, Word{})
}

// EnvCmd runs the command after env's options and assignments: -u
// unsets, -C changes directory, -S splits a string into env's own
// arguments, -i (or a lone -) empties the environment.
func (w *Walker) EnvCmd(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "uCSP", Long: Longs("unset", "chdir", "split-string", "block-signal", "default-signal", "ignore-signal"), OptionalLong: Longs("block-signal", "default-signal", "ignore-signal"), Stop: true})
	rest := p.Rest
	// A lone "-" is -i (start with an empty environment), not the command.
	for len(rest) > 0 && rest[0].Static() && rest[0].Text == "-" {
		rest = rest[1:]
	}
	if s, ok := p.Value("S", "split-string"); ok {
		if s.Dynamic {
			w.Families.Judge(inv, effect.HiddenCode{By: "env -S", Why: effect.SplitText})
			return
		}
		// The split words are env's own arguments again: options first
		// (env -S '-C /elsewhere' git reset --hard changes directory),
		// then the command. Judge them with env's own parsing.
		argv := []Word{inv.Argv[0]}
		if p.Has("i", "ignore-environment") || len(rest) < len(p.Rest) {
			argv = append(argv, Word{Text: "-i", Src: s.Src})
		}
		for _, f := range strings.Fields(s.Text) {
			argv = append(argv, Word{Text: f, Src: s.Src})
		}
		argv = append(argv, rest...)
		w.envUnsets(inv, p)
		n := inv
		if d, ok := p.Value("C", "chdir"); ok {
			n = w.WithCwd(inv, d)
		}
		split := *n
		split.Argv = argv
		w.EnvCmd(&split)
		return
	}
	w.envUnsets(inv, p)
	rest = w.LeadingAssignments(inv, rest)
	if d, ok := p.Value("C", "chdir"); ok {
		inv = w.WithCwd(inv, d)
	}
	w.Reinvoke(inv, rest, "env")
	w.envIgnoresEnvironment(inv, p, rest)
}

// envIgnoresEnvironment: env -i (or a lone -) runs the command without
// the agent's environment.
func (w *Walker) envIgnoresEnvironment(inv *Invocation, p Parsed, rest []Word) {
	lone := false
	for _, x := range inv.Args() {
		if x.Static() && x.Text == "-" {
			lone = true
		}
		if x.Static() && !strings.HasPrefix(x.Text, "-") {
			break
		}
	}
	if (!p.Has("i", "ignore-environment") && !lone) || len(rest) == 0 || !rest[0].Static() {
		return
	}
	w.Families.Fresh(inv, "env -i", true, rest, Word{})
}

// envUnsets hands env -u NAME to the rules: unsetting who the agent is
// is tampering.
func (w *Walker) envUnsets(inv *Invocation, p Parsed) {
	for _, u := range p.Values("u", "unset") {
		if !u.Dynamic {
			w.Families.Judge(inv, effect.Variable{Name: u.Text, How: "env -u", Unset: true})
		}
	}
}

// Time runs the command; -o writes a file.
func (w *Walker) Time(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "fo", Long: Longs("format", "output"), Stop: true})
	for _, o := range p.Values("o", "output") {
		w.Families.Writes(inv, o, "time -o writes")
	}
	w.Reinvoke(inv, p.Rest, "time")
}

// Strace runs the command (strace and ltrace); -o writes a file.
func (w *Walker) Strace(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "eoOpPsSuIXbEa", Long: Longs("output", "attach", "trace-path", "user", "env"), Stop: true})
	for _, o := range p.Values("o", "output") {
		w.Families.Writes(inv, o, inv.Name+" -o writes")
	}
	w.Reinvoke(inv, p.Rest, inv.Name)
}

// Flock runs the command after the lock file, or the script of -c.
func (w *Walker) Flock(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "wEc", Long: Longs("timeout", "conflict-exit-code", "command"), Stop: true})
	if c, ok := p.Value("c", "command"); ok {
		w.RunScript(inv, c, "flock -c")
		return
	}
	rest := p.Rest
	if len(rest) > 2 && (rest[1].Text == "-c" || rest[1].Text == "--command") {
		w.RunScript(inv, rest[2], "flock -c") // flock FILE -c COMMAND
		return
	}
	if len(rest) > 1 {
		w.Reinvoke(inv, rest[1:], "flock") // skip the lock file
	}
}

// Watch runs its arguments as a script (sh -c), or as a command with -x.
func (w *Walker) Watch(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "nq", Long: Longs("interval", "equexit", "chgexit"), Stop: true})
	if p.Has("x", "exec") {
		w.Reinvoke(inv, p.Rest, "watch")
		return
	}
	w.RunScript(inv, JoinWords(p.Rest), "watch")
}

// ScriptCmd is script(1): it runs the script of -c and writes its
// typescript to the file operand.
func (w *Walker) ScriptCmd(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "cEIOBTm", Long: Longs("command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format")})
	if c, ok := p.Value("c", "command"); ok {
		w.RunScript(inv, c, "script -c")
	}
	for _, f := range p.Operands {
		w.Families.Writes(inv, f, "script writes its typescript to")
	}
}

// Su runs the script of -c, in a fresh environment with -l or -.
func (w *Walker) Su(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "cgGsw", Long: Longs("command", "group", "supp-group", "shell", "whitelist-environment", "session-command")})
	c, ok := p.Value("c", "command", "session-command")
	if ok && (p.Has("l", "login") || hasArg(inv.Args(), "-")) {
		w.Families.Fresh(inv, "su -l", false, nil, c)
	}
	if ok {
		w.RunScript(inv, c, "su -c")
	}
}

// Runuser runs the script of -c or the command after the user, in a
// fresh environment with -l or -.
func (w *Walker) Runuser(inv *Invocation) {
	p := ParseOpts(inv.Args(), Spec{Short: "ugGcs", Long: Longs("user", "group", "supp-group", "command", "shell"), Stop: true})
	if c, ok := p.Value("c", "command"); ok {
		if p.Has("l", "login") || hasArg(inv.Args(), "-") {
			w.Families.Fresh(inv, "runuser -l", false, nil, c)
		}
		w.RunScript(inv, c, "runuser -c")
		return
	}
	rest := p.Rest
	if !p.Has("u", "user") && len(rest) > 0 {
		rest = rest[1:] // runuser USER cmd
	}
	if len(rest) > 1 && (rest[0].Text == "-c" || rest[0].Text == "--command") {
		// runuser -l USER -c CMD: the options go on after the user.
		if p.Has("l", "login") || hasArg(inv.Args(), "-") {
			w.Families.Fresh(inv, "runuser -l", false, nil, rest[1])
		}
		w.RunScript(inv, rest[1], "runuser -c")
		return
	}
	w.Reinvoke(inv, rest, "runuser")
}

// Xargs runs its command with its input appended (or put in place of
// -I's string): that input is unknown, unless find lists it; spliced into
// a shell's script it is code.
func (w *Walker) Xargs(inv *Invocation) {
	// -J replstr, -R count and -S size are BSD (macOS) xargs: -J replaces
	// like -I. GNU's -i, -l and -e take a value only when it is attached.
	p := ParseOpts(inv.Args(), Spec{Short: "InLPsdaEJRS", OptionalShort: "ile", Long: Longs("max-args", "max-lines", "max-procs", "max-chars", "delimiter", "arg-file", "eof", "process-slot-var"), OptionalLong: Longs("replace", "eof", "max-lines"), Stop: true})
	cmd := p.Rest
	if len(cmd) == 0 {
		cmd = []Word{{Text: "echo"}}
	}
	unknown := Word{Dynamic: true, Src: "{xargs input}"}
	names := false // the input is names find lists: spliced into a script, any name is code
	if inv.Stdin != nil && len(inv.Stdin.Paths) == 1 && !inv.Stdin.Paths[0].Dynamic {
		// find ... | xargs CMD: CMD gets what find lists; naming secret
		// files is reading them. Split at blanks, a name planted in the
		// listed tree ("x ../../y.tmp") can turn into other words; that
		// takes a crafted file in the agent's own tree, and denying
		// find . -name '*.tmp' | xargs rm, everyday cleanup, costs more.
		// NUL-separated names (-print0) read without -0 are unknown.
		listed := inv.Stdin.Paths[0]
		w.Families.Reads(inv, listed)
		if !inv.Stdin.Nul || p.Has("0", "null") {
			unknown = listed
			names = !inv.Stdin.Nul
		}
	}
	var known []Word // echo a b | xargs CMD: the words are known
	if in := inv.Stdin; in != nil && unknown.Dynamic && !in.Dynamic && !in.Subst && !in.Expanded && !in.File && !in.Net && in.Secret == nil && len(in.Paths) == 0 &&
		!strings.ContainsAny(in.Text, "'\"\\") && !p.Has("0", "null", "d", "delimiter", "E", "eof", "e", "a", "arg-file") {
		for _, f := range strings.Fields(in.Text) {
			known = append(known, Word{Text: f, Src: f})
		}
	}
	repl, hasRepl := p.Value("I", "i", "replace")
	if !hasRepl {
		repl, hasRepl = p.Value("J")
	}
	if !hasRepl && p.Has("i", "replace") {
		repl, hasRepl = Word{Text: "{}"}, true
	}
	argv := make([]Word, 0, len(cmd)+1)
	spliced := false
	if hasRepl && repl.Text != "" {
		for i, x := range cmd {
			if strings.Contains(x.Text, repl.Text) {
				if ShellScriptPosition(cmd, i) {
					// sh -c 'rm -rf {}': the input lands inside the script
					// text, as code: a line such as $(rm -rf ~) runs.
					spliced = unknown.Dynamic || names
					x.Text = strings.ReplaceAll(x.Text, repl.Text, "$__xargs_input")
				} else {
					x = unknown
				}
			}
			argv = append(argv, x)
		}
	} else if known != nil {
		argv = append(append(argv, cmd...), known...)
	} else {
		argv = append(append(argv, cmd...), unknown)
	}
	w.Reinvoke(inv, argv, "xargs")
	if spliced {
		w.Families.Judge(inv, effect.HiddenCode{By: "xargs", What: "its input", Why: effect.SplicedInput})
	}
}

// ShellScriptPosition reports whether argv[i] is the script of sh -c.
func ShellScriptPosition(argv []Word, i int) bool {
	if len(argv) == 0 || !IsShell(path.Base(strings.TrimPrefix(argv[0].Text, "="))) {
		return false
	}
	// The script is the first operand after the option cluster holding
	// c (bash -c -e 'script' name args): later words are $0, $1, ...
	seenC := false
	for j := 1; j < len(argv) && j <= i; j++ {
		a := argv[j].Text
		if !seenC {
			seenC = strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c")
			continue
		}
		if a == "--" || strings.HasPrefix(a, "-") && !argv[j].Dynamic && j < i {
			continue
		}
		return j == i
	}
	return false
}

// Parallel (GNU): parallel CMD ::: ARGS runs CMD once per ARG.
func (w *Walker) Parallel(inv *Invocation) {
	args := inv.Args()
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].Text, "-") && !args[i].Dynamic {
		switch args[i].Text {
		case "-j", "-P", "-N", "-n", "-L", "-l", "-S", "--jobs", "--sshlogin", "--max-args", "--joblog", "--results", "--tmpdir", "-a", "--arg-file":
			i++
		}
		i++
	}
	rest := args[min(i, len(args)):]
	var cmd, vals []Word
	sep := -1
	for j, x := range rest {
		if x.Text == ":::" || x.Text == "::::" || x.Text == ":::+" {
			sep = j
			break
		}
	}
	if sep >= 0 {
		cmd = rest[:sep]
		for _, x := range rest[sep+1:] {
			if x.Text == ":::" || x.Text == "::::" || x.Text == ":::+" {
				continue
			}
			if rest[sep].Text == "::::" {
				x = Word{Dynamic: true, Src: x.Src} // :::: reads arguments from files
			}
			vals = append(vals, x)
		}
	} else {
		cmd = rest
		vals = []Word{{Dynamic: true, Src: "{parallel input}"}}
	}
	if len(cmd) == 0 {
		// Without a command, parallel runs each argument as a command line.
		for _, v := range vals {
			w.RunScript(inv, v, "parallel")
		}
		return
	}
	for _, v := range vals {
		argv := make([]Word, 0, len(cmd)+1)
		replaced := false
		for _, x := range cmd {
			if strings.Contains(x.Text, "{}") {
				replaced = true
				if v.Dynamic {
					x = v
				} else {
					x.Text = strings.ReplaceAll(x.Text, "{}", v.Text)
				}
			}
			argv = append(argv, x)
		}
		if !replaced {
			argv = append(argv, v)
		}
		if len(cmd) == 1 && strings.Contains(cmd[0].Text, " ") {
			w.RunScript(inv, argv[0], "parallel")
			continue
		}
		w.Reinvoke(inv, argv, "parallel")
	}
}
