package guard

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// luaR handles lua -e CODE and Rscript -e / R -e CODE.
func (a *analyzer) luaR(inv *shell.Invocation) {
	lang := "lua"
	if inv.Name == "R" || inv.Name == "Rscript" {
		lang = "r"
	}
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		if (args[i].Text == "-e" || args[i].Text == "--expr") && i+1 < len(args) {
			a.code(inv, lang, args[i+1])
			i++
		} else if strings.HasPrefix(args[i].Text, "--expr=") {
			a.code(inv, lang, shell.Word{Text: strings.TrimPrefix(args[i].Text, "--expr="), Src: args[i].Src})
		}
	}
}

// --- command lines of interpreters ---

func (a *analyzer) python(inv *shell.Invocation) {
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.Proc {
			a.DynamicScript(inv, x, inv.Name)
			return
		}
		if x.Dynamic {
			return
		}
		s := x.Text
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
					var rest []shell.Word
					var v shell.Word
					if val != "" {
						v = shell.Word{Text: val, Src: x.Src}
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
		case s == "/dev/stdin" || s == "/proc/self/fd/0":
			a.stdinCode(inv, "python")
			return
		default:
			a.readPath(inv, x) // the script file; its body is not read
			a.runFile(inv, x, "python")
			if path.Base(x.Text) == "manage.py" {
				a.checkDBTask(inv, "manage.py", args[i+1:])
			}
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
func (a *analyzer) pythonModule(inv *shell.Invocation, mod shell.Word, rest []shell.Word) {
	switch mod.Text {
	case "pip", "pip3":
		a.x.Reinvoke(inv, append([]shell.Word{{Text: "pip", Src: mod.Src}}, rest...), "python -m")
		return
	case "uv", "poetry", "pipx", "ensurepip":
		a.x.Reinvoke(inv, append([]shell.Word{{Text: mod.Text, Src: mod.Src}}, rest...), "python -m")
		return
	case "pre_commit":
		a.x.Reinvoke(inv, append([]shell.Word{{Text: "pre-commit", Src: mod.Src}}, rest...), "python -m")
		return
	}
	for _, r := range rest {
		a.readOperand(inv, r)
	}
}

func (a *analyzer) node(inv *shell.Invocation) {
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.Proc {
			a.DynamicScript(inv, x, inv.Name)
			return
		}
		if x.Dynamic {
			return
		}
		switch s := x.Text; {
		case s == "-e" || s == "--eval" || s == "-p" || s == "--print" || s == "-pe":
			if i+1 < len(args) {
				a.code(inv, "js", args[i+1])
			}
			return
		case strings.HasPrefix(s, "--eval=") || strings.HasPrefix(s, "--print="):
			_, v, _ := strings.Cut(s, "=")
			a.code(inv, "js", shell.Word{Text: v, Src: x.Src})
			return
		case s == "-r" || s == "--require" || s == "--import" || s == "--loader" || s == "--input-type" || s == "-C" || s == "--conditions":
			i++
		case s == "-" || s == "/dev/stdin" || s == "/proc/self/fd/0":
			a.stdinCode(inv, "js")
			return
		case strings.HasPrefix(s, "-"):
		default:
			a.readPath(inv, x)
			a.runFile(inv, x, "js")
			for _, r := range args[i+1:] {
				a.readOperand(inv, r)
			}
			return
		}
	}
	a.stdinCode(inv, "js")
}

func (a *analyzer) bun(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	switch args[0].Text {
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

func (a *analyzer) deno(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	switch args[0].Text {
	case "add", "install", "i":
		var ns []string
		for _, x := range operandsOf(args[1:], shell.Longs("config", "c", "import-map", "lock", "name", "n", "root")) {
			if x.Dynamic {
				ns = append(ns, "deno:"+x.Show())
			} else if !isLocalPath(x.Text) && !strings.HasSuffix(x.Text, ".ts") && !strings.HasSuffix(x.Text, ".js") || strings.Contains(x.Text, "://") {
				ns = append(ns, "deno:"+x.Text)
			}
		}
		a.reportPackages(inv, "other", ns, "deno install (dependencies from deno.json)")
	case "eval":
		for _, x := range args[1:] {
			if !strings.HasPrefix(x.Text, "-") || x.Dynamic {
				a.code(inv, "js", x)
				return
			}
		}
	case "run":
		for _, x := range args[1:] {
			if x.Dynamic || strings.HasPrefix(x.Text, "-") {
				continue
			}
			if strings.HasPrefix(x.Text, "http://") || strings.HasPrefix(x.Text, "https://") {
				a.judge(inv, effect.UnreadCode{By: "deno run", Code: x.Text, How: effect.URL})
			}
			return
		}
	}
}

// perlRuby handles perl and ruby: -e code (several are joined), -i edits
// files in place.
func (a *analyzer) perlRuby(inv *shell.Invocation) {
	args := inv.Args()
	lang := inv.Name
	var codes []shell.Word
	inPlace := false
	i := 0
	for ; i < len(args); i++ {
		x := args[i]
		if x.Dynamic {
			break
		}
		s := x.Text
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
					codes = append(codes, shell.Word{Text: flags[j+1:], Src: x.Src})
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
		if rest[0].Proc {
			a.DynamicScript(inv, rest[0], lang)
			return
		}
		if rest[0].Static() && (rest[0].Text == "-" || rest[0].Text == "/dev/stdin") {
			a.stdinCode(inv, lang)
			return
		}
		a.readPath(inv, rest[0]) // the script file
		a.runFile(inv, rest[0], lang)
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

func joinLines(xs []shell.Word) shell.Word {
	j := xs[0]
	j.Tmpl = j.Template()
	for _, x := range xs[1:] {
		j.Text += "\n" + x.Text
		j.Tmpl += "\n" + x.Template()
		j.Dynamic = j.Dynamic || x.Dynamic
	}
	return j
}

func (a *analyzer) php(inv *shell.Invocation) {
	args := inv.Args()
	ran := false
	for i := 0; i < len(args); i++ {
		switch s := args[i].Text; {
		case args[i].Dynamic:
			return
		case s == "-r" || s == "-B" || s == "-R" || s == "-E":
			if i+1 < len(args) {
				a.code(inv, "php", args[i+1])
				i++
			}
			ran = true
		case s == "-f":
			if i+1 < len(args) {
				a.readPath(inv, args[i+1])
				a.runFile(inv, args[i+1], "php")
				i++
			}
			ran = true
		case s == "-c" || s == "-d" || s == "-z" || s == "-t" || s == "-S":
			i++ // options with a value
		case s == "-a" || s == "-l" || s == "-m" || s == "-i" || s == "-v" || s == "-h" || s == "-s" || s == "-w":
			return // interactive, lint, info: no code runs
		case strings.HasPrefix(s, "-") && s != "-":
		default:
			if !ran && s != "-" && s != "/dev/stdin" {
				a.readPath(inv, args[i])
				a.runFile(inv, args[i], "php")
				if path.Base(s) == "artisan" {
					a.checkDBTask(inv, "artisan", args[i+1:])
				}
				return
			}
			if !ran {
				a.stdinCode(inv, "php")
			}
			return
		}
	}
	if !ran {
		a.stdinCode(inv, "php") // php reads its program from standard input
	}
}

func (a *analyzer) stdinCode(inv *shell.Invocation, lang string) {
	in := inv.Stdin
	if in != nil && in.File && in.FilePath.Text != "" {
		a.runFile(inv, in.FilePath, lang) // python3 < prog.py runs the file as python3 prog.py does
		return
	}
	if in == nil || in.File {
		return
	}
	if in.Dynamic {
		what := in.Desc
		if in.Net {
			what = "downloaded code (" + in.Desc + ")"
		}
		a.judgeFrom(inv, in.From, effect.UnreadCode{By: inv.Name, Code: what, How: effect.ProgramInput})
		return
	}
	a.code(inv, lang, shell.Word{Text: in.Text})
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
	apiCopy              // copies or links: the second argument is written
	apiPathMethod        // Path('/x').unlink(): the method decides
	apiPip               // pip.main(['install', ...])
	apiPackage           // R's install.packages("x") and friends
)

func apis(kind int, patterns ...string) []apiPattern {
	return []apiPattern{{kind: kind, patterns: patterns}}
}

// langAPIs compiles the API patterns the first time interpreter code is
// analysed: most hook calls never need them, and compiling them in every
// process start would cost more than the whole decision.
var langAPIs = sync.OnceValue(func() map[string][]codeAPI {
	out := map[string][]codeAPI{}
	for lang, groups := range langAPIPatterns() {
		for _, g := range groups {
			for _, p := range g.patterns {
				out[lang] = append(out[lang], codeAPI{re: regexp.MustCompile(p), kind: g.kind})
			}
		}
	}
	return out
})

// langAPIPatterns is built only by langAPIs, on first use.
func langAPIPatterns() map[string][]apiPattern {
	return map[string][]apiPattern{
		"python": concat(
			apis(apiDeleteTree, `\brmtree\s*\(`, `\bremovedirs\s*\(`),
			apis(apiDelete, `\bos\s*\.\s*(?:remove|unlink|rmdir)\s*\(`),
			apis(apiShell, `\bos\s*\.\s*(?:system|popen)\s*\(`, `\bsubprocess\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(`,
				`\bcommands\s*\.\s*getoutput\s*\(`, `\bcreate_subprocess_shell\s*\(`),
			apis(apiArgv, `\bos\s*\.\s*(?:exec|spawn)[lvpe]*\s*\(`, `\bpty\s*\.\s*spawn\s*\(`, `\bcreate_subprocess_exec\s*\(`),
			apis(apiWrite, `\bopen\s*\(`, `\bos\s*\.\s*(?:chmod|lchmod|chown|lchown|truncate|utime|mkdir|makedirs|mkfifo|chflags)\s*\(`),
			apis(apiCode, `(?:^|[^.\w])(?:exec|eval)\s*\(`),
			apis(apiMove, `\bshutil\s*\.\s*move\s*\(`, `\bos\s*\.\s*(?:rename|renames|replace)\s*\(`),
			apis(apiCopy, `\bshutil\s*\.\s*(?:copy|copy2|copyfile|copytree|copymode|copystat)\s*\(`, `\bos\s*\.\s*(?:symlink|link)\s*\(`),
			apis(apiPathMethod, `\b(?:pathlib\s*\.\s*)?(?:Path|PosixPath)\s*\(`),
			apis(apiPip, `\bpip\s*\.\s*(?:_internal\s*\.\s*)?main\s*\(`),
		),
		"js": concat(
			apis(apiDeleteTree, `\brmSync\s*\(`, `\brimraf(?:\.sync)?\s*\(`, `\bremoveSync\s*\(`, `\bemptyDirSync\s*\(`, `\bfs(?:\.promises)?\s*\.\s*rm\s*\(`),
			apis(apiDelete, `\b(?:rmdirSync|unlinkSync)\s*\(`, `\bfs(?:\.promises)?\s*\.\s*(?:rmdir|unlink)\s*\(`),
			apis(apiShell, `\bexecSync\s*\(`, `(?:child_process|cp|\bproc)\s*\.\s*exec\s*\(`, `(?:^|[^.\w])exec\s*\(`, `\bexecaCommand(?:Sync)?\s*\(`),
			apis(apiArgv, `\b(?:execFileSync|execFile|spawnSync|spawn)\s*\(`, `\bBun\s*\.\s*spawn(?:Sync)?\s*\(`, `\bexeca(?:Sync)?\s*\(`),
			apis(apiWrite, `\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync)\s*\(`),
			apis(apiCode, `(?:^|[^.\w])eval\s*\(`, `\bnew\s+Function\s*\(`),
			apis(apiMove, `\brenameSync\s*\(`, `\bfs(?:\.promises)?\s*\.\s*rename\s*\(`, `\bmoveSync\s*\(`),
			apis(apiCopy, `\b(?:copyFileSync|cpSync|symlinkSync|linkSync|copySync)\s*\(`, `\bfs(?:\.promises)?\s*\.\s*(?:copyFile|cp|symlink|link)\s*\(`),
		),
		"perl": concat(
			apis(apiDeleteTree, `\b(?:rmtree|remove_tree)\b\s*\(?`),
			apis(apiDelete, `\bunlink\b\s*\(?`, `\brmdir\b\s*\(?`),
			apis(apiShell, `\b(?:system|exec)\b\s*\(?`),
			apis(apiInline, `\bqx\s*[({\[/|!]`, "`"),
			apis(apiWrite, `\bopen\s*\(`),
			apis(apiCode, `(?:^|[^.\w$])eval\s*(?:\(|["'$]|q[qw]?\b)`),
		),
		"ruby": concat(
			apis(apiDeleteTree, `\b(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b\s*\(?`),
			apis(apiDelete, `\bFileUtils\s*\.\s*(?:rm|rm_f|remove)\b\s*\(?`, `\b(?:File|Dir)\s*\.\s*(?:delete|unlink|rmdir)\b\s*\(?`),
			apis(apiShell, `\b(?:system|exec|spawn)\b\s*\(?`, `\bIO\s*\.\s*popen\s*\(?`, `\bOpen3\s*\.\s*\w+\s*\(?`),
			apis(apiInline, `%x\s*[({\[]`, "`"),
			apis(apiWrite, `\bFile\s*\.\s*(?:write|open|binwrite)\s*\(?`),
			apis(apiMove, `\bFileUtils\s*\.\s*(?:mv|move)\b\s*\(?`, `\bFile\s*\.\s*rename\b\s*\(?`),
			apis(apiCopy, `\bFileUtils\s*\.\s*(?:cp|cp_r|copy|ln|ln_s|ln_sf)\b\s*\(?`, `\bFile\s*\.\s*(?:symlink|link)\b\s*\(?`),
			apis(apiCode, `(?:^|[^.\w])(?:eval|instance_eval|class_eval|module_eval)\b\s*\(?`),
		),
		"php": concat(
			apis(apiDelete, `\b(?:unlink|rmdir)\s*\(`),
			apis(apiShell, `\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(`),
			apis(apiInline, "`"),
			apis(apiWrite, `\bfile_put_contents\s*\(`, `\bfopen\s*\(`),
			apis(apiCode, `\b(?:eval|assert|create_function)\s*\(`),
			apis(apiMove, `\brename\s*\(`),
			apis(apiCopy, `\b(?:copy|symlink|link)\s*\(`),
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
			apis(apiPackage, `\binstall\.packages\s*\(`, `\b(?:remotes|devtools|pak)\s*::\s*(?:install_\w+|pkg_install)\s*\(`, `\bBiocManager\s*::\s*install\s*\(`),
		),
	}
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
func (a *analyzer) code(inv *shell.Invocation, lang string, c shell.Word) {
	text := c.Template()
	if strings.Trim(text, shell.UnknownMark+" \t\n;") == "" && c.Dynamic {
		a.judge(inv, effect.UnreadCode{By: inv.Name, Code: clip(c.Show()), How: effect.CodeWord})
		return
	}
	if !a.x.Visit() {
		return
	}
	text = normalizeCode(lang, text)
	// Whole-text heuristics (an eval and a URL anywhere, the environment
	// and a network call anywhere) fit a one-liner, not a program file
	// read for its literal operations, where they meet by chance.
	whole := a.literalOnly == 0
	if whole && evalsDownload(lang, text) {
		a.judge(inv, effect.UnreadCode{By: inv.Name, How: effect.EvalDownload})
		return
	}
	if dump := codeEnvDump(text); whole && dump != nil && codeNetworks(text) {
		a.judge(inv, sendEffect(inv.Name, codeURLHosts(text), []*effect.Source{dump}))
	}
	sites := 0
	spans := stringSpans(text, lang)
	for _, api := range langAPIs()[lang] {
		for n, loc := range api.re.FindAllStringIndex(text, -1) {
			if api.re.String() == "`" && n%2 == 1 {
				continue // a closing backtick
			}
			if inData(text, spans, loc[1]-1, lang) {
				continue // text inside a string is data (eval'd strings are analysed as code)
			}
			if (api.kind == apiShell || api.kind == apiArgv) && lang == "js" && !mentionsAny(text, shellModules["js"]) {
				continue // exec( without child_process is a regular expression method
			}
			sites++
			a.codeCall(inv, lang, api.kind, text, loc[1])
		}
	}
	// Any string naming a secret file is access: open('.env'), a path in a
	// config dict, an argument for a helper. A string that is destructive
	// SQL is run by some database call. (Not for a program file read for
	// its literal operations: what it mentions is its own business.)
	for _, sp := range spans {
		if a.literalOnly > 0 {
			break
		}
		l := sp.value
		if strings.Contains(l, shell.UnknownMark) || l == "" || len(l) > 4096 {
			continue
		}
		a.readPath(inv, shell.Word{Text: expandUser(l, a.env.Home), Src: l})
		if sqlShaped().MatchString(l) {
			a.checkSQL(inv, l, "code")
		}
	}
	if sites == 0 {
		for _, m := range shellModules[lang] {
			if strings.Contains(text, m) {
				a.judge(inv, effect.HiddenCode{By: inv.Name, What: m, Why: effect.ShellModule})
				return
			}
		}
	}
}

// sqlShaped matches a string literal that reads as a destructive SQL
// statement rather than prose ("update the docs").
var sqlShaped = lazyRegexp(`(?i)^\s*(?:DROP\s+(?:TABLE|DATABASE|SCHEMA)\b|TRUNCATE\s+\w|DELETE\s+FROM\s|UPDATE\s+[\w."\x60]+\s+SET\s|WITH\s+\w+\s*(?:\([^)]*\)\s*)?AS\s*\()`)

// Download-and-evaluate: code that fetches from the network and also
// evaluates code is treated as running the download, even when the two
// meet in ways the call patterns cannot follow (.then(eval)).
var (
	downloadMarkers = lazyRegexp(`https?://|\burlopen\b|\brequests\s*\.\s*get\b|\bhttpx\b|\bfetch\s*\(|\baxios\b|\bhttps?\s*\.\s*get\b|open-uri|Net::HTTP|\bcurl_exec\b|LWP::|HTTP::Tiny|\bcurl\b|\bwget\b`)
	evalMarkers     = map[string]func() *regexp.Regexp{
		"python": lazyRegexp(`(?:^|[^.\w])(?:exec|eval|compile)\s*\(`),
		"js":     lazyRegexp(`\beval\b|\bFunction\s*\(|\bvm\s*\.\s*run|\brunIn(?:This|New)Context\b`),
		"ruby":   lazyRegexp(`\b(?:eval|instance_eval|class_eval|module_eval)\b`),
		"php":    lazyRegexp(`\b(?:eval|assert|create_function)\s*\(|\b(?:include|require)(?:_once)?\b`),
		"perl":   lazyRegexp(`\beval\b`),
	}
)

func evalsDownload(lang, text string) bool {
	ev, ok := evalMarkers[lang]
	return ok && ev().MatchString(text) && downloadMarkers().MatchString(text)
}

// normalizeCode rewrites spellings that hide a module behind another
// name, so the call patterns see the module: __import__('os').system,
// require('child_process').exec, from shutil import rmtree as r.
func normalizeCode(lang, text string) string {
	switch lang {
	case "python":
		if strings.Contains(text, "import") {
			text = pyImportCall().ReplaceAllString(text, "$1")
			text = pyAliases(text)
		}
	case "js":
		if strings.Contains(text, "require") || strings.Contains(text, "import") {
			text = jsRequire().ReplaceAllStringFunc(text, func(m string) string {
				name := jsRequire().FindStringSubmatch(m)[1]
				return strings.ReplaceAll(name, "/", ".") // fs/promises -> fs.promises
			})
		}
	}
	return text
}

var (
	pyImportCall = lazyRegexp(`(?:__import__|importlib\s*\.\s*import_module)\s*\(\s*['"]([\w.]+)['"]\s*\)`)
	jsRequire    = lazyRegexp(`(?:require|import)\s*\(\s*['"](?:node:)?([\w/]+)['"]\s*\)`)
	pyImportLine = lazyRegexp(`(?m)(?:^|;)\s*(?:from\s+([\w.]+)\s+)?import\s+\(?([\w.,* \t]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\)?`)
)

// pyStarNames are the dangerous names a star import brings in.
var pyStarNames = map[string][]string{
	"os":         {"system", "popen", "remove", "unlink", "rmdir", "removedirs", "rename", "renames", "replace", "chmod", "execv", "execvp", "execl", "execlp", "spawnv", "spawnl"},
	"subprocess": {"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"},
	"shutil":     {"rmtree", "move", "copy", "copy2", "copyfile", "copytree"},
	"pty":        {"spawn"},
}

// pyAliases replaces names bound by import ... as / from ... import with
// their full module path, outside string literals and comments.
func pyAliases(text string) string {
	alias := map[string]string{}
	for _, m := range pyImportLine().FindAllStringSubmatch(text, -1) {
		from := m[1]
		for _, item := range strings.Split(m[2], ",") {
			f := strings.Fields(item)
			if len(f) == 0 {
				continue
			}
			name, as := f[0], f[0]
			if len(f) == 3 && f[1] == "as" {
				as = f[2]
			}
			switch {
			case name == "*" && from != "":
				for _, n := range pyStarNames[from] {
					alias[n] = from + "." + n
				}
			case from != "":
				alias[as] = from + "." + name
			case as != name:
				alias[as] = name
			}
		}
	}
	if len(alias) == 0 {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '#':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			b.WriteString(text[i : i+j])
			i += j
		case c == '\'' || c == '"':
			_, next, _ := readQuoted(text, i, "python")
			b.WriteString(text[i:next])
			i = next
		case isIdentStart(c):
			j := i
			for j < len(text) && (isIdentStart(text[j]) || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			word := text[i:j]
			prev := strings.TrimRight(text[:i], " \t")
			next := strings.TrimLeft(text[j:], " \t")
			if full, ok := alias[word]; ok && !strings.HasSuffix(prev, ".") && !(strings.HasPrefix(next, "=") && !strings.HasPrefix(next, "==")) &&
				!strings.HasSuffix(prev, " as") && !strings.HasSuffix(prev, "import") {
				b.WriteString(full)
			} else {
				b.WriteString(word)
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
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
func (a *analyzer) codeCall(inv *shell.Invocation, lang string, kind int, text string, pos int) {
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
		verb := inv.Name + " code deletes"
		if kind == apiMove {
			verb = inv.Name + " code moves away"
			a.codeWrite(inv, args, 1)
		}
		if !ok || v.dynamic || v.list != nil {
			a.judge(inv, effect.Delete{Target: effect.Target{Tool: inv.Name + " code", Dynamic: true}, Verb: verb, Recursive: kind != apiDelete})
			return
		}
		sub := *inv
		sub.Name = inv.Name + " code"
		a.deletePath(&sub, shell.Word{Text: expandUser(v.s, a.env.Home), Src: v.s}, kind != apiDelete)
	case apiCopy:
		if ok {
			a.codeWrite(inv, args, 1)
		}
	case apiPathMethod:
		a.pathMethod(inv, lang, text, pos, args, ok)
	case apiPip:
		if v, ok := first(); ok && v.list != nil {
			argv := []shell.Word{{Text: "pip", Src: "pip.main"}}
			for _, w := range v.list {
				argv = append(argv, shell.Word{Text: w.s, Dynamic: w.dynamic, Src: w.s})
			}
			sub := *inv
			sub.Stdin = nil
			a.x.Reinvoke(&sub, argv, inv.Name+" code")
			return
		}
		a.judge(inv, effect.PackageInstall{By: inv.Name + " code", Ecosystem: "pip", Unreadable: true, Manager: "pip"})
	case apiPackage:
		name := "?"
		if v, ok := first(); ok && !v.dynamic && v.list == nil {
			name = v.s
		}
		a.reportPackages(inv, "other", []string{"R:" + name}, "renv::restore() (packages from renv.lock)")
	case apiWrite:
		if lang == "perl" {
			if v, ok := perlOpenTarget(args); ok {
				a.codeWrite(inv, []codeValue{v}, 0)
			}
			return
		}
		v, ok := first()
		if !ok || v.dynamic || v.list != nil {
			return // reading or writing an unknown file: nothing to say
		}
		if lang == "python" && strings.HasSuffix(strings.TrimRight(text[:pos], "( \t"), "open") && !pythonOpenWrites(args) {
			return
		}
		if lang == "ruby" && strings.Contains(text[max(0, pos-8):pos], "open") && !rubyOpenWrites(args) {
			return
		}
		if lang == "php" && strings.Contains(text[max(0, pos-8):pos], "fopen") && !rubyOpenWrites(args) {
			return
		}
		sub := *inv
		sub.Name = inv.Name + " code"
		a.writePath(&sub, shell.Word{Text: expandUser(v.s, a.env.Home), Src: v.s}, inv.Name+" code writes")
	case apiShell, apiArgv:
		a.codeShell(inv, lang, kind, text, pos, args, ok)
	case apiInline:
		a.inlineCommand(inv, lang, text, pos)
	case apiCode:
		v, ok := first()
		if !ok || v.dynamic || v.list != nil {
			a.judge(inv, effect.HiddenCode{By: inv.Name, Why: effect.EvalCode})
			return
		}
		a.code(inv, lang, shell.Word{Text: v.s})
	}
}

// codeWrite checks args[i] of a call as a file the code writes.
func (a *analyzer) codeWrite(inv *shell.Invocation, args []codeValue, i int) {
	if i >= len(args) || args[i].dynamic || args[i].list != nil {
		return
	}
	sub := *inv
	sub.Name = inv.Name + " code"
	a.writePath(&sub, shell.Word{Text: expandUser(args[i].s, a.env.Home), Src: args[i].s}, inv.Name+" code writes")
}

// pathMethod checks Path('/x').unlink(), .write_text(...), .rmdir(), ...:
// pos is just after "Path(".
func (a *analyzer) pathMethod(inv *shell.Invocation, lang, text string, pos int, args []codeValue, ok bool) {
	end := closingParen(text, pos, lang)
	if end < 0 {
		return
	}
	m := pathMethodCall().FindStringSubmatch(text[end:])
	if m == nil {
		return
	}
	p := codeValue{dynamic: true}
	if ok && len(args) > 0 && allLiterals(args) {
		parts := make([]string, len(args))
		for i, v := range args {
			parts[i] = v.s
		}
		p = codeValue{s: strings.Join(parts, "/")}
		if m[1] != "" {
			p.s = expandUser(p.s, a.env.Home)
		}
	}
	sub := *inv
	sub.Name = inv.Name + " code"
	switch method := m[2]; method {
	case "unlink", "rmdir", "rename", "replace":
		if p.dynamic {
			a.judge(inv, effect.Delete{Target: effect.Target{Tool: inv.Name + " code", Dynamic: true}, Recursive: method == "rename" || method == "replace"})
			return
		}
		a.deletePath(&sub, shell.Word{Text: p.s, Src: p.s}, method == "rename" || method == "replace")
	case "write_text", "write_bytes", "touch", "mkdir", "chmod", "lchmod", "symlink_to", "hardlink_to":
		if !p.dynamic {
			a.writePath(&sub, shell.Word{Text: p.s, Src: p.s}, inv.Name+" code "+method)
		}
	case "open":
		if !p.dynamic && strings.ContainsAny(m[3], "wax+") {
			a.writePath(&sub, shell.Word{Text: p.s, Src: p.s}, inv.Name+" code writes")
		}
	}
}

// pathMethodCall matches the method called on a Path(...) expression,
// after an optional .expanduser() / .resolve() / .absolute().
var pathMethodCall = lazyRegexp(`^\s*(?:\.\s*(expanduser)\s*\(\s*\)\s*)?(?:\.\s*(?:resolve|absolute)\s*\(\s*\)\s*)?\.\s*(\w+)\s*\(([^)]*)`)

// closingParen returns the index just after the parenthesis that closes
// the one opened before pos, skipping string literals; -1 if none.
func closingParen(text string, pos int, lang string) int {
	depth := 1
	for j := pos; j < len(text); j++ {
		switch c := text[j]; c {
		case '\'', '"':
			_, next, _ := readQuoted(text, j, lang)
			j = next - 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

func (a *analyzer) codeShell(inv *shell.Invocation, lang string, kind int, text string, pos int, args []codeValue, ok bool) {
	if !ok || len(args) == 0 {
		a.judge(inv, effect.HiddenCode{By: inv.Name, Why: effect.UnreadCommand})
		return
	}
	var argv []shell.Word
	switch {
	case args[0].list != nil:
		for _, v := range args[0].list {
			if v.dynamic {
				argv = append(argv, shell.Word{Dynamic: true, Src: "?"})
				continue
			}
			argv = append(argv, shell.Word{Text: v.s, Src: v.s})
		}
	case kind == apiArgv || len(args) > 1 && allLiterals(args) && lang != "python":
		for _, v := range args {
			if v.list != nil {
				for _, w := range v.list {
					argv = append(argv, shell.Word{Text: w.s, Dynamic: w.dynamic, Src: w.s})
				}
				continue
			}
			argv = append(argv, shell.Word{Text: v.s, Dynamic: v.dynamic, Src: v.s})
			if kind == apiArgv && lang == "python" && strings.Contains(text[max(0, pos-12):pos], "exec") && len(argv) == 1 {
				argv = argv[:0] // os.execv(path, [argv0, ...]): the list is the argv
			}
		}
	case args[0].dynamic:
		a.judge(inv, effect.HiddenCode{By: inv.Name, Why: effect.BuiltCommand})
		return
	default:
		a.x.Script(args[0].s, inv.State.Clone(), nil)
		return
	}
	if len(argv) == 0 {
		return
	}
	sub := *inv
	sub.Stdin = nil
	a.x.Reinvoke(&sub, argv, inv.Name+" code")
}

// inlineCommand checks `cmd`, qx{cmd} and %x(cmd): text[pos-1] opens it.
func (a *analyzer) inlineCommand(inv *shell.Invocation, lang, text string, pos int) {
	closer := map[byte]string{'`': "`", '(': ")", '{': "}", '[': "]", '/': "/", '|': "|", '!': "!"}[text[pos-1]]
	end := strings.Index(text[pos:], closer)
	if closer == "" || end < 0 {
		return
	}
	cmd := text[pos : pos+end]
	if strings.Contains(cmd, shell.UnknownMark) || strings.Contains(cmd, "#{") || (lang == "perl" || lang == "php") && perlVarRE().MatchString(cmd) {
		a.judge(inv, effect.HiddenCode{By: inv.Name, Why: effect.BuiltCommand})
		return
	}
	a.x.Script(cmd, inv.State.Clone(), nil)
}

var (
	perlVarRE  = lazyRegexp(`\$[A-Za-z_{]`)
	keywordArg = lazyRegexp(`^[A-Za-z_]\w*\s*=[^=]`)
)

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
			return b.String(), j + 3, dyn || strings.Contains(b.String(), shell.UnknownMark)
		}
		if !triple && c == q {
			s := b.String()
			return s, j + 1, dyn || strings.Contains(s, shell.UnknownMark)
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
	for _, sp := range stringSpans(text, lang) {
		out = append(out, sp.value)
	}
	return out
}

// stringSpan is one string literal of interpreter code.
type stringSpan struct {
	start, end int // text[start:end] is the literal with its quotes
	value      string
}

func stringSpans(text, lang string) []stringSpan {
	var out []stringSpan
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
			out = append(out, stringSpan{start: i, end: next, value: s})
			i = next - 1
		}
	}
	return out
}

// inData reports whether offset i lies inside a string literal that is
// only data. A string that interpolates code (ruby "#{...}", perl "@{[...]}",
// js `${...}`, python f"{...}") runs what is inside it, so it is not.
func inData(text string, spans []stringSpan, i int, lang string) bool {
	for _, sp := range spans {
		if i > sp.start && i < sp.end {
			return !interpolates(text, sp, lang)
		}
	}
	return false
}

func interpolates(text string, sp stringSpan, lang string) bool {
	body := text[sp.start:sp.end]
	q := text[sp.start]
	switch lang {
	case "ruby":
		return q != '\'' && strings.Contains(body, "#{")
	case "perl", "php":
		return q != '\'' && strings.ContainsAny(body, "$@")
	case "js":
		return q == '`' && strings.Contains(body, "${")
	case "python":
		prefix := strings.ToLower(text[max(0, sp.start-2):sp.start])
		return strings.ContainsRune(prefix, 'f') && strings.Contains(body, "{")
	}
	return false
}

// interpreterShellOut checks awk programs that run commands.
func (a *analyzer) interpreterShellOut(inv *shell.Invocation, lang, prog string) {
	a.code(inv, lang, shell.Word{Text: prog})
	if strings.Contains(prog, "| getline") || strings.Contains(prog, "|getline") || strings.Contains(prog, `" |`) {
		for _, l := range stringLiterals(prog, "js") {
			if strings.ContainsAny(l, " ") {
				a.x.Script(l, inv.State.Clone(), nil)
			}
		}
	}
}
