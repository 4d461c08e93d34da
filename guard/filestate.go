package guard

import (
	"path"
	"regexp"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Files the command itself creates. A script written and run in the same
// command (printf 'rm -rf ~' > x.sh && sh x.sh), a download run as a
// program, a symlink to / deleted through, a copy of /bin/rm under another
// name: the guard follows what the command puts in place, not only what
// it runs by name.
//
// The effects are kept per analysis, not per state: a file written in one
// branch of an if may be run in another, and a file written after the run
// that reads it (in a loop) is still checked, at the end of the analysis.

// maxFileEffects bounds the bookkeeping of one command.
const maxFileEffects = 256

// recordBody notes that x now holds body.
func (a *analyzer) recordBody(inv *shell.Invocation, x shell.Word, body *shell.Input) {
	if body == nil || !x.Static() || inv.State.Remote {
		return
	}
	for _, p := range a.resolveArg(x, inv.State).paths {
		if a.bodies == nil {
			a.bodies = map[string][]*shell.Input{}
		}
		if len(a.bodies) < maxFileEffects && len(a.bodies[p]) < 8 {
			a.bodies[p] = append(a.bodies[p], body)
		}
	}
}

// recordLink notes that link (a symlink the command creates) points to
// target; paths through it are paths through the target.
func (a *analyzer) recordLink(inv *shell.Invocation, target, link shell.Word) {
	if !target.Static() || !link.Static() || inv.State.Remote {
		return
	}
	tp := a.resolveArg(target, inv.State).paths
	if len(tp) != 1 {
		return
	}
	for _, l := range a.resolveArg(link, inv.State).paths {
		if a.links == nil {
			a.links = map[string]string{}
		}
		if len(a.links) < maxFileEffects && l != tp[0] {
			a.links[l] = tp[0]
		}
	}
}

// recordCopy notes that dest now runs as src would (cp /bin/rm ./x) and
// holds what src held.
func (a *analyzer) recordCopy(inv *shell.Invocation, src, dest shell.Word) {
	if !src.Static() || !dest.Static() || inv.State.Remote {
		return
	}
	sp := a.resolveArg(src, inv.State).paths
	if len(sp) != 1 {
		return
	}
	for _, d := range a.resolveArg(dest, inv.State).paths {
		if a.progs == nil {
			a.progs = map[string]string{}
		}
		if len(a.progs) < maxFileEffects && d != sp[0] {
			a.progs[d] = sp[0]
		}
		for _, b := range a.bodies[sp[0]] {
			a.recordBody(inv, shell.Word{Text: d}, b)
		}
		// cp /proc/self/environ f: f holds the environment, as env > f
		// would make it.
		if secret := environSource(sp[0]); secret != nil {
			a.recordBody(inv, shell.Word{Text: d}, &shell.Input{Dynamic: true, Desc: sp[0], Secret: secret})
		}
	}
}

// programFor returns what running head actually runs when the command put
// it in place: a symlink or copy of another program, a name bound with
// hash -p, or a program in a directory the command added to PATH.
func (a *analyzer) programFor(inv *shell.Invocation, head shell.Word) (string, bool) {
	if len(a.links) == 0 && len(a.progs) == 0 {
		return "", false
	}
	var cands []string
	if strings.Contains(head.Text, "/") {
		cands = a.resolveArg(head, inv.State).paths
	} else {
		if p, ok := a.progs["hash:"+head.Text]; ok {
			return p, true
		}
		for _, dir := range a.pathDirs(inv) {
			cands = append(cands, path.Join(dir, head.Text))
		}
	}
	for _, c := range cands {
		t := c
		for hops := 0; hops < 8; hops++ {
			if l, ok := a.links[t]; ok {
				t = l
			} else if p, ok := a.progs[t]; ok {
				t = p
			} else {
				break
			}
		}
		if t != c {
			return t, true
		}
	}
	return "", false
}

// pathDirs returns the static directories of a PATH the command set.
func (a *analyzer) pathDirs(inv *shell.Invocation) []string {
	vals, ok := inv.Env["PATH"]
	if !ok {
		vals, ok = inv.State.Vars["PATH"]
	}
	if !ok {
		return nil
	}
	var dirs []string
	for _, v := range vals {
		for _, d := range strings.Split(v.Template(), ":") {
			if path.IsAbs(d) && !strings.Contains(d, shell.UnknownMark) {
				dirs = append(dirs, path.Clean(d))
			}
		}
	}
	return dirs
}

// runFile notes that the command runs file x (as lang, or by its #! line
// when lang is ""); the check happens when the analysis ends.
func (a *analyzer) runFile(inv *shell.Invocation, x shell.Word, lang string) {
	if x.Glob && !x.Dynamic && !inv.State.Remote {
		// find -exec sh {}, bash scripts/*.sh: whatever files match run,
		// and the guard cannot list them to read each.
		a.judge(inv, effect.HiddenCode{By: inv.Name, What: quoteShow(x), Why: effect.MatchedScripts})
		return
	}
	if x.Dynamic && !x.Glob && !inv.State.Remote && chosenHere(x, inv.State) && !namesItsFile(x) {
		// bash "$(ls scripts/*.sh | head -1)": a script the command
		// picks at run time, as a pattern would.
		a.judge(inv, effect.HiddenCode{By: inv.Name, What: quoteShow(x), Why: effect.ChosenScript})
		return
	}
	if !x.Static() || inv.State.Remote || len(a.runs) >= maxFileEffects {
		return
	}
	var paths []string
	for _, p := range a.resolveArg(x, inv.State).paths {
		paths = append(paths, a.followLinks(p, true))
	}
	n := *inv
	n.State = inv.State.Clone()
	n.Stdin = nil
	a.runs = append(a.runs, fileRun{paths: paths, lang: lang, inv: n})
}

// checkFileRuns analyses what every run file holds, once per file and body.
func (a *analyzer) checkFileRuns() {
	seen := map[*shell.Input]map[string]bool{}
	for i := 0; i < len(a.runs) && !a.x.Aborted(); i++ { // analysing a body may add runs
		r := a.runs[i]
		for _, p := range r.paths {
			if len(a.bodies[p]) == 0 {
				a.checkDiskScript(&r.inv, p, r.lang)
				continue
			}
			for _, b := range a.bodies[p] {
				if seen[b] == nil {
					seen[b] = map[string]bool{}
				}
				if seen[b][r.lang] {
					continue
				}
				seen[b][r.lang] = true
				a.checkBody(&r.inv, p, r.lang, b)
			}
		}
	}
}

func (a *analyzer) checkBody(inv *shell.Invocation, file, lang string, b *shell.Input) {
	if b.Net {
		a.judge(inv, effect.UnreadCode{By: inv.Name, Code: file, How: effect.DownloadedFile})
		return
	}
	if b.Dynamic || b.Subst {
		if b.Expanded {
			a.judge(inv, effect.HiddenCode{By: inv.Name, What: file, Why: effect.FilledScript})
		}
		return // the output of another program: as unknown as any file
	}
	if lang == "" {
		lang = shebangLang(b.Text)
	}
	sub := *inv
	sub.Name = inv.Name + " " + path.Base(file)
	switch lang {
	case "sh":
		a.x.Script(b.Text, inv.State.Clone(), nil)
	default:
		a.code(&sub, lang, shell.Word{Text: b.Text, Src: file})
	}
}

// checkDiskScript judges a script the command runs that it did not write:
// ./scripts/reset.sh, bash build.sh. It is read as it is on disk now and
// judged as if typed, with $0 set to its path. Command names a script
// computes at run time (exec "$JAVACMD" in gradlew) are left alone there:
// every concrete command in it is still judged, and a script is a file a
// reviewer can read, unlike a command line.
func (a *analyzer) checkDiskScript(inv *shell.Invocation, p, lang string) {
	if inv.State.Remote || a.runnerDepth >= maxRunnerDepth {
		return
	}
	text, status := a.runnerFile(p)
	if status != fileKnown {
		return // a missing script fails to run; an unreadable one is as unknown as any program
	}
	if binaryProgram(text) {
		return // /bin/rm is a compiled program: judged by its name, not read as a script
	}
	if lang == "" {
		lang = shebangLang(text)
	}
	if lang != "sh" {
		a.checkDiskCode(inv, p, lang, text)
		return
	}
	a.runnerDepth++
	defer func() { a.runnerDepth-- }()
	st := inv.State.Clone()
	st.Vars["0"] = []shell.Word{{Text: p, Src: p}}
	st.Positional, st.PosUnknown = nil, true
	n := len(a.findings)
	a.x.Script(text, st, nil)
	kept := a.findings[:n]
	for _, f := range a.findings[n:] {
		if f.rule == policy.RuleDynamicCommand {
			continue
		}
		f.reason += " (run by the script " + relToRoot(a.env.Root, p) + ")"
		kept = append(kept, f)
	}
	a.findings = kept
}

// maxProgramCode is the size up to which a program file of another
// language is read as code: the tools and scripts a repository keeps and
// an agent writes are smaller; reading a 40 KB module takes about 90 ms.
const maxProgramCode = 16 << 10

// checkDiskCode judges a program file of another language the command
// runs (python3 tools/x.py, node scripts/y.js, ruby, perl, php, or by its
// #! line): its code is read as the interpreters' one-liners are, but only
// what it does literally counts. A shell-out of a literal command
// (subprocess.run(["git", "push", "--force"]), os.system("rm -rf ~"),
// execSync('git push -f')), a delete or write of a literal path outside
// the worktree, a download it evaluates: denied as if typed. What a
// program does with its inputs (paths, commands or code built at run
// time), the strings it mentions (a .env it loads, SQL it sends) and the
// modules it imports are its ordinary work, as for a compiled program;
// modules it imports from other files are not read.
func (a *analyzer) checkDiskCode(inv *shell.Invocation, p, lang, text string) {
	switch lang {
	case "python", "js", "ruby", "perl", "php":
	default:
		return
	}
	if len(text) > maxProgramCode {
		return // a library-sized program: too long to read within a decision's time
	}
	a.runnerDepth++
	a.literalOnly++
	defer func() { a.runnerDepth--; a.literalOnly-- }()
	sub := *inv
	n := len(a.findings)
	a.code(&sub, lang, shell.Word{Text: text, Src: p})
	for i := n; i < len(a.findings); i++ {
		a.findings[i].reason += " (run by the program " + relToRoot(a.env.Root, p) + ")"
	}
}

// binaryProgram reports whether a file is a compiled executable (ELF,
// Mach-O) rather than a script. The kernel runs those; a file it cannot run
// goes to the shell, and bash and zsh refuse a file whose first line (of the
// first 80 bytes) holds a NUL byte ("cannot execute binary file"). Every
// ELF and Mach-O header has one there; a script that the shell would read
// cannot.
func binaryProgram(text string) bool {
	head := text[:min(len(text), 80)]
	line, _, _ := strings.Cut(head, "\n")
	return strings.IndexByte(line, 0) >= 0
}

// shebangLang reads the interpreter of a script from its #! line.
func shebangLang(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(line, "#!") {
		return "sh"
	}
	f := strings.Fields(line[2:])
	if len(f) == 0 {
		return "sh"
	}
	name := path.Base(f[0])
	if name == "env" && len(f) > 1 {
		name = f[len(f)-1]
		if len(f) > 2 && f[1] == "-S" {
			name = f[2]
		}
	}
	switch commandName(name) {
	case "python", "pypy":
		return "python"
	case "node", "nodejs", "bun", "deno":
		return "js"
	case "perl":
		return "perl"
	case "ruby":
		return "ruby"
	case "php":
		return "php"
	}
	return "sh"
}

// namesItsFile reports whether the run-time part of x only picks the
// directory of a file it names literally: . "$(brew --prefix nvm)/nvm.sh"
// runs nvm.sh wherever Homebrew put it, which is how the tool is set up,
// not a script chosen among others. (The file is not read either way: its
// directory is only known at run time.)
func namesItsFile(x shell.Word) bool {
	t := x.Template()
	i := strings.LastIndex(t, "/")
	return i >= 0 && i < len(t)-1 && !strings.Contains(t[i+1:], shell.UnknownMark)
}

// varRef finds the variables a word names ($X, ${X}, ${X:-d}).
var varRef = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)

// chosenHere reports whether the unknown part of x is worked out by the
// command itself: a command substitution, or a variable the command set
// (from a substitution, a read, a loop over a command's output). A
// variable of the environment the shell starts with is not: the human
// set it, and the agent cannot change it between calls.
func chosenHere(x shell.Word, st *shell.State) bool {
	if strings.Contains(x.Src, "$(") || strings.Contains(x.Src, "`") {
		return true
	}
	for _, m := range varRef.FindAllStringSubmatch(x.Src, -1) {
		if _, set := st.Vars[m[1]]; set {
			return true
		}
	}
	return false
}
