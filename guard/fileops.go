package guard

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

func (a *analyzer) rm(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{OptionalLong: shell.Longs("interactive")})
	recursive := p.Has("r", "R", "recursive")
	if p.DynamicOption() {
		recursive = true // an unknown argument may be -r
	}
	for _, x := range p.Operands {
		a.deletePath(inv, x, recursive)
	}
}

func (a *analyzer) rmdir(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{})
	for _, x := range p.Operands {
		a.deletePath(inv, x, false)
		if p.Has("p", "parents") && !x.Dynamic {
			// rmdir -p a/b/c removes the parents too.
			for d := path.Dir(x.Text); d != "." && d != "/" && d != ""; d = path.Dir(d) {
				a.deletePath(inv, shell.Word{Text: d, Src: x.Src}, false)
			}
		}
	}
}

func (a *analyzer) unlink(inv *shell.Invocation) {
	for _, x := range shell.ParseOpts(inv.Args(), shell.Spec{}).Operands {
		a.deletePath(inv, x, false)
	}
}

func (a *analyzer) shred(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "ns", Long: shell.Longs("iterations", "size", "random-source"), OptionalLong: shell.Longs("remove")})
	for _, x := range p.Operands {
		a.deletePath(inv, x, false)
	}
}

func (a *analyzer) truncate(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "sr", Long: shell.Longs("size", "reference")})
	for _, x := range p.Operands {
		a.writePath(inv, x, "truncate empties")
	}
}

// moveOperands splits cp/mv/install/ln operands into sources and destination.
func moveOperands(p shell.Parsed) (sources []shell.Word, dest shell.Word, ok bool) {
	if t, has := p.Value("t", "target-directory"); has {
		return p.Operands, t, true
	}
	if len(p.Operands) < 2 {
		return nil, shell.Word{}, false
	}
	return p.Operands[:len(p.Operands)-1], p.Operands[len(p.Operands)-1], true
}

var copySpec = sync.OnceValue(func() shell.Spec {
	return shell.Spec{Short: "tS", Long: shell.Longs("target-directory", "suffix"), OptionalLong: shell.Longs("backup", "reflink", "sparse", "preserve", "no-preserve", "update", "context", "debug")}
})

func (a *analyzer) mv(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), copySpec())
	sources, dest, ok := moveOperands(p)
	if !ok {
		return
	}
	for _, s := range sources {
		a.deletePath(inv, s, true) // the source disappears from where it was
	}
	a.copyTargets(inv, p, sources, dest, "mv writes to")
}

func (a *analyzer) cp(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), copySpec())
	sources, dest, ok := moveOperands(p)
	if !ok {
		return
	}
	for _, s := range sources {
		if p.Has("r", "R", "recursive", "a", "archive") {
			a.readTree(inv, s, "cp -r")
		} else {
			a.readPath(inv, s)
		}
	}
	a.copyTargets(inv, p, sources, dest, "cp writes to")
}

// ditto (macOS) copies directory trees like cp -R: ditto SRC... DST.
// With -c it writes an archive, with -x it extracts into DST.
func (a *analyzer) ditto(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Long: shell.Longs("arch", "bom", "zlibCompressionLevel", "password")})
	sources, dest, ok := moveOperands(p)
	if !ok {
		return
	}
	for _, s := range sources {
		a.readTree(inv, s, "ditto")
	}
	a.writePath(inv, dest, "ditto writes to")
}

// copyTargets checks what cp, mv and install write: dest, and when dest
// is (or may be) a directory, dest/NAME for each source, which is where
// cp /tmp/settings.json .claude/ really writes.
func (a *analyzer) copyTargets(inv *shell.Invocation, p shell.Parsed, sources []shell.Word, dest shell.Word, verb string) {
	_, intoDir := p.Value("t", "target-directory")
	intoDir = intoDir || len(sources) > 1 || strings.HasSuffix(dest.Text, "/") || a.knownDir(dest, inv.State)
	if !intoDir || dest.Dynamic {
		a.writePath(inv, dest, verb)
	}
	if dest.Dynamic {
		return
	}
	for _, s := range sources {
		if !s.Static() || p.Has("T", "no-target-directory") {
			if !intoDir {
				continue
			}
			a.writePath(inv, dest, verb)
			continue
		}
		in := shell.Word{Text: path.Join(dest.Text, path.Base(s.Text)), Src: dest.Src}
		n := len(a.writes)
		a.writePath(inv, in, verb)
		if !intoDir {
			a.writes = a.writes[:n] // only a guess: dest may be a plain file
		}
		if intoDir {
			a.recordCopy(inv, s, in)
		} else {
			a.recordCopy(inv, s, dest)
		}
	}
}

// knownDir reports whether a copy's destination is a directory that
// certainly exists, so cp and mv write into it rather than over it: ., ..,
// the worktree root, the working directory, the temp directory and the
// home directory. cp /tmp/out.txt . writes ./out.txt, not the root itself.
func (a *analyzer) knownDir(dest shell.Word, st *shell.State) bool {
	if !dest.Static() || dest.Glob {
		return false
	}
	switch path.Base(dest.Text) {
	case ".", "..":
		return true
	}
	t := a.resolveArg(dest, st)
	if t.unknown || len(t.paths) == 0 {
		return false
	}
	for _, p := range t.paths {
		if p != a.env.Root && p != a.env.Home && p != a.env.Temp && p != "/tmp" && !slices.Contains(st.Cwds, p) {
			return false
		}
	}
	return true
}

func (a *analyzer) installCmd(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "tSmogZ", Long: shell.Longs("target-directory", "suffix", "mode", "owner", "group", "strip-program"), OptionalLong: shell.Longs("backup", "context")})
	if p.Has("d", "directory") {
		for _, x := range p.Operands {
			a.writePath(inv, x, "install -d creates")
		}
		return
	}
	sources, dest, ok := moveOperands(p)
	if !ok {
		return
	}
	for _, s := range sources {
		a.readPath(inv, s)
	}
	a.writePath(inv, dest, "install writes to")
}

func (a *analyzer) ln(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), copySpec())
	// A link to a secret file is a way to read it under another name.
	sources := p.Operands
	if _, has := p.Value("t", "target-directory"); !has && len(sources) > 1 {
		sources = sources[:len(sources)-1]
	}
	for _, src := range sources {
		a.readPath(inv, src)
	}
	if t, has := p.Value("t", "target-directory"); has {
		a.writePath(inv, t, "ln creates links in")
		return
	}
	switch len(p.Operands) {
	case 0:
	case 1:
		link := shell.Word{Text: path.Base(p.Operands[0].Text), Dynamic: p.Operands[0].Dynamic, Src: p.Operands[0].Src}
		a.writePath(inv, link, "ln creates")
		a.recordLinkOrCopy(inv, p, p.Operands[0], link)
	default:
		link := p.Operands[len(p.Operands)-1]
		a.writePath(inv, link, "ln creates")
		if len(p.Operands) == 2 {
			a.recordLinkOrCopy(inv, p, p.Operands[0], link)
		}
	}
}

// recordLinkOrCopy notes a symlink (whose relative target is relative to
// the link's directory) or a hard link (which runs as a copy).
func (a *analyzer) recordLinkOrCopy(inv *shell.Invocation, p shell.Parsed, target, link shell.Word) {
	if !p.Has("s", "symbolic") {
		a.recordCopy(inv, target, link)
		return
	}
	if target.Static() && !path.IsAbs(target.Text) && link.Static() {
		target = shell.Word{Text: path.Join(path.Dir(link.Text), target.Text), Src: target.Src}
	}
	a.recordLink(inv, target, link)
}

func (a *analyzer) rsync(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "efBTM", Long: shell.Longs("rsh", "rsync-path", "filter", "exclude", "include",
		"exclude-from", "include-from", "files-from", "block-size", "chmod", "chown", "log-file", "password-file",
		"temp-dir", "partial-dir", "backup-dir", "compare-dest", "link-dest", "copy-dest", "max-size", "min-size",
		"timeout", "port", "bwlimit", "suffix", "out-format", "remote-option", "info", "debug", "iconv", "usermap",
		"groupmap", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "modify-window",
		"stop-after", "stop-at", "sockopts", "address", "contimeout", "write-batch", "only-write-batch",
		"read-batch", "protocol", "outbuf", "max-delete", "max-alloc", "early-input", "log-file-format")})
	if sh, ok := p.Value("e", "rsh"); ok {
		a.x.RunScript(inv, sh, "rsync -e")
	}
	if len(p.Operands) < 2 {
		return
	}
	sources, dest := p.Operands[:len(p.Operands)-1], p.Operands[len(p.Operands)-1]
	if p.Has("n", "dry-run") && !p.Has("only-write-batch", "write-batch", "log-file") {
		// rsync -n lists what it would copy and delete, and changes
		// nothing; the sources are still read.
		for _, s := range sources {
			if !isRemoteSpec(s.Text) {
				a.readPath(inv, s)
			}
		}
		return
	}
	deletes := false
	for _, o := range p.Opts {
		if strings.HasPrefix(o.Name, "del") {
			deletes = true
		}
	}
	for _, s := range sources {
		if !isRemoteSpec(s.Text) {
			a.readPath(inv, s)
			if p.Has("remove-source-files") {
				a.deletePath(inv, s, false)
			}
		}
	}
	if isRemoteSpec(dest.Text) {
		remote := *inv
		remote.State = inv.State.Clone()
		remote.State.Remote = true
		if deletes {
			a.deletePath(&remote, dest, true)
		} else {
			a.writePath(&remote, dest, "rsync writes to")
		}
		return
	}
	if deletes {
		a.deletePath(inv, dest, true)
	}
	a.writePath(inv, dest, "rsync writes to")
}

func (a *analyzer) dd(inv *shell.Invocation) {
	for _, x := range inv.Args() {
		if x.Dynamic {
			continue
		}
		if v, ok := strings.CutPrefix(x.Text, "of="); ok {
			a.writePath(inv, shell.Word{Text: v, Glob: x.Glob, Src: x.Src}, "dd writes")
		}
		if v, ok := strings.CutPrefix(x.Text, "if="); ok {
			a.readPath(inv, shell.Word{Text: v, Glob: x.Glob, Src: x.Src})
		}
	}
}

func (a *analyzer) tee(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{OptionalLong: shell.Longs("output-error")})
	for _, x := range p.Operands {
		a.writePath(inv, x, "tee writes")
	}
}

func (a *analyzer) touch(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "dtr", Long: shell.Longs("date", "reference", "time")})
	for _, x := range p.Operands {
		a.writePath(inv, x, "touch writes")
	}
}

// chmodLike: chmod MODE FILE..., chown OWNER FILE..., chgrp GROUP FILE...
func (a *analyzer) chmodLike(inv *shell.Invocation) {
	var files []shell.Word
	modeSeen, recursive := false, false
	for _, x := range inv.Args() {
		s := x.Text
		switch {
		case x.Dynamic:
			if !modeSeen {
				modeSeen = true
				continue
			}
		case s == "--recursive":
			recursive = true
			continue
		case strings.HasPrefix(s, "--reference=") || strings.HasPrefix(s, "--from="):
			modeSeen = modeSeen || strings.HasPrefix(s, "--reference=")
			continue
		case strings.HasPrefix(s, "--"):
			continue
		case len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "cfvRhHLP") == "":
			recursive = recursive || strings.Contains(s, "R")
			continue
		case !modeSeen:
			modeSeen = true // chmod's mode (even -x), chown's owner, chattr's +i
			continue
		}
		files = append(files, x)
	}
	for _, x := range files {
		a.changePath(inv, x, recursive)
	}
}

func (a *analyzer) setfacl(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "mMxX", Long: shell.Longs("modify", "modify-file", "remove", "remove-file", "set", "set-file")})
	for _, x := range p.Operands {
		a.changePath(inv, x, p.Has("R", "recursive"))
	}
}

// changePath: chmod/chown of a path, recursively reaching what is below.
func (a *analyzer) changePath(inv *shell.Invocation, x shell.Word, recursive bool) {
	a.writeTree(inv, x, inv.Name+" changes", recursive)
}

func (a *analyzer) sed(inv *shell.Invocation) {
	a.sedArgs(inv, inv.Args())
	// BSD (macOS) sed's -i takes its backup suffix as the next word: sed -i
	// '' 'w /etc/x' f runs the script 'w /etc/x' there, while GNU sed reads
	// '' as the script. Judge the BSD reading too.
	args := inv.Args()
	for i := 0; i+1 < len(args); i++ {
		x := args[i]
		if x.Dynamic || x.Text == "--" || !strings.HasPrefix(x.Text, "-") {
			return
		}
		if strings.HasPrefix(x.Text, "--") {
			continue
		}
		cluster := x.Text[1:]
		k := strings.IndexAny(cluster, "efli")
		if k < 0 || k < len(cluster)-1 {
			continue // no option taking a value, or its value is attached
		}
		if cluster[k] == 'i' {
			a.sedArgs(inv, append(slices.Clone(args[:i+1]), args[i+2:]...))
			return
		}
		i++ // -e SCRIPT, -f FILE, -l N
	}
}

func (a *analyzer) sedArgs(inv *shell.Invocation, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "efl", Long: shell.Longs("expression", "file", "line-length"), OptionalLong: shell.Longs("in-place", "follow-symlinks")})
	files := p.Operands
	scripts := p.Values("e", "expression")
	if len(scripts) == 0 && len(p.Values("f", "file")) == 0 && len(files) > 0 {
		scripts, files = files[:1], files[1:] // the first operand is the script
	}
	for _, sc := range scripts {
		a.sedScript(inv, sc)
	}
	for _, f := range p.Values("f", "file") {
		a.readPath(inv, f)
	}
	inPlace := p.Has("i", "in-place")
	if inPlace && len(p.Values("f", "file")) == 0 && len(scripts) > 0 {
		// GNU sed's reading of BSD's sed -i '' '/^x/d' f: the script is
		// the empty '' and the edit rewrites each file unchanged; the
		// BSD reading (sed) judges what really changes.
		empty := true
		for _, sc := range scripts {
			empty = empty && sc.Static() && strings.TrimSpace(sc.Text) == ""
		}
		inPlace = !empty
	}
	for _, f := range files {
		if inPlace {
			a.writePath(inv, f, "sed -i edits")
		} else {
			a.readPath(inv, f)
		}
	}
}

// sedScript checks what a sed script does outside the text: GNU sed runs
// commands (e, s///e), writes files (w) and reads them (r).
func (a *analyzer) sedScript(inv *shell.Invocation, sc shell.Word) {
	fx := parseSed(sc.Template())
	for _, c := range fx.execs {
		if strings.Contains(c, shell.UnknownMark) {
			fx.execLine = true
			continue
		}
		a.x.Script(c, inv.State.Clone(), nil)
	}
	if fx.execLine && len(fx.execs) == 0 {
		if inv.Stdin != nil && inv.Stdin.Net {
			a.judge(inv, effect.UnreadCode{By: "sed's e", Code: inv.Stdin.Desc, How: effect.CommandLines})
		} else {
			a.judge(inv, effect.HiddenCode{By: "sed's e", Why: effect.SedExecute})
		}
	}
	for _, w := range fx.writes {
		a.writePath(inv, shell.Word{Text: w, Dynamic: strings.Contains(w, shell.UnknownMark), Src: sc.Src}, "sed w writes")
	}
	for _, r := range fx.reads {
		a.readPath(inv, shell.Word{Text: r, Dynamic: strings.Contains(r, shell.UnknownMark), Src: sc.Src})
	}
}

// editor: vim -c ':!cmd', +cmd and --cmd run shell commands with "!".
func (a *analyzer) editor(inv *shell.Invocation) {
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		cmd := ""
		switch {
		case (x.Text == "-c" || x.Text == "--cmd") && i+1 < len(args):
			i++
			cmd = args[i].Template()
		case strings.HasPrefix(x.Text, "+") && len(x.Text) > 1:
			cmd = x.Template()[1:]
		}
		if j := strings.Index(cmd, "!"); j >= 0 {
			a.x.RunScript(inv, shell.Word{Text: cmd[j+1:], Dynamic: strings.Contains(cmd, shell.UnknownMark), Src: x.Src}, inv.Name+" :!")
		} else if strings.Contains(cmd, "system(") {
			a.judge(inv, effect.HiddenCode{By: inv.Name, Why: effect.EditorSystem})
		}
	}
}

// gitDirNames are names inside a .git directory; a find -name pattern that
// matches one of them can delete repository internals or hooks.
var gitDirNames = []string{"HEAD", "config", "index", "packed-refs", "hooks", "pre-commit", "pre-push", "commit-msg",
	"prepare-commit-msg", "objects", "refs", "main", "master", "ORIG_HEAD", "description", "info", "logs", "FETCH_HEAD"}

// findStarts splits find's arguments into the start directories and the
// expression. It knows GNU find's options before the starts (-H -L -P -D
// -O) and BSD (macOS) find's (-E -H -L -P -X -d -s -x, and -f PATH, which
// names a start). follow says symbolic links are followed (-L, -follow).
func findStarts(args []shell.Word) (starts, expr []shell.Word, follow bool) {
	i := 0
	for i < len(args) && !args[i].Dynamic {
		s := args[i].Text
		if strings.HasPrefix(s, "-O") {
			i++
			continue
		}
		if s == "-D" {
			i += 2
			continue
		}
		if s == "-f" && i+1 < len(args) {
			starts = append(starts, args[i+1])
			i += 2
			continue
		}
		if strings.HasPrefix(s, "-f") && len(s) > 2 {
			starts = append(starts, shell.Word{Text: s[2:], Src: args[i].Src})
			i++
			continue
		}
		if len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "HLPEXdsx") == "" {
			follow = follow || strings.Contains(s, "L")
			i++
			continue
		}
		break
	}
	for i < len(args) {
		s := args[i].Text
		if !args[i].Dynamic && (strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == ",") {
			break
		}
		starts = append(starts, args[i])
		i++
	}
	if len(starts) == 0 {
		starts = []shell.Word{{Text: "."}}
	}
	expr = args[i:]
	for j := 0; j < len(expr); j++ {
		if findTakesValue[expr[j].Text] {
			j++
			continue
		}
		follow = follow || expr[j].Text == "-follow"
	}
	return starts, expr, follow
}

// findTakesValue are find primaries (GNU and BSD) whose next word is their
// value, never a primary of its own: find . -gid -delete deletes nothing.
var findTakesValue = map[string]bool{
	"-amin": true, "-anewer": true, "-atime": true, "-cmin": true, "-cnewer": true, "-ctime": true, "-fstype": true,
	"-gid": true, "-group": true, "-ilname": true, "-iname": true, "-inum": true, "-ipath": true, "-iregex": true,
	"-iwholename": true, "-links": true, "-lname": true, "-maxdepth": true, "-mindepth": true, "-mmin": true,
	"-mtime": true, "-name": true, "-newer": true, "-path": true, "-perm": true, "-regex": true, "-regextype": true,
	"-samefile": true, "-size": true, "-type": true, "-uid": true, "-used": true, "-user": true, "-wholename": true,
	"-xtype": true, "-context": true, "-printf": true, "-fprint": true, "-fprint0": true, "-fls": true,
	"-Bmin": true, "-Bnewer": true, "-Btime": true, "-flags": true, "-acl": false,
}

// findNamePatterns returns the first -name and -path patterns of an expression.
func findNamePatterns(expr []shell.Word) (namePat, pathPat string) {
	for j := 0; j+1 < len(expr); j++ {
		switch expr[j].Text {
		case "-name", "-iname":
			if namePat == "" && !expr[j+1].Dynamic {
				namePat = expr[j+1].Text
			}
			j++
		case "-path", "-wholename", "-ipath", "-iwholename":
			if pathPat == "" && !expr[j+1].Dynamic {
				pathPat = expr[j+1].Text
			}
			j++
		}
	}
	return namePat, pathPat
}

// findOutput describes what find prints: the paths it visits, as a
// pattern xargs can hand to the next command.
func (a *analyzer) findOutput(args []shell.Word) *shell.Input {
	starts, expr, _ := findStarts(args)
	in := &shell.Input{Dynamic: true, Desc: "the output of find"}
	if len(starts) != 1 {
		return in
	}
	for _, x := range expr {
		if x.Text == "-exec" || x.Text == "-execdir" || x.Text == "-printf" || x.Text == "-fprint" || x.Text == "-ok" {
			return in
		}
	}
	namePat, pathPat := findNamePatterns(expr)
	m := a.findMatches(starts[0], namePat, pathPat)
	in.Paths = []shell.Word{m}
	for _, x := range expr {
		in.Nul = in.Nul || x.Text == "-print0"
	}
	return in
}

func (a *analyzer) find(inv *shell.Invocation) {
	starts, expr, follow := findStarts(inv.Args())
	namePat, pathPat := findNamePatterns(expr)
	del := false
	type execCmd struct {
		argv []shell.Word
		dir  bool
	}
	var execs []execCmd
	dynExpr := false
	for j := 0; j < len(expr); j++ {
		x := expr[j]
		switch x.Text {
		case "-delete":
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if j+1 < len(expr) {
				a.writePath(inv, expr[j+1], "find "+x.Text+" writes")
			}
			j++
			if x.Text == "-fprintf" {
				j++ // -fprintf FILE FORMAT
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			k := j + 1
			for k < len(expr) && expr[k].Text != ";" && !(expr[k].Text == "+" && k > j+1 && expr[k-1].Text == "{}") {
				k++
			}
			e := execCmd{argv: expr[j+1 : min(k, len(expr))], dir: strings.HasSuffix(x.Text, "dir")}
			for i, w := range e.argv {
				if i > 0 && strings.Contains(w.Text, "{}") && shell.ShellScriptPosition(e.argv, i) {
					// Like xargs -I: each path becomes text of the script,
					// and a file named $(...) runs as code.
					a.judge(inv, effect.HiddenCode{By: "find", What: "each path", Why: effect.SplicedPaths})
					break
				}
			}
			execs = append(execs, e)
			j = k
		default:
			if findTakesValue[x.Text] {
				j++
			} else if x.Dynamic && !dynExpr {
				// xargs find DIR, find . $EXPR: an unknown word may be
				// -delete or -exec.
				dynExpr = true
				a.judge(inv, effect.HiddenCode{By: "find", What: quoteShow(x), Why: effect.FindExpression})
			}
		}
	}
	for _, start := range starts {
		matched := a.findMatches(start, namePat, pathPat)
		if follow && (del || len(execs) > 0) && !matched.Dynamic {
			// -L and -follow walk through symbolic links: what find
			// reaches under start may lie anywhere.
			matched = shell.Word{Dynamic: true, Text: matched.Text, Src: start.Src + " (following symbolic links)"}
		}
		if del {
			a.deletePath(inv, matched, true)
			if namePat != "" && !matched.Dynamic {
				for _, g := range a.m.gitDirs {
					for _, n := range gitDirNames {
						if nameMatch(namePat, n) && a.findCanReach(start, g, inv.State) {
							p := path.Join(g, n)
							a.judge(inv, effect.Delete{Target: effect.Target{Tool: inv.Name, Path: p,
								Place: effect.Place{Kind: effect.Outside, Where: effect.GitDir, Path: p}},
								Verb: "find -delete with -name " + namePat + " can delete", Recursive: true})
						}
					}
				}
			}
		}
		for _, e := range execs {
			if len(e.argv) == 0 {
				continue
			}
			argv := make([]shell.Word, 0, len(e.argv))
			for k, x := range e.argv {
				if strings.Contains(x.Text, "{}") {
					if k > 0 && shell.ShellScriptPosition(e.argv, k) && !matched.Dynamic {
						x.Text = strings.ReplaceAll(x.Text, "{}", matched.Text)
					} else if x.Text == "{}" {
						x = matched
					} else {
						x.Text = strings.ReplaceAll(x.Text, "{}", matched.Text)
						x.Glob, x.Dynamic, x.Walk = matched.Glob, matched.Dynamic, matched.Walk
					}
				}
				argv = append(argv, x)
			}
			sub := inv
			if e.dir {
				sub = a.x.WithCwd(inv, start)
			}
			a.x.Reinvoke(sub, argv, "find -exec")
		}
	}
}

// findMatches is "whatever find visits under start" as a glob argument.
func (a *analyzer) findMatches(start shell.Word, namePat, pathPat string) shell.Word {
	if start.Dynamic {
		return shell.Word{Dynamic: true, Src: start.Src}
	}
	base := strings.TrimSuffix(start.Text, "/")
	if base == "" {
		base = "/"
	}
	switch {
	case pathPat != "":
		return shell.Word{Text: pathPat, Glob: true, Walk: true, Src: start.Src}
	case namePat != "":
		return shell.Word{Text: strings.TrimSuffix(base, "/") + "/**/" + namePat, Glob: true, Walk: true, Src: start.Src}
	}
	return shell.Word{Text: strings.TrimSuffix(base, "/") + "/**", Glob: true, Walk: true, Src: start.Src}
}

// findCanReach reports whether a find starting at start walks into dir.
func (a *analyzer) findCanReach(start shell.Word, dir string, st *shell.State) bool {
	for _, p := range a.resolveArg(start, st).paths {
		if under(dir, p) {
			return true
		}
	}
	return false
}

// device: mkfs, wipefs, fdisk... write whole devices.
func (a *analyzer) device(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "tLbcCEgGIjJmMNoOrTUL", Long: shell.Longs("type", "label")})
	for _, x := range p.Operands {
		if !x.Dynamic && shell.IsDigits(x.Text) {
			continue // block counts
		}
		a.writePath(inv, x, inv.Name+" overwrites")
	}
}

// sgdisk rewrites its device's partition table (--zap-all, --new,
// --delete …) unless it only prints, verifies or pretends.
func (a *analyzer) sgdisk(inv *shell.Invocation) {
	for _, x := range inv.Args() {
		if x.Static() && (x.Text == "-P" || x.Text == "--pretend") {
			return
		}
	}
	for _, x := range inv.Args() {
		opt, _, _ := strings.Cut(x.Text, "=")
		if x.Static() && strings.HasPrefix(opt, "-") && !sgdiskReads[opt] {
			a.device(inv)
			return
		}
	}
}

// sgdiskReads are sgdisk's options that leave the disk as it is.
var sgdiskReads = map[string]bool{"-p": true, "--print": true, "-i": true, "--info": true, "-v": true, "--verify": true,
	"-O": true, "--print-mbr": true, "-L": true, "--list-types": true, "-V": true, "--version": true, "-b": true, "--backup": true,
	"-?": true, "--help": true, "--usage": true}

// gio trash / gio remove delete files.
func (a *analyzer) gio(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	switch args[0].Text {
	case "trash", "remove", "rm":
		for _, x := range shell.ParseOpts(args[1:], shell.Spec{}).Operands {
			a.deletePath(inv, x, true)
		}
	case "copy", "move", "save":
		p := shell.ParseOpts(args[1:], shell.Spec{})
		if len(p.Operands) > 0 {
			a.writePath(inv, p.Operands[len(p.Operands)-1], "gio writes")
		}
	}
}

// --- readers whose first operand is a pattern or program, not a file ---

var (
	grepValueLongs = sync.OnceValue(func() map[string]bool {
		return shell.Longs("regexp", "file", "max-count", "after-context", "before-context", "context", "directories", "devices",
			"include", "exclude", "exclude-dir", "exclude-from", "label", "group-separator")
	})
	grepSpec = sync.OnceValue(func() shell.Spec {
		return shell.Spec{Short: "efmABCdD", Long: grepValueLongs(), OptionalLong: shell.Longs("color", "colour", "binary-files")}
	})
	// ripgrep and the silver searcher take more values: -g GLOB, -t TYPE, -r REPLACEMENT.
	rgSpec = sync.OnceValue(func() shell.Spec {
		return shell.Spec{Short: "efmABCgtTjMErG", Long: shell.Longs("regexp", "file", "max-count", "after-context", "before-context",
			"context", "glob", "iglob", "type", "type-not", "type-add", "threads", "max-columns", "max-filesize", "ignore-file",
			"pre", "pre-glob", "encoding", "replace", "sort", "sortr", "colors", "context-separator", "max-depth", "path-separator",
			"field-match-separator", "field-context-separator", "dfa-size-limit", "regex-size-limit", "engine", "hyperlink-format",
			"file-search-regex", "ignore", "depth"), OptionalLong: shell.Longs("color", "colour")}
	})
)

func (a *analyzer) grepLike(inv *shell.Invocation) {
	spec := grepSpec()
	if inv.Name == "rg" || inv.Name == "ag" || inv.Name == "ack" {
		spec = rgSpec()
	}
	p := shell.ParseOpts(inv.Args(), spec)
	files := p.Operands
	if len(p.Values("e", "regexp", "f", "file")) == 0 && len(files) > 0 {
		files = files[1:]
	}
	for _, f := range p.Values("f", "file", "ignore-file", "exclude-from") {
		a.readPath(inv, f)
	}
	for _, g := range p.Values("include", "glob", "g", "iglob") {
		if !g.Dynamic && !strings.HasPrefix(g.Text, "!") {
			dir := inv.State.FirstCwd(a.env.Cwd)
			s, _ := a.globReachesSecret(path.Join(dir, g.Text))
			a.judge(inv, effect.Search{Target: effect.Target{Tool: inv.Name, Path: dir}, Names: g.Text, NamesSecret: s})
		}
	}
	if pre, ok := p.Value("pre"); ok {
		a.x.Reinvoke(inv, []shell.Word{pre, {Dynamic: true, Src: "{file}"}}, inv.Name+" --pre")
	}
	for _, f := range files {
		a.readPath(inv, f)
	}
}

func (a *analyzer) awk(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "fvF", Long: shell.Longs("file", "assign", "field-separator", "include", "load", "source")})
	files := p.Operands
	if len(p.Values("f", "file")) == 0 && len(files) > 0 {
		prog := files[0]
		files = files[1:]
		if !prog.Dynamic && (strings.Contains(prog.Text, "system(") || strings.Contains(prog.Text, "| getline") || strings.Contains(prog.Text, "|getline") || strings.Contains(prog.Text, `print >`) || strings.Contains(prog.Text, `printf >`) || strings.Contains(prog.Text, `" |`)) {
			a.interpreterShellOut(inv, "awk", prog.Text)
		}
	}
	for _, f := range p.Values("f", "file") {
		a.readPath(inv, f)
	}
	for _, f := range files {
		if strings.Contains(f.Text, "=") && !strings.Contains(f.Text, "/") {
			continue // var=value
		}
		a.readPath(inv, f)
	}
}

func (a *analyzer) jq(inv *shell.Invocation) {
	args := inv.Args()
	var files []shell.Word
	filterSeen := false
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch x.Text {
		case "--arg", "--argjson":
			i += 2
			continue
		case "--slurpfile", "--rawfile":
			if i+2 < len(args) {
				a.readPath(inv, args[i+2])
			}
			i += 2
			continue
		case "-f", "--from-file":
			if i+1 < len(args) {
				a.readPath(inv, args[i+1])
			}
			filterSeen = true
			i++
			continue
		case "--indent", "-L", "--library-path":
			i++
			continue
		}
		if strings.HasPrefix(x.Text, "-") && !x.Dynamic {
			continue
		}
		if !filterSeen {
			filterSeen = true
			continue
		}
		files = append(files, x)
	}
	for _, f := range files {
		a.readPath(inv, f)
	}
}

// sshKeygen judges ssh-keygen -R HOST, which rewrites the known_hosts file
// (~/.ssh/known_hosts, or -f FILE) without the host's key: the next
// connection then trusts whatever key the host presents, the check that
// catches a man in the middle. Generating a key (-f FILE) writes FILE.
func (a *analyzer) sshKeygen(inv *shell.Invocation) {
	a.genericCommand(inv) // ssh-keygen -y -f ~/.ssh/id_rsa reads the key
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "abCDEfFgIJjKmMnNOPrRsStTwYzZ"})
	f, hasF := p.Value("f")
	if _, ok := p.Value("R"); ok {
		if !hasF {
			f = shell.Word{Text: "~/.ssh/known_hosts", Src: "~/.ssh/known_hosts"}
			if a.env.Home != "" {
				f.Text = a.env.Home + "/.ssh/known_hosts"
			}
		}
		a.writePath(inv, f, "ssh-keygen -R rewrites")
		return
	}
	if hasF && !p.Has("l", "y", "F", "B") {
		a.writePath(inv, f, "ssh-keygen writes")
	}
}
