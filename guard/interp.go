package guard

import (
	"regexp"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/policy"
)

func registerInterpreters() {
	for _, n := range []string{"python", "pypy"} {
		handlers[n] = (*analyzer).python
	}
	handlers["node"] = (*analyzer).node
	handlers["nodejs"] = (*analyzer).node
	handlers["bun"] = (*analyzer).bun
	handlers["deno"] = (*analyzer).deno
	handlers["perl"] = (*analyzer).perlRuby
	handlers["ruby"] = (*analyzer).perlRuby
	handlers["php"] = (*analyzer).php
	handlers["lua"] = (*analyzer).luaR
	handlers["luajit"] = (*analyzer).luaR
	handlers["Rscript"] = (*analyzer).luaR
	handlers["R"] = (*analyzer).luaR
}

// luaR handles lua -e CODE and Rscript -e / R -e CODE.
func (a *analyzer) luaR(inv *invocation) {
	lang := "lua"
	if inv.name == "R" || inv.name == "Rscript" {
		lang = "r"
	}
	args := inv.args()
	for i := 0; i < len(args); i++ {
		if (args[i].s == "-e" || args[i].s == "--expr") && i+1 < len(args) {
			a.code(inv, lang, args[i+1])
			i++
		} else if strings.HasPrefix(args[i].s, "--expr=") {
			a.code(inv, lang, arg{s: strings.TrimPrefix(args[i].s, "--expr="), src: args[i].src})
		}
	}
}

// --- command lines of interpreters ---

func (a *analyzer) python(inv *invocation) {
	args := inv.args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.proc {
			a.dynamicScript(inv, x, inv.name)
			return
		}
		if x.dynamic {
			return
		}
		s := x.s
		switch {
		case s == "-":
			a.stdinCode(inv, "python")
			return
		case strings.HasPrefix(s, "--"):
			continue
		case strings.HasPrefix(s, "-") && len(s) > 1:
			flags := s[1:]
			for j := 0; j < len(flags); j++ {
				switch flags[j] {
				case 'c', 'm':
					val := flags[j+1:]
					var rest []arg
					var v arg
					if val != "" {
						v = arg{s: val, src: x.src}
						rest = args[i+1:]
					} else if i+1 < len(args) {
						v = args[i+1]
						rest = args[i+2:]
					} else {
						return
					}
					if flags[j] == 'c' {
						a.code(inv, "python", v)
						return
					}
					a.pythonModule(inv, v, rest)
					return
				case 'W', 'X':
					if j+1 == len(flags) {
						i++
					}
					j = len(flags)
				}
			}
		default:
			a.readPath(inv, x) // the script file; its body is not read
			for _, r := range args[i+1:] {
				a.readOperand(inv, r)
			}
			return
		}
	}
	a.stdinCode(inv, "python")
}

// pythonModule: python -m pip installs packages; other modules get their
// arguments checked as possible file operands.
func (a *analyzer) pythonModule(inv *invocation, mod arg, rest []arg) {
	switch mod.s {
	case "pip", "pip3":
		a.reinvoke(inv, append([]arg{{s: "pip", src: mod.src}}, rest...), "python -m")
		return
	case "uv", "poetry", "pipx", "ensurepip":
		a.reinvoke(inv, append([]arg{{s: mod.s, src: mod.src}}, rest...), "python -m")
		return
	}
	for _, r := range rest {
		a.readOperand(inv, r)
	}
}

func (a *analyzer) node(inv *invocation) {
	args := inv.args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.proc {
			a.dynamicScript(inv, x, inv.name)
			return
		}
		if x.dynamic {
			return
		}
		switch s := x.s; {
		case s == "-e" || s == "--eval" || s == "-p" || s == "--print" || s == "-pe":
			if i+1 < len(args) {
				a.code(inv, "js", args[i+1])
			}
			return
		case strings.HasPrefix(s, "--eval=") || strings.HasPrefix(s, "--print="):
			_, v, _ := strings.Cut(s, "=")
			a.code(inv, "js", arg{s: v, src: x.src})
			return
		case s == "-r" || s == "--require" || s == "--import" || s == "--loader" || s == "--input-type" || s == "-C" || s == "--conditions":
			i++
		case s == "-":
			a.stdinCode(inv, "js")
			return
		case strings.HasPrefix(s, "-"):
		default:
			a.readPath(inv, x)
			for _, r := range args[i+1:] {
				a.readOperand(inv, r)
			}
			return
		}
	}
	a.stdinCode(inv, "js")
}

func (a *analyzer) bun(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	switch args[0].s {
	case "-e", "--eval", "-p", "--print":
		if len(args) > 1 {
			a.code(inv, "js", args[1])
		}
	case "add", "install", "i", "x", "create":
		a.packageManager(inv)
	default:
		for _, r := range args {
			a.readOperand(inv, r)
		}
	}
}

func (a *analyzer) deno(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	switch args[0].s {
	case "eval":
		for _, x := range args[1:] {
			if !strings.HasPrefix(x.s, "-") || x.dynamic {
				a.code(inv, "js", x)
				return
			}
		}
	case "run":
		for _, x := range args[1:] {
			if x.dynamic || strings.HasPrefix(x.s, "-") {
				continue
			}
			if strings.HasPrefix(x.s, "http://") || strings.HasPrefix(x.s, "https://") {
				a.report(inv, policy.RuleRemoteCode, "deno run "+x.s+" runs code downloaded from the network", "download the script into the worktree, read it, then run the file")
			}
			return
		}
	}
}

// perlRuby handles perl and ruby: -e code (several are joined), -i edits
// files in place.
func (a *analyzer) perlRuby(inv *invocation) {
	args := inv.args()
	lang := inv.name
	var codes []arg
	inPlace := false
	i := 0
	for ; i < len(args); i++ {
		x := args[i]
		if x.dynamic {
			break
		}
		s := x.s
		if s == "--" {
			i++
			break
		}
		if !strings.HasPrefix(s, "-") || s == "-" {
			break
		}
		flags := s[1:]
	flagLoop:
		for j := 0; j < len(flags); j++ {
			switch c := flags[j]; c {
			case 'e', 'E':
				if j+1 < len(flags) {
					codes = append(codes, arg{s: flags[j+1:], src: x.src})
				} else if i+1 < len(args) {
					i++
					codes = append(codes, args[i])
				}
				break flagLoop
			case 'i':
				inPlace = true
				break flagLoop // the rest is the backup suffix
			case 'M', 'm', 'I', 'r', 'F', 'C', 'x', 'd', 'D':
				if j+1 == len(flags) && c != 'x' && c != 'd' && i+1 < len(args) {
					i++
				}
				break flagLoop
			}
		}
	}
	rest := args[min(i, len(args)):]
	if len(codes) == 0 {
		if len(rest) == 0 {
			a.stdinCode(inv, lang)
			return
		}
		if rest[0].proc {
			a.dynamicScript(inv, rest[0], lang)
			return
		}
		a.readPath(inv, rest[0]) // the script file
		rest = rest[1:]
	} else {
		a.code(inv, lang, joinLines(codes))
	}
	for _, f := range rest {
		if inPlace {
			a.writePath(inv, f, lang+" -i edits")
		} else {
			a.readOperand(inv, f)
		}
	}
}

func joinLines(xs []arg) arg {
	j := xs[0]
	j.tmpl = j.template()
	for _, x := range xs[1:] {
		j.s += "\n" + x.s
		j.tmpl += "\n" + x.template()
		j.dynamic = j.dynamic || x.dynamic
	}
	return j
}

func (a *analyzer) php(inv *invocation) {
	args := inv.args()
	for i := 0; i < len(args); i++ {
		switch args[i].s {
		case "-r", "-B", "-R", "-E":
			if i+1 < len(args) {
				a.code(inv, "php", args[i+1])
				i++
			}
		case "-f":
			if i+1 < len(args) {
				a.readPath(inv, args[i+1])
				i++
			}
		}
	}
}

func (a *analyzer) stdinCode(inv *invocation, lang string) {
	in := inv.in
	if in == nil || in.file {
		return
	}
	if in.dynamic {
		what := in.desc
		if in.net {
			what = "downloaded code (" + in.desc + ")"
		}
		a.reportFrom(inv, in.from, policy.RuleRemoteCode, inv.name+" runs "+what+" as a program, which the guard cannot check",
			"save the code to a file in the worktree, read it, then run the file")
		return
	}
	a.code(inv, lang, arg{s: in.text})
}

// --- the code itself ---

// codeAPI is a function whose first argument matters.
type codeAPI struct {
	re   *regexp.Regexp
	kind int
}

type apiPattern struct {
	kind     int
	patterns []string
}

const (
	apiDeleteTree = iota // deletes recursively
	apiDelete            // deletes one file
	apiShell             // runs a shell command string (or an argv list)
	apiArgv              // runs a program with an argument list
	apiWrite             // opens or writes a file
	apiCode              // evaluates code
	apiMove              // moves: the first argument disappears
	apiInline            // `cmd`, qx{cmd}, %x(cmd): the command is the quoted text
)

func apis(kind int, patterns ...string) []apiPattern {
	return []apiPattern{{kind: kind, patterns: patterns}}
}

// langAPIs compiles the API patterns the first time interpreter code is
// analysed: most hook calls never need them, and compiling them in every
// process start would cost more than the whole decision.
var langAPIs = sync.OnceValue(func() map[string][]codeAPI {
	out := map[string][]codeAPI{}
	for lang, groups := range langAPIPatterns {
		for _, g := range groups {
			for _, p := range g.patterns {
				out[lang] = append(out[lang], codeAPI{re: regexp.MustCompile(p), kind: g.kind})
			}
		}
	}
	return out
})

var langAPIPatterns = map[string][]apiPattern{
	"python": concat(
		apis(apiDeleteTree, `\brmtree\s*\(`, `\bremovedirs\s*\(`),
		apis(apiDelete, `\bos\s*\.\s*(?:remove|unlink|rmdir)\s*\(`),
		apis(apiShell, `\bos\s*\.\s*(?:system|popen)\s*\(`, `\bsubprocess\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(`,
			`\bcommands\s*\.\s*getoutput\s*\(`, `\bcreate_subprocess_shell\s*\(`),
		apis(apiArgv, `\bos\s*\.\s*(?:exec|spawn)[lvpe]*\s*\(`, `\bpty\s*\.\s*spawn\s*\(`, `\bcreate_subprocess_exec\s*\(`),
		apis(apiWrite, `\bopen\s*\(`, `\.write_(?:text|bytes)\s*\(`),
		apis(apiCode, `(?:^|[^.\w])(?:exec|eval)\s*\(`),
		apis(apiMove, `\bshutil\s*\.\s*move\s*\(`, `\bos\s*\.\s*(?:rename|replace)\s*\(`),
	),
	"js": concat(
		apis(apiDeleteTree, `\brmSync\s*\(`, `\brimraf(?:\.sync)?\s*\(`, `\bremoveSync\s*\(`, `\bemptyDirSync\s*\(`, `\bfs(?:\.promises)?\s*\.\s*rm\s*\(`),
		apis(apiDelete, `\b(?:rmdirSync|unlinkSync)\s*\(`, `\bfs(?:\.promises)?\s*\.\s*(?:rmdir|unlink)\s*\(`),
		apis(apiShell, `\bexecSync\s*\(`, `(?:child_process|cp|\bproc)\s*\.\s*exec\s*\(`, `(?:^|[^.\w])exec\s*\(`, `\bexecaCommand(?:Sync)?\s*\(`),
		apis(apiArgv, `\b(?:execFileSync|execFile|spawnSync|spawn)\s*\(`, `\bBun\s*\.\s*spawn(?:Sync)?\s*\(`, `\bexeca(?:Sync)?\s*\(`),
		apis(apiWrite, `\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync)\s*\(`),
		apis(apiCode, `(?:^|[^.\w])eval\s*\(`, `\bnew\s+Function\s*\(`),
		apis(apiMove, `\brenameSync\s*\(`, `\bfs\s*\.\s*rename\s*\(`, `\bmoveSync\s*\(`),
	),
	"perl": concat(
		apis(apiDeleteTree, `\b(?:rmtree|remove_tree)\b\s*\(?`),
		apis(apiDelete, `\bunlink\b\s*\(?`, `\brmdir\b\s*\(?`),
		apis(apiShell, `\b(?:system|exec)\b\s*\(?`),
		apis(apiInline, `\bqx\s*[({\[/|!]`, "`"),
		apis(apiWrite, `\bopen\s*\(`),
	),
	"ruby": concat(
		apis(apiDeleteTree, `\b(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b\s*\(?`),
		apis(apiDelete, `\bFileUtils\s*\.\s*(?:rm|rm_f|remove)\b\s*\(?`, `\b(?:File|Dir)\s*\.\s*(?:delete|unlink|rmdir)\b\s*\(?`),
		apis(apiShell, `\b(?:system|exec|spawn)\b\s*\(?`, `\bIO\s*\.\s*popen\s*\(?`, `\bOpen3\s*\.\s*\w+\s*\(?`),
		apis(apiInline, `%x\s*[({\[]`, "`"),
		apis(apiWrite, `\bFile\s*\.\s*(?:write|open|binwrite)\s*\(?`),
		apis(apiMove, `\bFileUtils\s*\.\s*(?:mv|move)\b\s*\(?`, `\bFile\s*\.\s*rename\b\s*\(?`),
	),
	"php": concat(
		apis(apiDelete, `\b(?:unlink|rmdir)\s*\(`),
		apis(apiShell, `\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(`),
		apis(apiInline, "`"),
		apis(apiWrite, `\bfile_put_contents\s*\(`, `\bfopen\s*\(`),
	),
	"awk": apis(apiShell, `\bsystem\s*\(`),
	"lua": concat(
		apis(apiShell, `\bos\s*\.\s*execute\s*\(?`, `\bio\s*\.\s*popen\s*\(?`),
		apis(apiDelete, `\bos\s*\.\s*remove\s*\(?`),
		apis(apiWrite, `\bio\s*\.\s*open\s*\(`),
	),
	"r": concat(
		apis(apiShell, `\bsystem2?\s*\(`, `\bshell\s*\(`),
		apis(apiDeleteTree, `\bunlink\s*\(`),
		apis(apiDelete, `\bfile\s*\.\s*remove\s*\(`),
	),
}

func concat(lists ...[]apiPattern) []apiPattern {
	var out []apiPattern
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// shellModules are names whose presence means the code can run commands.
var shellModules = map[string][]string{
	"python": {"subprocess", "os.system", "os.popen", "pty", "os.exec", "os.spawn", "commands"},
	"js":     {"child_process", "execa", "shelljs", "Bun.spawn", "Deno.Command", "Deno.run", "zx"},
}

// code analyses an interpreter one-liner.
func (a *analyzer) code(inv *invocation, lang string, c arg) {
	text := c.template()
	if strings.Trim(text, unknownMark+" \t\n;") == "" && c.dynamic {
		a.report(inv, policy.RuleRemoteCode, inv.name+" runs code that is only known at run time ("+clip(c.show())+")",
			"write the code into a file in the worktree and run the file")
		return
	}
	if !a.visit() {
		return
	}
	sites := 0
	for _, api := range langAPIs()[lang] {
		for n, loc := range api.re.FindAllStringIndex(text, -1) {
			if api.re.String() == "`" && n%2 == 1 {
				continue // a closing backtick
			}
			if (api.kind == apiShell || api.kind == apiArgv) && lang == "js" && !mentionsAny(text, shellModules["js"]) {
				continue // exec( without child_process is a regular expression method
			}
			sites++
			a.codeCall(inv, lang, api.kind, text, loc[1])
		}
	}
	// Any string naming a secret file is access: open('.env'), a path in a
	// config dict, an argument for a helper.
	for _, l := range stringLiterals(text, lang) {
		if strings.Contains(l, unknownMark) || l == "" || len(l) > 4096 {
			continue
		}
		a.readPath(inv, arg{s: expandUser(l, a.env.Home), src: l})
	}
	if sites == 0 {
		for _, m := range shellModules[lang] {
			if strings.Contains(text, m) {
				a.report(inv, policy.RuleDynamicCommand, inv.name+" code uses "+m+" in a way the guard cannot follow, so it may run any command",
					"run the command directly in the shell instead of through "+m)
				return
			}
		}
	}
}

func mentionsAny(text string, names []string) bool {
	for _, n := range names {
		if strings.Contains(text, n) {
			return true
		}
	}
	return false
}

func expandUser(s, home string) string {
	if home != "" && (s == "~" || strings.HasPrefix(s, "~/")) {
		return home + s[1:]
	}
	return s
}

// codeCall checks one call site; text[pos:] starts right after the call's
// name (and its opening parenthesis when it has one).
func (a *analyzer) codeCall(inv *invocation, lang string, kind int, text string, pos int) {
	args, ok := callArgs(text, pos, lang)
	first := func() (codeValue, bool) {
		if !ok || len(args) == 0 {
			return codeValue{}, false
		}
		return args[0], true
	}
	switch kind {
	case apiDeleteTree, apiDelete, apiMove:
		v, ok := first()
		verb := inv.name + " code deletes"
		if kind == apiMove {
			verb = inv.name + " code moves away"
		}
		if !ok || v.dynamic || v.list != nil {
			a.report(inv, policy.RuleDeleteOutside, verb+" a path only known at run time", "delete with a literal path inside the worktree, or with rm in the shell")
			return
		}
		sub := *inv
		sub.name = inv.name + " code"
		a.deletePath(&sub, arg{s: expandUser(v.s, a.env.Home), src: v.s}, kind != apiDelete)
	case apiWrite:
		v, ok := first()
		if !ok || v.dynamic || v.list != nil {
			return // reading or writing an unknown file: nothing to say
		}
		if lang == "python" && !pythonOpenWrites(args) && !strings.Contains(text[max(0, pos-12):pos], "write_") {
			return
		}
		if lang == "ruby" && strings.Contains(text[max(0, pos-8):pos], "open") && !rubyOpenWrites(args) {
			return
		}
		if lang == "php" && strings.Contains(text[max(0, pos-8):pos], "fopen") && !rubyOpenWrites(args) {
			return
		}
		if lang == "perl" {
			v, ok = perlOpenTarget(args)
			if !ok {
				return
			}
		}
		sub := *inv
		sub.name = inv.name + " code"
		a.writePath(&sub, arg{s: expandUser(v.s, a.env.Home), src: v.s}, inv.name+" code writes")
	case apiShell, apiArgv:
		a.codeShell(inv, lang, kind, text, pos, args, ok)
	case apiInline:
		a.inlineCommand(inv, lang, text, pos)
	case apiCode:
		v, ok := first()
		if !ok || v.dynamic || v.list != nil {
			a.report(inv, policy.RuleDynamicCommand, inv.name+" code evaluates code only known at run time", "write the code literally")
			return
		}
		a.code(inv, lang, arg{s: v.s})
	}
}

func (a *analyzer) codeShell(inv *invocation, lang string, kind int, text string, pos int, args []codeValue, ok bool) {
	if !ok || len(args) == 0 {
		a.report(inv, policy.RuleDynamicCommand, inv.name+" code runs a command the guard cannot read", "run the command directly in the shell")
		return
	}
	var argv []arg
	switch {
	case args[0].list != nil:
		for _, v := range args[0].list {
			if v.dynamic {
				argv = append(argv, arg{dynamic: true, src: "?"})
				continue
			}
			argv = append(argv, arg{s: v.s, src: v.s})
		}
	case kind == apiArgv || len(args) > 1 && allLiterals(args) && lang != "python":
		for _, v := range args {
			if v.list != nil {
				for _, w := range v.list {
					argv = append(argv, arg{s: w.s, dynamic: w.dynamic, src: w.s})
				}
				continue
			}
			argv = append(argv, arg{s: v.s, dynamic: v.dynamic, src: v.s})
			if kind == apiArgv && lang == "python" && strings.Contains(text[max(0, pos-12):pos], "exec") && len(argv) == 1 {
				argv = argv[:0] // os.execv(path, [argv0, ...]): the list is the argv
			}
		}
	case args[0].dynamic:
		a.report(inv, policy.RuleDynamicCommand, inv.name+" code runs a command built at run time", "run the command directly in the shell")
		return
	default:
		a.script(args[0].s, inv.st.clone(), nil)
		return
	}
	if len(argv) == 0 {
		return
	}
	sub := *inv
	sub.in = nil
	a.reinvoke(&sub, argv, inv.name+" code")
}

// inlineCommand checks `cmd`, qx{cmd} and %x(cmd): text[pos-1] opens it.
func (a *analyzer) inlineCommand(inv *invocation, lang, text string, pos int) {
	closer := map[byte]string{'`': "`", '(': ")", '{': "}", '[': "]", '/': "/", '|': "|", '!': "!"}[text[pos-1]]
	end := strings.Index(text[pos:], closer)
	if closer == "" || end < 0 {
		return
	}
	cmd := text[pos : pos+end]
	if strings.Contains(cmd, unknownMark) || strings.Contains(cmd, "#{") || (lang == "perl" || lang == "php") && perlVarRE().MatchString(cmd) {
		a.report(inv, policy.RuleDynamicCommand, inv.name+" code runs a command built at run time", "run the command directly in the shell")
		return
	}
	a.script(cmd, inv.st.clone(), nil)
}

var (
	perlVarRE  = lazyRegexp(`\$[A-Za-z_{]`)
	keywordArg = lazyRegexp(`^[A-Za-z_]\w*\s*=[^=]`)
)

// lazyRegexp compiles a pattern on first use, keeping process start cheap.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

func allLiterals(vs []codeValue) bool {
	for _, v := range vs {
		if v.dynamic || v.list != nil {
			return false
		}
	}
	return true
}

func pythonOpenWrites(args []codeValue) bool {
	if len(args) < 2 {
		return false
	}
	m := args[1]
	return m.dynamic || strings.ContainsAny(m.s, "wax+")
}

func rubyOpenWrites(args []codeValue) bool {
	return len(args) >= 2 && (args[1].dynamic || strings.ContainsAny(args[1].s, "wa+"))
}

// perlOpenTarget finds the file of open(FH, '>', 'f') or open(FH, ">f").
func perlOpenTarget(args []codeValue) (codeValue, bool) {
	for i, v := range args {
		if v.dynamic || v.list != nil {
			continue
		}
		s := strings.TrimSpace(v.s)
		if s == ">" || s == ">>" || s == "+<" || s == "+>" {
			if i+1 < len(args) && !args[i+1].dynamic {
				return args[i+1], true
			}
			return codeValue{}, false
		}
		if t, ok := strings.CutPrefix(s, ">>"); ok {
			return codeValue{s: strings.TrimSpace(t)}, true
		}
		if t, ok := strings.CutPrefix(s, ">"); ok {
			return codeValue{s: strings.TrimSpace(t)}, true
		}
	}
	return codeValue{}, false
}

// codeValue is one argument of a call in interpreter code.
type codeValue struct {
	s       string
	dynamic bool
	list    []codeValue // a list literal [..] / an array
}

// callArgs reads the arguments of a call starting at pos (after "name(" or
// after "name" for perl and ruby calls without parentheses).
func callArgs(text string, pos int, lang string) ([]codeValue, bool) {
	open := pos > 0 && text[pos-1] == '('
	i := pos
	var out []codeValue
	for {
		i = skipSpace(text, i)
		if i >= len(text) {
			return out, !open
		}
		c := text[i]
		if open && c == ')' || !open && (c == ';' || c == '\n' || c == '}' || c == ')' || c == '|' || c == '&') {
			return out, true
		}
		v, next, ok := codeExpr(text, i, lang)
		if !ok {
			return out, false
		}
		out = append(out, v)
		i = skipSpace(text, next)
		if i < len(text) && text[i] == ',' {
			i++
			continue
		}
		if i < len(text) && (text[i] == ')' || !open) {
			return out, true
		}
		if i >= len(text) {
			return out, !open
		}
		// Something else follows (an operator, a method call): the
		// argument is an expression the guard does not evaluate.
		out[len(out)-1] = codeValue{dynamic: true}
		for i < len(text) && text[i] != ',' && text[i] != ')' {
			i++
		}
		if i < len(text) && text[i] == ',' {
			i++
		}
	}
}

var pathWrappers = lazyRegexp(`^(?:pathlib\s*\.\s*)?(?:Path|PurePath|PosixPath)\s*\(|^os\s*\.\s*path\s*\.\s*(?:expanduser|abspath|realpath|normpath)\s*\(|^path\s*\.\s*(?:resolve|join|normalize)\s*\(|^File\s*\.\s*expand_path\s*\(`)

// codeExpr reads one argument expression: a string literal, a list of
// literals, a keyword argument or a path wrapper around a literal.
func codeExpr(text string, i int, lang string) (codeValue, int, bool) {
	if i >= len(text) {
		return codeValue{}, i, false
	}
	// keyword=value (python), key: value (ruby hashes): skip the key.
	if m := keywordArg().FindString(text[i:]); m != "" && lang == "python" {
		v, next, ok := codeExpr(text, skipSpace(text, i+len(m)-1), lang)
		return codeValue{s: v.s, dynamic: true}, next, ok
	}
	if loc := pathWrappers().FindStringIndex(text[i:]); loc != nil {
		inner, ok := callArgs(text, i+loc[1], lang)
		j := i + loc[1]
		depth := 1
		for j < len(text) && depth > 0 {
			switch text[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
			j++
		}
		if !ok || len(inner) == 0 || !allLiterals(inner) {
			return codeValue{dynamic: true}, j, true
		}
		parts := make([]string, len(inner))
		for k, v := range inner {
			parts[k] = v.s
		}
		return codeValue{s: strings.Join(parts, "/")}, j, true
	}
	switch c := text[i]; {
	case c == '\'' || c == '"' || c == '`' && lang == "js":
		s, next, dyn := readQuoted(text, i, lang)
		return codeValue{s: s, dynamic: dyn}, next, true
	case (c == 'r' || c == 'b' || c == 'u' || c == 'f' || c == 'R' || c == 'B') && lang == "python" && i+1 < len(text) && (text[i+1] == '\'' || text[i+1] == '"'):
		s, next, dyn := readQuoted(text, i+1, lang)
		return codeValue{s: s, dynamic: dyn || c == 'f'}, next, true
	case c == '[':
		var list []codeValue
		j := i + 1
		for {
			j = skipSpace(text, j)
			if j >= len(text) {
				return codeValue{}, j, false
			}
			if text[j] == ']' {
				return codeValue{list: list}, j + 1, true
			}
			v, next, ok := codeExpr(text, j, lang)
			if !ok {
				return codeValue{}, next, false
			}
			list = append(list, v)
			j = skipSpace(text, next)
			if j < len(text) && text[j] == ',' {
				j++
			} else if j < len(text) && text[j] != ']' {
				for j < len(text) && text[j] != ',' && text[j] != ']' {
					j++
				}
				list[len(list)-1] = codeValue{dynamic: true}
				if j < len(text) && text[j] == ',' {
					j++
				}
			}
		}
	case c == '{':
		depth, j := 0, i
		for ; j < len(text); j++ {
			if text[j] == '{' {
				depth++
			} else if text[j] == '}' {
				depth--
				if depth == 0 {
					return codeValue{dynamic: true}, j + 1, true
				}
			}
		}
		return codeValue{}, j, false
	}
	// An identifier, a call or an expression: unknown value.
	j := i
	depth := 0
	for j < len(text) {
		ch := text[j]
		if depth == 0 && (ch == ',' || ch == ')' || ch == ';' || ch == '\n') {
			break
		}
		switch ch {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
		j++
	}
	if j == i {
		return codeValue{}, j, false
	}
	return codeValue{dynamic: true}, j, true
}

func skipSpace(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// readQuoted reads a string literal starting at text[i] (the quote). It
// reports dynamic when the literal interpolates (${...}, #{...}, "$x").
func readQuoted(text string, i int, lang string) (string, int, bool) {
	q := text[i]
	triple := lang == "python" && strings.HasPrefix(text[i:], strings.Repeat(string(q), 3))
	start := i + 1
	if triple {
		start = i + 3
	}
	var b strings.Builder
	dyn := false
	for j := start; j < len(text); j++ {
		c := text[j]
		if c == '\\' && j+1 < len(text) {
			j++
			switch text[j] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(text[j])
			}
			continue
		}
		if triple && strings.HasPrefix(text[j:], strings.Repeat(string(q), 3)) {
			return b.String(), j + 3, dyn || strings.Contains(b.String(), unknownMark)
		}
		if !triple && c == q {
			s := b.String()
			return s, j + 1, dyn || strings.Contains(s, unknownMark)
		}
		if q == '`' && c == '$' && j+1 < len(text) && text[j+1] == '{' {
			dyn = true
		}
		if q == '"' && (lang == "ruby" && c == '#' && j+1 < len(text) && text[j+1] == '{' || (lang == "perl" || lang == "php") && c == '$' && j+1 < len(text) && isIdentStart(text[j+1])) {
			dyn = true
		}
		b.WriteByte(c)
	}
	return b.String(), len(text), true
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '{' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// stringLiterals returns every quoted string in interpreter code.
func stringLiterals(text, lang string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '#' && (lang == "python" || lang == "ruby" || lang == "perl") {
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		}
		if c == '\'' || c == '"' || c == '`' && lang == "js" {
			s, next, _ := readQuoted(text, i, lang)
			out = append(out, s)
			i = next - 1
		}
	}
	return out
}

// interpreterShellOut checks awk programs that run commands.
func (a *analyzer) interpreterShellOut(inv *invocation, lang, prog string) {
	a.code(inv, lang, arg{s: prog})
	if strings.Contains(prog, "| getline") || strings.Contains(prog, "|getline") || strings.Contains(prog, `" |`) {
		for _, l := range stringLiterals(prog, "js") {
			if strings.ContainsAny(l, " ") {
				a.script(l, inv.st.clone(), nil)
			}
		}
	}
}
