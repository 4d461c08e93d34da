package guard

import (
	"path"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// invocation is one simple command as it will run, after wrappers such as
// sudo or env have been seen through.
type invocation struct {
	name string // command name: the base name of argv[0]
	argv []arg  // argv[0] and its arguments
	env  map[string][]arg
	st   *state
	in   *input
	node syntax.Node
	via  []string // wrappers seen through, outermost first
	// guarded: what follows in the same && chain runs only if this succeeds.
	guarded bool
}

func (inv *invocation) args() []arg { return inv.argv[1:] }

// viaBuiltin reports whether the command was reached only through the
// shell's own command and builtin, so it still runs in this shell.
func (inv *invocation) viaBuiltin() bool {
	if len(inv.via) == 0 {
		return false
	}
	for _, v := range inv.via {
		if v != "command" && v != "builtin" {
			return false
		}
	}
	return true
}

// inThisShell reports whether the command runs in the analysed shell
// itself (no wrapper, or only command/builtin), so cd and assignments
// change the shell's state.
func (inv *invocation) inThisShell() bool { return len(inv.via) == 0 || inv.viaBuiltin() }

// canon is the command as [[allow]] entries see it: words separated by one
// space, quotes removed, unknown parts as written.
func (inv *invocation) canon() string {
	parts := make([]string, 0, len(inv.argv))
	for _, x := range inv.argv {
		parts = append(parts, x.show())
	}
	return strings.Join(parts, " ")
}

// report records a rule match for this invocation.
func (a *analyzer) report(inv *invocation, rule, reason, alt string) {
	f := finding{rule: rule, reason: reason, alt: alt}
	if inv != nil {
		f.trigger = a.excerpt(inv.node)
		if f.trigger == "" {
			f.trigger = clip(inv.canon())
		}
		f.canon = inv.canon()
	}
	a.add(f)
}

// judgeFrom is judge for an effect whose trigger starts at an earlier
// node: the producer of a pipeline (curl ... | sh) is part of what runs.
func (a *analyzer) judgeFrom(inv *invocation, from syntax.Node, e effect.Effect) {
	n := len(a.findings)
	a.judge(inv, e)
	if from == nil || inv.node == nil || len(a.findings) == n {
		return
	}
	if t := a.excerptSpan(from, inv.node); t != "" {
		for i := n; i < len(a.findings); i++ {
			a.findings[i].trigger = t
		}
	}
}

type handler func(a *analyzer, inv *invocation)

var handlers map[string]handler

// initHandlers fills handlers on first use, not in package init: a hook
// call that analyses no shell command (a Write, an MCP tool) does not pay
// for the table.
func initHandlers() { handlersOnce.Do(registerHandlers) }

var handlersOnce sync.Once

func registerHandlers() {
	handlers = map[string]handler{
		"cd": (*analyzer).cd, "pushd": (*analyzer).cd, "popd": (*analyzer).popd, "chdir": (*analyzer).cd,
		"set": (*analyzer).set, "shift": (*analyzer).shift,
		"read": (*analyzer).readVars, "mapfile": (*analyzer).readVars, "readarray": (*analyzer).readVars,
		"getopts": (*analyzer).readVars, "printf": (*analyzer).printfCmd,
		"export": (*analyzer).exportCmd, "declare": (*analyzer).exportCmd, "typeset": (*analyzer).exportCmd,
		"local": (*analyzer).exportCmd, "readonly": (*analyzer).exportCmd,
		"unset": (*analyzer).unsetCmd, "alias": (*analyzer).aliasCmd, "trap": (*analyzer).trapCmd,
		"eval": (*analyzer).evalCmd, "source": (*analyzer).sourceCmd, ".": (*analyzer).sourceCmd,
		"exec": (*analyzer).execCmd, "command": (*analyzer).commandCmd, "builtin": (*analyzer).builtinCmd,

		"sudo": (*analyzer).sudo, "doas": (*analyzer).doas, "env": (*analyzer).envCmd,
		"nohup": (*analyzer).plainWrapper, "unbuffer": (*analyzer).plainWrapper, "catchsegv": (*analyzer).plainWrapper,
		"nice": (*analyzer).nice, "ionice": (*analyzer).ionice, "timeout": (*analyzer).timeout,
		"time": (*analyzer).timeCmd, "stdbuf": (*analyzer).stdbuf, "setsid": (*analyzer).setsid,
		"chrt": (*analyzer).chrt, "taskset": (*analyzer).taskset, "caffeinate": (*analyzer).caffeinate,
		"xargs": (*analyzer).xargs, "parallel": (*analyzer).parallel, "flock": (*analyzer).flock,
		"watch": (*analyzer).watch, "script": (*analyzer).scriptCmd, "su": (*analyzer).su,
		"runuser": (*analyzer).runuser, "strace": (*analyzer).strace, "ltrace": (*analyzer).strace,
		"busybox": (*analyzer).busybox, "toybox": (*analyzer).busybox, "chroot": (*analyzer).chroot,
		"sudoedit": (*analyzer).sudoedit,

		"git": (*analyzer).git,
	}
	for _, n := range shellNames {
		handlers[n] = (*analyzer).shell
	}
	for n := range dataCommands() {
		if _, ok := handlers[n]; !ok {
			handlers[n] = (*analyzer).dataCommand
		}
	}
	registerFileOps()
	registerRemote()
	registerInterpreters()
	registerSQL()
	registerPackages()
	registerReaders()
	registerRunners()
	registerArchivers()
	registerDBTasks()
	handlers["hash"] = (*analyzer).hashCmd
	handlers["osascript"] = (*analyzer).osascript
	registerTaskRunners() // wraps the package managers registered above
	registerExfil()       // wraps the network clients registered above
	registerSelfGuard()   // the guard's own CLI and the hook managers
	registerForges()      // gh, hub, glab under oversight
	registerPacks()       // last: packs wrap the handlers registered above
}

// judgeFirst puts a check in front of the handlers of names: the check
// judges the invocation, then the handler registered before (or, for a
// program without one, the generic file-operand check) runs as always.
// Task runners, the exfiltration sinks, the forges and the self-guard
// layer their knowledge onto the same programs this way.
func judgeFirst(names []string, check handler) {
	for _, n := range names {
		next := handlers[n]
		handlers[n] = func(a *analyzer, inv *invocation) {
			check(a, inv)
			if next != nil {
				next(a, inv)
			} else {
				a.genericCommand(inv)
			}
		}
	}
}

// hashCmd records hash -p PROGRAM NAME: NAME now runs PROGRAM.
func (a *analyzer) hashCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "p"})
	prog, ok := p.value("p")
	if !ok {
		return
	}
	for _, n := range p.operands {
		if !n.static() {
			continue
		}
		if !prog.static() {
			a.judge(inv, effect.HiddenCode{By: "hash -p", What: n.s, Why: effect.BoundProgram})
			continue
		}
		if a.progs == nil {
			a.progs = map[string]string{}
		}
		a.progs["hash:"+n.s] = prog.s
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
		"exit": true, "return": true, "wait": true, "jobs": true, "kill": true, "hash": true, "ulimit": true,
		"umask": true, "history": true, "tput": true, "clear": true, "seq": true, "yes": true, "expr": true,
		"let": true, "shopt": true, "setopt": true, "unsetopt": true, "emulate": true, "compgen": true,
		"complete": true, "disown": true, "bg": true, "fg": true, "logger": true, "notify-send": true,
		"gh": true, "lsof": true, "ps": true, "pgrep": true, "uptime": true, "nproc": true, "free": true, "df": true,
	}
	return m
})

// versioned are interpreters installed under versioned names: python3.12.
var versioned = map[string]string{"python": "python", "pypy": "python", "pip": "pip", "ruby": "ruby", "perl": "perl", "php": "php", "node": "node"}

// commandName normalises argv[0] to the name handlers are registered under.
// A leading "=" is zsh's =cmd, which expands to the path of cmd.
func commandName(s string) string {
	name := path.Base(strings.TrimPrefix(s, "="))
	if i := strings.IndexAny(name, "0123456789"); i > 0 && strings.Trim(name[i:], "0123456789.") == "" {
		if base, ok := versioned[name[:i]]; ok {
			return base
		}
	}
	if strings.HasPrefix(name, "mkfs.") {
		return "mkfs"
	}
	return name
}

// callExpr analyses a simple command.
func (a *analyzer) callExpr(ce *syntax.CallExpr, st *state, in *input, guarded bool) {
	if len(ce.Args) > 0 && len(st.aliases) > 0 {
		if lit, ok := ce.Args[0].Parts[0].(*syntax.Lit); ok && len(ce.Args[0].Parts) == 1 {
			if val, ok := st.aliases[lit.Value]; ok && a.src != "" {
				// An alias replaces the first word of the command text.
				rest := ""
				if end, stop := int(ce.Args[0].End().Offset()), int(ce.End().Offset()); end <= stop && stop <= len(a.src) {
					rest = a.src[end:stop]
				}
				delete(st.aliases, lit.Value) // an alias is not expanded inside itself
				a.script(val+rest, st, in)
				st.aliases[lit.Value] = val
				return
			}
		}
	}
	a.substitutionsOut(ce, st, func() *input { return a.outputOf(&syntax.Stmt{Cmd: ce}, st) })
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			a.assignment(as, st, false)
		}
		return
	}
	env := map[string][]arg{}
	for _, as := range ce.Assigns {
		if as.Name == nil {
			continue
		}
		var val []arg
		if as.Value != nil {
			val = a.evalAssignValue(as.Value, st)
		} else {
			val = []arg{{}}
		}
		env[as.Name.Value] = val
	}
	for _, argv := range a.argvCandidates(ce.Args, st) {
		inv := &invocation{argv: argv, env: env, st: st, in: in, node: ce, guarded: guarded}
		for _, as := range ce.Assigns { // in source order: findings must be deterministic
			if as.Name != nil {
				a.envAssign(as.Name.Value, env[as.Name.Value], st, inv, ce)
			}
		}
		a.invoke(inv)
		if a.aborted {
			return
		}
	}
}

// argvCandidates expands the words of a command into the possible argument
// vectors, at most 16; words with more alternatives become unknown.
func (a *analyzer) argvCandidates(words []*syntax.Word, st *state) [][]arg {
	cands := [][]arg{make([]arg, 0, len(words))}
	for _, w := range words {
		alts := a.evalWord(w, st)
		if len(alts) == 1 {
			// The common case: one value, no branching, no copying.
			for i := range cands {
				cands[i] = append(cands[i], alts[0]...)
			}
			continue
		}
		if len(cands)*len(alts) > 16 {
			alts = [][]arg{{{dynamic: true, src: a.wordSource(w)}}}
		}
		next := make([][]arg, 0, len(cands)*len(alts))
		for _, c := range cands {
			for _, alt := range alts {
				next = append(next, append(append(make([]arg, 0, len(c)+len(alt)), c...), alt...))
			}
		}
		cands = next
	}
	return cands
}

// invoke dispatches one resolved command.
func (a *analyzer) invoke(inv *invocation) {
	if !a.visit() || len(inv.argv) == 0 {
		return
	}
	head := inv.argv[0]
	if head.dynamic || head.glob || head.echoed {
		a.judge(inv, effect.HiddenCode{What: quoteShow(head), Why: effect.CommandName})
		return
	}
	inv.name = commandName(head.s)
	if prog, ok := a.programFor(inv, head); ok && len(inv.via) < maxDepth {
		// A link, copy or hash -p entry the command made: the real program runs.
		a.reinvoke(inv, append([]arg{{s: prog, src: head.src}}, inv.args()...), head.s)
		return
	}
	if strings.Contains(head.s, "/") {
		a.readPath(inv, head) // running ./.env reads it
		a.runFile(inv, head, "")
	}
	// command and builtin skip shell functions: git() { command git "$@"; }
	// calls the real git. Inside its own body a function is not re-entered.
	if fn, ok := inv.st.funcs[inv.name]; ok && !strings.Contains(head.s, "/") && !inv.viaBuiltin() && !inv.st.inFunc[inv.name] {
		a.callFunction(fn, inv)
		return
	}
	if !quietProgram(inv) {
		a.opaque = true
	}
	if a.env.CaseInsensitive && inv.name != strings.ToLower(inv.name) {
		// RM and Git find /bin/rm and git on a file system that ignores
		// case (macOS): judge them as the program that runs.
		inv.name = strings.ToLower(inv.name)
	}
	initHandlers()
	if h, ok := handlers[inv.name]; ok {
		h(a, inv)
		return
	}
	if sub, ok := strings.CutPrefix(inv.name, "git-"); ok && sub != "" {
		a.dashedGit(inv, sub)
		return
	}
	a.genericCommand(inv)
}

// reinvoke runs argv as the command wrapped by inv (sudo, env, xargs...).
func (a *analyzer) reinvoke(inv *invocation, argv []arg, wrapper string) {
	if len(argv) == 0 {
		return
	}
	n := *inv
	n.argv = argv
	n.via = append(append([]string(nil), inv.via...), wrapper)
	a.invoke(&n)
}

func quoteShow(x arg) string {
	s := x.show()
	if s == "" {
		s = "(empty)"
	}
	return "`" + s + "`"
}

// genericCommand handles commands the guard has no model of: their static
// arguments may be file operands, so secret files among them are access.
func (a *analyzer) genericCommand(inv *invocation) {
	for _, x := range inv.args() {
		a.readOperand(inv, x)
	}
}

// readOperand treats an argument (or the value of --opt=value) as a file
// the command may read.
func (a *analyzer) readOperand(inv *invocation, x arg) {
	if x.dynamic {
		if environTemplate(x.template()) {
			a.readPath(inv, x)
		}
		return
	}
	if strings.HasPrefix(x.s, "-") {
		if _, v, ok := strings.Cut(x.s, "="); ok && v != "" {
			a.readPath(inv, arg{s: v, glob: x.glob, src: x.src})
		}
		return
	}
	if strings.HasPrefix(x.s, "@") && len(x.s) > 1 {
		a.readPath(inv, arg{s: x.s[1:], glob: x.glob, src: x.src}) // curl -d @file, gh --body-file @x
	}
	if _, v, ok := strings.Cut(x.s, "="); ok && v != "" && !strings.Contains(x.s[:strings.Index(x.s, "=")], "/") {
		a.readPath(inv, arg{s: v, glob: x.glob, src: x.src}) // dd if=.env, key=value forms
	}
	a.readPath(inv, x)
}

func (a *analyzer) dataCommand(inv *invocation) {}

// callFunction analyses a function body with the call's arguments bound to
// the positional parameters.
func (a *analyzer) callFunction(fn *syntax.FuncDecl, inv *invocation) {
	fs := inv.st.clone()
	fs.inFunc[inv.name] = true
	fs.positional, fs.posUnknown = append([]arg(nil), inv.args()...), false
	a.srcDepth++
	if a.srcDepth > maxDepth {
		a.abort("functions call each other more than " + itoa(maxDepth) + " levels deep")
	} else {
		a.stmt(fn.Body, fs, false)
	}
	a.srcDepth--
	a.called[fn] = true
	// Functions run in the current shell: a cd inside changes the caller.
	inv.st.setCwds(append(inv.st.cwds, fs.cwds...), inv.st.cwdUnknown || fs.cwdUnknown)
	for k, v := range fs.vars {
		inv.st.vars[k] = unionArgs(inv.st.vars[k], v)
	}
}

// uncalledFunctions analyses functions that were declared but never called
// in the command: they may still run (export -f, a trap, bash -c f). Each
// body is analysed in the state of its declaration, in source order.
func (a *analyzer) uncalledFunctions() {
	for i := 0; i < len(a.declared); i++ { // bodies may declare more functions
		d := a.declared[i]
		if a.called[d.fn] {
			continue
		}
		a.called[d.fn] = true
		d.st.positional, d.st.posUnknown = nil, true
		a.stmt(d.fn.Body, d.st, false)
	}
}

// --- shell builtins that change the analysis state ---

func (a *analyzer) cd(inv *invocation) {
	st := inv.st
	if !inv.inThisShell() {
		return // `sudo cd` runs no cd in this shell
	}
	p := parseOpts(inv.args(), optSpec{})
	var target arg
	switch {
	case len(p.operands) == 0:
		if inv.name == "popd" {
			st.setCwds(nil, true)
			return
		}
		target = arg{s: a.env.Home}
		if v, ok := st.vars["HOME"]; ok && len(v) == 1 {
			target = v[0]
		}
	default:
		target = p.operands[0]
	}
	if inv.name == "pushd" && strings.HasPrefix(target.s, "+") {
		st.setCwds(nil, true)
		return
	}
	var next []string
	unknown := false
	if target.dynamic || target.glob || target.s == "-" {
		unknown = true
	} else if st.cwdUnknown && !path.IsAbs(target.s) {
		unknown = true
	} else {
		for _, c := range st.cwds {
			next = append(next, a.resolve(cleanJoin(c, target.s)))
		}
		// With CDPATH set, cd name may go to $dir/name for a CDPATH entry.
		if !path.IsAbs(target.s) && !strings.HasPrefix(target.s, "./") && !strings.HasPrefix(target.s, "../") && target.s != "." && target.s != ".." {
			cdpath, known := inv.env["CDPATH"]
			if !known {
				cdpath, known = a.lookup("CDPATH", st)
			}
			switch {
			case known:
				for _, v := range cdpath {
					if v.dynamic {
						unknown = true
						continue
					}
					for _, dir := range strings.Split(v.s, ":") {
						if dir != "" {
							next = append(next, a.resolve(cleanJoin(dir, target.s)))
						}
					}
				}
			}
		}
	}
	if st.strong && (inv.guarded || st.errexit) {
		st.setCwds(next, unknown)
		return
	}
	// The cd may fail, leaving the old directory in place.
	st.setCwds(append(append([]string(nil), st.cwds...), next...), st.cwdUnknown || unknown)
}

func (a *analyzer) popd(inv *invocation) {
	if inv.inThisShell() {
		inv.st.setCwds(nil, true)
	}
}

func (a *analyzer) set(inv *invocation) {
	args := inv.args()
	for i, x := range args {
		switch {
		case x.dynamic:
			inv.st.posUnknown = true
		case x.s == "--":
			inv.st.positional, inv.st.posUnknown = append([]arg(nil), args[i+1:]...), false
			return
		case x.s == "-o" && i+1 < len(args) && args[i+1].s == "errexit":
			inv.st.errexit = true
		case strings.HasPrefix(x.s, "-") && strings.Contains(x.s, "e") && x.s != "--":
			inv.st.errexit = true
		case strings.HasPrefix(x.s, "+") && strings.Contains(x.s, "e"):
			inv.st.errexit = false
		}
	}
}

func (a *analyzer) shift(inv *invocation) {
	n := 1
	if args := inv.args(); len(args) > 0 {
		if args[0].dynamic || !isNumber(args[0].s) {
			inv.st.posUnknown = true
			return
		}
		n = atoi(args[0].s)
	}
	if n <= len(inv.st.positional) {
		inv.st.positional = inv.st.positional[n:]
	} else {
		inv.st.positional = nil
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return 1 << 20
		}
	}
	return n
}

// readVars marks the variables a command assigns at run time as unknown.
func (a *analyzer) readVars(inv *invocation) {
	args := inv.args()
	if inv.name == "mapfile" || inv.name == "readarray" {
		p := parseOpts(args, optSpec{short: "dnOsuCc"})
		if cb, ok := p.value("C"); ok {
			a.runScriptArg(inv, cb, inv.name+" -C") // the callback runs for every chunk
		}
	}
	for i, x := range args {
		if x.dynamic || strings.HasPrefix(x.s, "-") {
			if inv.name == "read" && (x.s == "-d" || x.s == "-n" || x.s == "-N" || x.s == "-p" || x.s == "-t" || x.s == "-u" || x.s == "-i") {
				args[i+min(1, len(args)-1-i)].src = "\x00skip"
			}
			continue
		}
		if x.src == "\x00skip" {
			continue
		}
		if isName(x.s) {
			a.identityTarget(inv, nil, inv.st, x.s, inv.name)
			inv.st.vars[x.s] = []arg{{dynamic: true, src: "$" + x.s}}
		}
	}
	if inv.name == "read" && len(args) == 0 {
		inv.st.vars["REPLY"] = []arg{{dynamic: true, src: "$REPLY"}}
	}
}

func (a *analyzer) printfCmd(inv *invocation) {
	args := inv.args()
	for i := 0; i+1 < len(args); i++ {
		if args[i].s == "-v" && isName(args[i+1].s) {
			a.identityTarget(inv, nil, inv.st, args[i+1].s, "printf -v")
			inv.st.vars[args[i+1].s] = []arg{{dynamic: true, src: "$" + args[i+1].s}}
		}
	}
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// exportCmd handles export/declare/local when the parser sees them as plain
// commands (zsh and POSIX modes, or `builtin export`).
func (a *analyzer) exportCmd(inv *invocation) {
	for _, x := range inv.args() {
		if x.dynamic || strings.HasPrefix(x.s, "-") {
			continue
		}
		name, val, ok := strings.Cut(x.s, "=")
		if !isName(name) {
			continue
		}
		if !ok {
			continue
		}
		v := []arg{{s: val}}
		inv.st.assign(name, v)
		a.envAssign(name, v, inv.st, inv, inv.node)
	}
}

func (a *analyzer) unsetCmd(inv *invocation) {
	for _, x := range inv.args() {
		if !x.dynamic {
			a.judge(inv, effect.Variable{Name: x.s, How: "unset", Unset: true})
		}
		if !x.dynamic && isName(x.s) {
			inv.st.vars[x.s] = []arg{{s: ""}}
			delete(inv.st.funcs, x.s)
		}
	}
}

// aliasCmd: an alias value is a command that may run later; it is also
// remembered, so a later use of the alias in this command is expanded.
func (a *analyzer) aliasCmd(inv *invocation) {
	for _, x := range inv.args() {
		if x.dynamic {
			continue
		}
		if name, val, ok := strings.Cut(x.s, "="); ok {
			a.script(val, inv.st.clone(), nil)
			if inv.inThisShell() {
				inv.st.aliases[name] = val
			}
		}
	}
}

// trapCmd: a trap action is a script that runs later in this shell.
func (a *analyzer) trapCmd(inv *invocation) {
	args := inv.args()
	if len(args) < 2 || strings.HasPrefix(args[0].s, "-") {
		return
	}
	a.runScriptArg(inv, args[0], "trap")
}

func (a *analyzer) evalCmd(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	script := joinArgs(args)
	if script.dynamic {
		a.dynamicScript(inv, script, "eval")
		return
	}
	// eval runs in this shell: its cd and assignments stay.
	st := inv.st
	if !inv.inThisShell() {
		st = st.clone()
	}
	a.script(script.s, st, nil)
}

// runScriptArg analyses a word that a shell will run as a script, or
// reports it when it is only known at run time.
func (a *analyzer) runScriptArg(inv *invocation, script arg, what string) {
	if script.dynamic {
		a.dynamicScript(inv, script, what)
		return
	}
	a.script(script.s, inv.st.clone(), nil)
}

func (a *analyzer) dynamicScript(inv *invocation, script arg, what string) {
	src := "text only known at run time"
	switch {
	case script.net:
		src = "downloaded text"
	case script.proc:
		src = "the output of a process substitution"
	}
	a.judge(inv, effect.UnreadCode{By: what, Code: src + " (" + clip(script.show()) + ")", How: effect.ScriptWord})
}

func (a *analyzer) sourceCmd(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	f := args[0]
	switch {
	case f.proc || f.dynamic && f.net:
		a.dynamicScript(inv, f, inv.name)
	case f.static() && (f.s == "/dev/stdin" || f.s == "/proc/self/fd/0" || f.s == "-"):
		a.stdinScript(inv, "source")
	default:
		a.readPath(inv, f)
		a.runFile(inv, f, "sh")
	}
}

func (a *analyzer) execCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "a", stop: true})
	a.reinvoke(inv, p.rest, "exec")
}

func (a *analyzer) commandCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{stop: true})
	if p.has("v", "V") {
		return // command -v only looks the name up
	}
	a.reinvoke(inv, p.rest, "command")
}

func (a *analyzer) builtinCmd(inv *invocation) {
	a.reinvoke(inv, inv.args(), "builtin")
}

// --- wrappers: commands that run another command ---

func (a *analyzer) plainWrapper(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{stop: true})
	a.reinvoke(inv, p.rest, inv.name)
}

// leadingAssignments moves NAME=value words (sudo, env) into the environment.
func (a *analyzer) leadingAssignments(inv *invocation, args []arg) []arg {
	for len(args) > 0 && !args[0].dynamic {
		name, val, ok := strings.Cut(args[0].s, "=")
		if !ok || !isName(name) {
			break
		}
		v := []arg{{s: val, src: args[0].src}}
		if inv.env == nil {
			inv.env = map[string][]arg{}
		}
		inv.env[name] = v
		a.envAssign(name, v, inv.st, inv, inv.node)
		args = args[1:]
	}
	return args
}

func (a *analyzer) sudo(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "ugpUChrtTRD", long: longs("user", "group", "prompt", "other-user", "close-from", "host", "role", "type", "command-timeout", "chroot", "chdir"), stop: true})
	if p.has("e", "edit") {
		a.sudoeditFiles(inv, p.rest)
		return
	}
	if p.has("l", "list", "v", "validate", "k", "K", "V") && len(p.rest) == 0 {
		return
	}
	rest := a.leadingAssignments(inv, p.rest)
	if d, ok := p.value("D", "chdir"); ok {
		inv = a.withCwd(inv, d)
	}
	a.reinvoke(inv, rest, "sudo")
	if !p.has("E", "preserve-env") {
		a.freshEnvironment(inv, "sudo", rest, arg{})
	}
}

func (a *analyzer) sudoedit(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "ugpUChrtTRD", stop: true})
	a.sudoeditFiles(inv, p.rest)
}

func (a *analyzer) sudoeditFiles(inv *invocation, files []arg) {
	for _, f := range files {
		a.writePath(inv, f, "sudoedit edits")
	}
}

func (a *analyzer) doas(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "uC", stop: true})
	a.reinvoke(inv, p.rest, "doas")
	a.freshEnvironment(inv, "doas", p.rest, arg{})
}

func (a *analyzer) envCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "uCSP", long: longs("unset", "chdir", "split-string", "block-signal", "default-signal", "ignore-signal"), optionalLS: longs("block-signal", "default-signal", "ignore-signal"), stop: true})
	rest := p.rest
	// A lone "-" is -i (start with an empty environment), not the command.
	for len(rest) > 0 && rest[0].static() && rest[0].s == "-" {
		rest = rest[1:]
	}
	if s, ok := p.value("S", "split-string"); ok {
		if s.dynamic {
			a.judge(inv, effect.HiddenCode{By: "env -S", Why: effect.SplitText})
			return
		}
		// The split words are env's own arguments again: options first
		// (env -S '-C /elsewhere' git reset --hard changes directory),
		// then the command. Judge them with env's own parsing.
		argv := []arg{inv.argv[0]}
		if p.has("i", "ignore-environment") || len(rest) < len(p.rest) {
			argv = append(argv, arg{s: "-i", src: s.src})
		}
		for _, w := range strings.Fields(s.s) {
			argv = append(argv, arg{s: w, src: s.src})
		}
		argv = append(argv, rest...)
		a.envUnsets(inv, p)
		n := inv
		if d, ok := p.value("C", "chdir"); ok {
			n = a.withCwd(inv, d)
		}
		split := *n
		split.argv = argv
		a.envCmd(&split)
		return
	}
	a.envUnsets(inv, p)
	rest = a.leadingAssignments(inv, rest)
	if d, ok := p.value("C", "chdir"); ok {
		inv = a.withCwd(inv, d)
	}
	a.reinvoke(inv, rest, "env")
	a.envIgnoresEnvironment(inv, p, rest)
}

// envUnsets hands env -u NAME to the rules: unsetting who the agent is
// is tampering.
func (a *analyzer) envUnsets(inv *invocation, p parsed) {
	for _, u := range p.values("u", "unset") {
		if !u.dynamic {
			a.judge(inv, effect.Variable{Name: u.s, How: "env -u", Unset: true})
		}
	}
}

// withCwd returns a copy of inv whose command runs in directory d.
func (a *analyzer) withCwd(inv *invocation, d arg) *invocation {
	n := *inv
	n.st = inv.st.clone()
	if d.dynamic || d.glob {
		n.st.setCwds(nil, true)
		return &n
	}
	var cwds []string
	for _, c := range inv.st.cwds {
		cwds = append(cwds, a.resolve(cleanJoin(c, d.s)))
	}
	n.st.setCwds(cwds, inv.st.cwdUnknown && !path.IsAbs(d.s))
	return &n
}

func (a *analyzer) nice(inv *invocation) {
	args := inv.args()
	// nice -5 cmd and nice -n 5 cmd
	if len(args) > 0 && len(args[0].s) > 1 && args[0].s[0] == '-' && isNumber(args[0].s[1:]) {
		args = args[1:]
	}
	p := parseOpts(args, optSpec{short: "n", long: longs("adjustment"), stop: true})
	a.reinvoke(inv, p.rest, "nice")
}

func (a *analyzer) ionice(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "cnp", long: longs("class", "classdata", "pid", "pgid", "uid"), stop: true})
	a.reinvoke(inv, p.rest, "ionice")
}

func (a *analyzer) timeout(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "sk", long: longs("signal", "kill-after"), stop: true})
	if len(p.rest) > 0 {
		a.reinvoke(inv, p.rest[1:], "timeout") // skip DURATION
	}
}

func (a *analyzer) timeCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "fo", long: longs("format", "output"), stop: true})
	for _, o := range p.values("o", "output") {
		a.writePath(inv, o, "time -o writes")
	}
	a.reinvoke(inv, p.rest, "time")
}

func (a *analyzer) stdbuf(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "ioe", long: longs("input", "output", "error"), stop: true})
	a.reinvoke(inv, p.rest, "stdbuf")
}

func (a *analyzer) setsid(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{stop: true})
	a.reinvoke(inv, p.rest, "setsid")
}

func (a *analyzer) chrt(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "T P D", stop: true})
	if len(p.rest) > 0 && isNumber(p.rest[0].s) {
		a.reinvoke(inv, p.rest[1:], "chrt")
	}
}

func (a *analyzer) taskset(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{stop: true})
	if len(p.rest) > 0 && !p.has("p", "pid") {
		a.reinvoke(inv, p.rest[1:], "taskset") // skip the CPU mask
	}
}

func (a *analyzer) caffeinate(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "tw", stop: true})
	a.reinvoke(inv, p.rest, "caffeinate")
}

func (a *analyzer) chroot(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{long: longs("userspec", "groups"), stop: true})
	if len(p.rest) > 1 {
		a.reinvoke(inv, p.rest[1:], "chroot")
	}
}

func (a *analyzer) strace(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "eoOpPsSuIXbEa", long: longs("output", "attach", "trace-path", "user", "env"), stop: true})
	for _, o := range p.values("o", "output") {
		a.writePath(inv, o, inv.name+" -o writes")
	}
	a.reinvoke(inv, p.rest, inv.name)
}

func (a *analyzer) busybox(inv *invocation) {
	args := inv.args()
	if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") {
		a.reinvoke(inv, args, inv.name)
	}
}

func (a *analyzer) flock(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "wEc", long: longs("timeout", "conflict-exit-code", "command"), stop: true})
	if c, ok := p.value("c", "command"); ok {
		a.runScriptArg(inv, c, "flock -c")
		return
	}
	rest := p.rest
	if len(rest) > 2 && (rest[1].s == "-c" || rest[1].s == "--command") {
		a.runScriptArg(inv, rest[2], "flock -c") // flock FILE -c COMMAND
		return
	}
	if len(rest) > 1 {
		a.reinvoke(inv, rest[1:], "flock") // skip the lock file
	}
}

func (a *analyzer) watch(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "nq", long: longs("interval", "equexit", "chgexit"), stop: true})
	if p.has("x", "exec") {
		a.reinvoke(inv, p.rest, "watch")
		return
	}
	a.runScriptArg(inv, joinArgs(p.rest), "watch")
}

func joinArgs(args []arg) arg {
	if len(args) == 0 {
		return arg{}
	}
	j := args[0]
	j.tmpl = j.template()
	for _, x := range args[1:] {
		j.s += " " + x.s
		j.tmpl += " " + x.template()
		j.dynamic = j.dynamic || x.dynamic
		j.net = j.net || x.net
		j.proc = j.proc || x.proc
		j.src += " " + x.src
	}
	j.glob = false
	return j
}

func (a *analyzer) scriptCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "cEIOBTm", long: longs("command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format")})
	if c, ok := p.value("c", "command"); ok {
		a.runScriptArg(inv, c, "script -c")
	}
	for _, f := range p.operands {
		a.writePath(inv, f, "script writes its typescript to")
	}
}

func (a *analyzer) su(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "cgGsw", long: longs("command", "group", "supp-group", "shell", "whitelist-environment", "session-command")})
	c, ok := p.value("c", "command", "session-command")
	if ok && (p.has("l", "login") || hasAnyFlag(inv.args(), "-")) {
		a.freshEnvironment(inv, "su -l", nil, c)
	}
	if ok {
		a.runScriptArg(inv, c, "su -c")
	}
}

func (a *analyzer) runuser(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "ugGcs", long: longs("user", "group", "supp-group", "command", "shell"), stop: true})
	if c, ok := p.value("c", "command"); ok {
		if p.has("l", "login") || hasAnyFlag(inv.args(), "-") {
			a.freshEnvironment(inv, "runuser -l", nil, c)
		}
		a.runScriptArg(inv, c, "runuser -c")
		return
	}
	rest := p.rest
	if !p.has("u", "user") && len(rest) > 0 {
		rest = rest[1:] // runuser USER cmd
	}
	if len(rest) > 1 && (rest[0].s == "-c" || rest[0].s == "--command") {
		// runuser -l USER -c CMD: the options go on after the user.
		if p.has("l", "login") || hasAnyFlag(inv.args(), "-") {
			a.freshEnvironment(inv, "runuser -l", nil, rest[1])
		}
		a.runScriptArg(inv, rest[1], "runuser -c")
		return
	}
	a.reinvoke(inv, rest, "runuser")
}

// xargs appends its input to the command: that input is unknown.
func (a *analyzer) xargs(inv *invocation) {
	// -J replstr, -R count and -S size are BSD (macOS) xargs: -J replaces
	// like -I. GNU's -i, -l and -e take a value only when it is attached.
	p := parseOpts(inv.args(), optSpec{short: "InLPsdaEJRS", optionalShort: "ile", long: longs("max-args", "max-lines", "max-procs", "max-chars", "delimiter", "arg-file", "eof", "process-slot-var"), optionalLS: longs("replace", "eof", "max-lines"), stop: true})
	cmd := p.rest
	if len(cmd) == 0 {
		cmd = []arg{{s: "echo"}}
	}
	unknown := arg{dynamic: true, src: "{xargs input}"}
	if inv.in != nil && len(inv.in.paths) == 1 && !inv.in.paths[0].dynamic {
		// find ... | xargs CMD: CMD gets what find lists. Split at blanks,
		// a crafted name ("x .. y.tmp") can turn into any word, so only
		// NUL-separated names (-print0 | xargs -0) are trusted as paths;
		// either way, naming secret files is reading them.
		listed := inv.in.paths[0]
		a.readPath(inv, listed)
		if inv.in.nul && p.has("0", "null") {
			unknown = listed
		}
	}
	repl, hasRepl := p.value("I", "i", "replace")
	if !hasRepl {
		repl, hasRepl = p.value("J")
	}
	if !hasRepl && p.has("i", "replace") {
		repl, hasRepl = arg{s: "{}"}, true
	}
	argv := make([]arg, 0, len(cmd)+1)
	spliced := false
	if hasRepl && repl.s != "" {
		for i, x := range cmd {
			if strings.Contains(x.s, repl.s) {
				if a.isShellScriptPosition(cmd, i) {
					// sh -c 'rm -rf {}': the input lands inside the script
					// text, as code: a line such as $(rm -rf ~) runs.
					spliced = unknown.dynamic
					x.s = strings.ReplaceAll(x.s, repl.s, "$__xargs_input")
				} else {
					x = unknown
				}
			}
			argv = append(argv, x)
		}
	} else {
		argv = append(append(argv, cmd...), unknown)
	}
	a.reinvoke(inv, argv, "xargs")
	if spliced {
		a.judge(inv, effect.HiddenCode{By: "xargs", What: "its input", Why: effect.SplicedInput})
	}
}

// isShellScriptPosition reports whether argv[i] is the script of sh -c.
func (a *analyzer) isShellScriptPosition(argv []arg, i int) bool {
	if len(argv) == 0 || !isShellName(commandName(argv[0].s)) {
		return false
	}
	// The script is the first operand after the option cluster holding
	// c (bash -c -e 'script' name args): later words are $0, $1, ...
	seenC := false
	for j := 1; j < len(argv) && j <= i; j++ {
		w := argv[j].s
		if !seenC {
			seenC = strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "c")
			continue
		}
		if w == "--" || strings.HasPrefix(w, "-") && !argv[j].dynamic && j < i {
			continue
		}
		return j == i
	}
	return false
}

// parallel (GNU): parallel CMD ::: ARGS runs CMD once per ARG.
func (a *analyzer) parallel(inv *invocation) {
	args := inv.args()
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") && !args[i].dynamic {
		switch args[i].s {
		case "-j", "-P", "-N", "-n", "-L", "-l", "-S", "--jobs", "--sshlogin", "--max-args", "--joblog", "--results", "--tmpdir", "-a", "--arg-file":
			i++
		}
		i++
	}
	rest := args[min(i, len(args)):]
	var cmd, vals []arg
	sep := -1
	for j, x := range rest {
		if x.s == ":::" || x.s == "::::" || x.s == ":::+" {
			sep = j
			break
		}
	}
	if sep >= 0 {
		cmd = rest[:sep]
		for _, x := range rest[sep+1:] {
			if x.s == ":::" || x.s == "::::" || x.s == ":::+" {
				continue
			}
			if rest[sep].s == "::::" {
				x = arg{dynamic: true, src: x.src} // :::: reads arguments from files
			}
			vals = append(vals, x)
		}
	} else {
		cmd = rest
		vals = []arg{{dynamic: true, src: "{parallel input}"}}
	}
	if len(cmd) == 0 {
		// Without a command, parallel runs each argument as a command line.
		for _, v := range vals {
			a.runScriptArg(inv, v, "parallel")
		}
		return
	}
	for _, v := range vals {
		argv := make([]arg, 0, len(cmd)+1)
		replaced := false
		for _, x := range cmd {
			if strings.Contains(x.s, "{}") {
				replaced = true
				if v.dynamic {
					x = v
				} else {
					x.s = strings.ReplaceAll(x.s, "{}", v.s)
				}
			}
			argv = append(argv, x)
		}
		if !replaced {
			argv = append(argv, v)
		}
		if len(cmd) == 1 && strings.Contains(cmd[0].s, " ") {
			a.runScriptArg(inv, argv[0], "parallel")
			continue
		}
		a.reinvoke(inv, argv, "parallel")
	}
}
