package guard

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

func registerFileOps() {
	for name, h := range map[string]handler{
		"rm": (*analyzer).rm, "rmdir": (*analyzer).rmdir, "unlink": (*analyzer).unlink, "shred": (*analyzer).shred,
		"truncate": (*analyzer).truncate, "mv": (*analyzer).mv, "cp": (*analyzer).cp, "install": (*analyzer).installCmd,
		"ln": (*analyzer).ln, "rsync": (*analyzer).rsync, "dd": (*analyzer).dd, "tee": (*analyzer).tee,
		"touch": (*analyzer).touch, "chmod": (*analyzer).chmodLike, "chown": (*analyzer).chmodLike,
		"chgrp": (*analyzer).chmodLike, "chattr": (*analyzer).chmodLike, "chflags": (*analyzer).chmodLike,
		"setfacl": (*analyzer).setfacl, "ditto": (*analyzer).ditto,
		"sed": (*analyzer).sed, "find": (*analyzer).find, "mkfs": (*analyzer).device, "mke2fs": (*analyzer).device,
		"wipefs": (*analyzer).device, "fdisk": (*analyzer).device, "sfdisk": (*analyzer).device,
		"parted": (*analyzer).device, "mkswap": (*analyzer).device, "blkdiscard": (*analyzer).device,
		"srm": (*analyzer).rm, "trash": (*analyzer).rm, "trash-put": (*analyzer).rm, "gio": (*analyzer).gio,
		"vim": (*analyzer).editor, "vi": (*analyzer).editor, "nvim": (*analyzer).editor, "ex": (*analyzer).editor,
		"view": (*analyzer).editor, "gvim": (*analyzer).editor,
	} {
		handlers[name] = h
	}
}

func (a *analyzer) rm(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{optionalLS: longs("interactive")})
	recursive := p.has("r", "R", "recursive")
	if p.dynamicOption() {
		recursive = true // an unknown argument may be -r
	}
	for _, x := range p.operands {
		a.deletePath(inv, x, recursive)
	}
}

func (a *analyzer) rmdir(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{})
	for _, x := range p.operands {
		a.deletePath(inv, x, false)
		if p.has("p", "parents") && !x.dynamic {
			// rmdir -p a/b/c removes the parents too.
			for d := path.Dir(x.s); d != "." && d != "/" && d != ""; d = path.Dir(d) {
				a.deletePath(inv, arg{s: d, src: x.src}, false)
			}
		}
	}
}

func (a *analyzer) unlink(inv *invocation) {
	for _, x := range parseOpts(inv.args(), optSpec{}).operands {
		a.deletePath(inv, x, false)
	}
}

func (a *analyzer) shred(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "ns", long: longs("iterations", "size", "random-source"), optionalLS: longs("remove")})
	for _, x := range p.operands {
		a.deletePath(inv, x, false)
	}
}

func (a *analyzer) truncate(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "sr", long: longs("size", "reference")})
	for _, x := range p.operands {
		a.writePath(inv, x, "truncate empties")
	}
}

// moveOperands splits cp/mv/install/ln operands into sources and destination.
func moveOperands(p parsed) (sources []arg, dest arg, ok bool) {
	if t, has := p.value("t", "target-directory"); has {
		return p.operands, t, true
	}
	if len(p.operands) < 2 {
		return nil, arg{}, false
	}
	return p.operands[:len(p.operands)-1], p.operands[len(p.operands)-1], true
}

var copySpec = sync.OnceValue(func() optSpec {
	return optSpec{short: "tS", long: longs("target-directory", "suffix"), optionalLS: longs("backup", "reflink", "sparse", "preserve", "no-preserve", "update", "context", "debug")}
})

func (a *analyzer) mv(inv *invocation) {
	p := parseOpts(inv.args(), copySpec())
	sources, dest, ok := moveOperands(p)
	if !ok {
		return
	}
	for _, s := range sources {
		a.deletePath(inv, s, true) // the source disappears from where it was
	}
	a.copyTargets(inv, p, sources, dest, "mv writes to")
}

func (a *analyzer) cp(inv *invocation) {
	p := parseOpts(inv.args(), copySpec())
	sources, dest, ok := moveOperands(p)
	if !ok {
		return
	}
	for _, s := range sources {
		if p.has("r", "R", "recursive", "a", "archive") {
			a.readTree(inv, s, "cp -r")
		} else {
			a.readPath(inv, s)
		}
	}
	a.copyTargets(inv, p, sources, dest, "cp writes to")
}

// ditto (macOS) copies directory trees like cp -R: ditto SRC... DST.
// With -c it writes an archive, with -x it extracts into DST.
func (a *analyzer) ditto(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{long: longs("arch", "bom", "zlibCompressionLevel", "password")})
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
func (a *analyzer) copyTargets(inv *invocation, p parsed, sources []arg, dest arg, verb string) {
	_, intoDir := p.value("t", "target-directory")
	intoDir = intoDir || len(sources) > 1 || strings.HasSuffix(dest.s, "/")
	if !intoDir || dest.dynamic {
		a.writePath(inv, dest, verb)
	}
	if dest.dynamic {
		return
	}
	for _, s := range sources {
		if !s.static() || p.has("T", "no-target-directory") {
			if !intoDir {
				continue
			}
			a.writePath(inv, dest, verb)
			continue
		}
		in := arg{s: path.Join(dest.s, path.Base(s.s)), src: dest.src}
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

func (a *analyzer) installCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "tSmogZ", long: longs("target-directory", "suffix", "mode", "owner", "group", "strip-program"), optionalLS: longs("backup", "context")})
	if p.has("d", "directory") {
		for _, x := range p.operands {
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

func (a *analyzer) ln(inv *invocation) {
	p := parseOpts(inv.args(), copySpec())
	// A link to a secret file is a way to read it under another name.
	sources := p.operands
	if _, has := p.value("t", "target-directory"); !has && len(sources) > 1 {
		sources = sources[:len(sources)-1]
	}
	for _, src := range sources {
		a.readPath(inv, src)
	}
	if t, has := p.value("t", "target-directory"); has {
		a.writePath(inv, t, "ln creates links in")
		return
	}
	switch len(p.operands) {
	case 0:
	case 1:
		link := arg{s: path.Base(p.operands[0].s), dynamic: p.operands[0].dynamic, src: p.operands[0].src}
		a.writePath(inv, link, "ln creates")
		a.recordLinkOrCopy(inv, p, p.operands[0], link)
	default:
		link := p.operands[len(p.operands)-1]
		a.writePath(inv, link, "ln creates")
		if len(p.operands) == 2 {
			a.recordLinkOrCopy(inv, p, p.operands[0], link)
		}
	}
}

// recordLinkOrCopy notes a symlink (whose relative target is relative to
// the link's directory) or a hard link (which runs as a copy).
func (a *analyzer) recordLinkOrCopy(inv *invocation, p parsed, target, link arg) {
	if !p.has("s", "symbolic") {
		a.recordCopy(inv, target, link)
		return
	}
	if target.static() && !path.IsAbs(target.s) && link.static() {
		target = arg{s: path.Join(path.Dir(link.s), target.s), src: target.src}
	}
	a.recordLink(inv, target, link)
}

// isRemoteSpec reports whether an rsync/scp operand names another machine.
func isRemoteSpec(s string) bool {
	if strings.HasPrefix(s, "rsync://") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	slash := strings.IndexByte(s, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}

func (a *analyzer) rsync(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "efBTM", long: longs("rsh", "rsync-path", "filter", "exclude", "include",
		"exclude-from", "include-from", "files-from", "block-size", "chmod", "chown", "log-file", "password-file",
		"temp-dir", "partial-dir", "backup-dir", "compare-dest", "link-dest", "copy-dest", "max-size", "min-size",
		"timeout", "port", "bwlimit", "suffix", "out-format", "remote-option", "info", "debug", "iconv", "usermap",
		"groupmap", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "modify-window",
		"stop-after", "stop-at", "sockopts", "address", "contimeout", "write-batch", "only-write-batch",
		"read-batch", "protocol", "outbuf", "max-delete", "max-alloc", "early-input", "log-file-format")})
	if sh, ok := p.value("e", "rsh"); ok {
		a.runScriptArg(inv, sh, "rsync -e")
	}
	if len(p.operands) < 2 {
		return
	}
	sources, dest := p.operands[:len(p.operands)-1], p.operands[len(p.operands)-1]
	deletes := false
	for _, o := range p.opts {
		if strings.HasPrefix(o.name, "del") {
			deletes = true
		}
	}
	for _, s := range sources {
		if !isRemoteSpec(s.s) {
			a.readPath(inv, s)
			if p.has("remove-source-files") {
				a.deletePath(inv, s, false)
			}
		}
	}
	if isRemoteSpec(dest.s) {
		remote := *inv
		remote.st = inv.st.clone()
		remote.st.remote = true
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

func (a *analyzer) dd(inv *invocation) {
	for _, x := range inv.args() {
		if x.dynamic {
			continue
		}
		if v, ok := strings.CutPrefix(x.s, "of="); ok {
			a.writePath(inv, arg{s: v, glob: x.glob, src: x.src}, "dd writes")
		}
		if v, ok := strings.CutPrefix(x.s, "if="); ok {
			a.readPath(inv, arg{s: v, glob: x.glob, src: x.src})
		}
	}
}

func (a *analyzer) tee(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{optionalLS: longs("output-error")})
	for _, x := range p.operands {
		a.writePath(inv, x, "tee writes")
	}
}

func (a *analyzer) touch(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "dtr", long: longs("date", "reference", "time")})
	for _, x := range p.operands {
		a.writePath(inv, x, "touch writes")
	}
}

// chmodLike: chmod MODE FILE..., chown OWNER FILE..., chgrp GROUP FILE...
func (a *analyzer) chmodLike(inv *invocation) {
	var files []arg
	modeSeen, recursive := false, false
	for _, x := range inv.args() {
		s := x.s
		switch {
		case x.dynamic:
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

func (a *analyzer) setfacl(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "mMxX", long: longs("modify", "modify-file", "remove", "remove-file", "set", "set-file")})
	for _, x := range p.operands {
		a.changePath(inv, x, p.has("R", "recursive"))
	}
}

// changePath: chmod/chown of a path, recursively reaching what is below.
func (a *analyzer) changePath(inv *invocation, x arg, recursive bool) {
	a.writeTree(inv, x, inv.name+" changes", recursive)
}

func (a *analyzer) sed(inv *invocation) {
	a.sedArgs(inv, inv.args())
	// BSD (macOS) sed's -i takes its backup suffix as the next word: sed -i
	// '' 'w /etc/x' f runs the script 'w /etc/x' there, while GNU sed reads
	// '' as the script. Judge the BSD reading too.
	args := inv.args()
	for i := 0; i+1 < len(args); i++ {
		x := args[i]
		if x.dynamic || x.s == "--" || !strings.HasPrefix(x.s, "-") {
			return
		}
		if strings.HasPrefix(x.s, "--") {
			continue
		}
		cluster := x.s[1:]
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

func (a *analyzer) sedArgs(inv *invocation, args []arg) {
	p := parseOpts(args, optSpec{short: "efl", long: longs("expression", "file", "line-length"), optionalLS: longs("in-place", "follow-symlinks")})
	files := p.operands
	scripts := p.values("e", "expression")
	if len(scripts) == 0 && len(p.values("f", "file")) == 0 && len(files) > 0 {
		scripts, files = files[:1], files[1:] // the first operand is the script
	}
	for _, sc := range scripts {
		a.sedScript(inv, sc)
	}
	for _, f := range p.values("f", "file") {
		a.readPath(inv, f)
	}
	inPlace := p.has("i", "in-place")
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
func (a *analyzer) sedScript(inv *invocation, sc arg) {
	fx := parseSed(sc.template())
	for _, c := range fx.execs {
		if strings.Contains(c, unknownMark) {
			fx.execLine = true
			continue
		}
		a.script(c, inv.st.clone(), nil)
	}
	if fx.execLine && len(fx.execs) == 0 {
		if inv.in != nil && inv.in.net {
			a.judge(inv, effect.UnreadCode{By: "sed's e", Code: inv.in.desc, How: effect.CommandLines})
		} else {
			a.judge(inv, effect.HiddenCode{By: "sed's e", Why: effect.SedExecute})
		}
	}
	for _, w := range fx.writes {
		a.writePath(inv, arg{s: w, dynamic: strings.Contains(w, unknownMark), src: sc.src}, "sed w writes")
	}
	for _, r := range fx.reads {
		a.readPath(inv, arg{s: r, dynamic: strings.Contains(r, unknownMark), src: sc.src})
	}
}

// editor: vim -c ':!cmd', +cmd and --cmd run shell commands with "!".
func (a *analyzer) editor(inv *invocation) {
	args := inv.args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		cmd := ""
		switch {
		case (x.s == "-c" || x.s == "--cmd") && i+1 < len(args):
			i++
			cmd = args[i].template()
		case strings.HasPrefix(x.s, "+") && len(x.s) > 1:
			cmd = x.template()[1:]
		}
		if j := strings.Index(cmd, "!"); j >= 0 {
			a.runScriptArg(inv, arg{s: cmd[j+1:], dynamic: strings.Contains(cmd, unknownMark), src: x.src}, inv.name+" :!")
		} else if strings.Contains(cmd, "system(") {
			a.judge(inv, effect.HiddenCode{By: inv.name, Why: effect.EditorSystem})
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
func findStarts(args []arg) (starts, expr []arg, follow bool) {
	i := 0
	for i < len(args) && !args[i].dynamic {
		s := args[i].s
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
			starts = append(starts, arg{s: s[2:], src: args[i].src})
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
		s := args[i].s
		if !args[i].dynamic && (strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == ",") {
			break
		}
		starts = append(starts, args[i])
		i++
	}
	if len(starts) == 0 {
		starts = []arg{{s: "."}}
	}
	expr = args[i:]
	for j := 0; j < len(expr); j++ {
		if findTakesValue[expr[j].s] {
			j++
			continue
		}
		follow = follow || expr[j].s == "-follow"
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
func findNamePatterns(expr []arg) (namePat, pathPat string) {
	for j := 0; j+1 < len(expr); j++ {
		switch expr[j].s {
		case "-name", "-iname":
			if namePat == "" && !expr[j+1].dynamic {
				namePat = expr[j+1].s
			}
			j++
		case "-path", "-wholename", "-ipath", "-iwholename":
			if pathPat == "" && !expr[j+1].dynamic {
				pathPat = expr[j+1].s
			}
			j++
		}
	}
	return namePat, pathPat
}

// findOutput describes what find prints: the paths it visits, as a
// pattern xargs can hand to the next command.
func (a *analyzer) findOutput(args []arg) *input {
	starts, expr, _ := findStarts(args)
	in := &input{dynamic: true, desc: "the output of find"}
	if len(starts) != 1 {
		return in
	}
	for _, x := range expr {
		if x.s == "-exec" || x.s == "-execdir" || x.s == "-printf" || x.s == "-fprint" || x.s == "-ok" {
			return in
		}
	}
	namePat, pathPat := findNamePatterns(expr)
	m := a.findMatches(starts[0], namePat, pathPat)
	in.paths = []arg{m}
	for _, x := range expr {
		in.nul = in.nul || x.s == "-print0"
	}
	return in
}

func (a *analyzer) find(inv *invocation) {
	starts, expr, follow := findStarts(inv.args())
	namePat, pathPat := findNamePatterns(expr)
	del := false
	type execCmd struct {
		argv []arg
		dir  bool
	}
	var execs []execCmd
	dynExpr := false
	for j := 0; j < len(expr); j++ {
		x := expr[j]
		switch x.s {
		case "-delete":
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if j+1 < len(expr) {
				a.writePath(inv, expr[j+1], "find "+x.s+" writes")
			}
			j++
			if x.s == "-fprintf" {
				j++ // -fprintf FILE FORMAT
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			k := j + 1
			for k < len(expr) && expr[k].s != ";" && !(expr[k].s == "+" && k > j+1 && expr[k-1].s == "{}") {
				k++
			}
			e := execCmd{argv: expr[j+1 : min(k, len(expr))], dir: strings.HasSuffix(x.s, "dir")}
			for i, w := range e.argv {
				if i > 0 && strings.Contains(w.s, "{}") && a.isShellScriptPosition(e.argv, i) {
					// Like xargs -I: each path becomes text of the script,
					// and a file named $(...) runs as code.
					a.judge(inv, effect.HiddenCode{By: "find", What: "each path", Why: effect.SplicedPaths})
					break
				}
			}
			execs = append(execs, e)
			j = k
		default:
			if findTakesValue[x.s] {
				j++
			} else if x.dynamic && !dynExpr {
				// xargs find DIR, find . $EXPR: an unknown word may be
				// -delete or -exec.
				dynExpr = true
				a.judge(inv, effect.HiddenCode{By: "find", What: quoteShow(x), Why: effect.FindExpression})
			}
		}
	}
	for _, start := range starts {
		matched := a.findMatches(start, namePat, pathPat)
		if follow && (del || len(execs) > 0) && !matched.dynamic {
			// -L and -follow walk through symbolic links: what find
			// reaches under start may lie anywhere.
			matched = arg{dynamic: true, s: matched.s, src: start.src + " (following symbolic links)"}
		}
		if del {
			a.deletePath(inv, matched, true)
			if namePat != "" && !matched.dynamic {
				for _, g := range a.m.gitDirs {
					for _, n := range gitDirNames {
						if nameMatch(namePat, n) && a.findCanReach(start, g, inv.st) {
							p := path.Join(g, n)
							a.judge(inv, effect.Delete{Target: effect.Target{Tool: inv.name, Path: p,
								Place: effect.Place{Kind: effect.Outside, What: p + " inside the repository's git directory"}},
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
			argv := make([]arg, 0, len(e.argv))
			for k, x := range e.argv {
				if strings.Contains(x.s, "{}") {
					if k > 0 && a.isShellScriptPosition(e.argv, k) && !matched.dynamic {
						x.s = strings.ReplaceAll(x.s, "{}", matched.s)
					} else if x.s == "{}" {
						x = matched
					} else {
						x.s = strings.ReplaceAll(x.s, "{}", matched.s)
						x.glob, x.dynamic, x.walk = matched.glob, matched.dynamic, matched.walk
					}
				}
				argv = append(argv, x)
			}
			sub := inv
			if e.dir {
				sub = a.withCwd(inv, start)
			}
			a.reinvoke(sub, argv, "find -exec")
		}
	}
}

// findMatches is "whatever find visits under start" as a glob argument.
func (a *analyzer) findMatches(start arg, namePat, pathPat string) arg {
	if start.dynamic {
		return arg{dynamic: true, src: start.src}
	}
	base := strings.TrimSuffix(start.s, "/")
	if base == "" {
		base = "/"
	}
	switch {
	case pathPat != "":
		return arg{s: pathPat, glob: true, walk: true, src: start.src}
	case namePat != "":
		return arg{s: strings.TrimSuffix(base, "/") + "/**/" + namePat, glob: true, walk: true, src: start.src}
	}
	return arg{s: strings.TrimSuffix(base, "/") + "/**", glob: true, walk: true, src: start.src}
}

// findCanReach reports whether a find starting at start walks into dir.
func (a *analyzer) findCanReach(start arg, dir string, st *state) bool {
	for _, p := range a.resolveArg(start, st).paths {
		if under(dir, p) {
			return true
		}
	}
	return false
}

// device: mkfs, wipefs, fdisk... write whole devices.
func (a *analyzer) device(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "tLbcCEgGIjJmMNoOrTUL", long: longs("type", "label")})
	for _, x := range p.operands {
		if !x.dynamic && isNumber(x.s) {
			continue // block counts
		}
		a.writePath(inv, x, inv.name+" overwrites")
	}
}

// gio trash / gio remove delete files.
func (a *analyzer) gio(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	switch args[0].s {
	case "trash", "remove", "rm":
		for _, x := range parseOpts(args[1:], optSpec{}).operands {
			a.deletePath(inv, x, true)
		}
	case "copy", "move", "save":
		p := parseOpts(args[1:], optSpec{})
		if len(p.operands) > 0 {
			a.writePath(inv, p.operands[len(p.operands)-1], "gio writes")
		}
	}
}

// --- readers whose first operand is a pattern or program, not a file ---

func registerReaders() {
	for _, n := range []string{"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "git-grep"} {
		handlers[n] = (*analyzer).grepLike
	}
	for _, n := range []string{"awk", "gawk", "mawk", "nawk"} {
		handlers[n] = (*analyzer).awk
	}
	handlers["jq"] = (*analyzer).jq
	handlers["yq"] = (*analyzer).jq
}

var (
	grepValueLongs = sync.OnceValue(func() map[string]bool {
		return longs("regexp", "file", "max-count", "after-context", "before-context", "context", "directories", "devices",
			"include", "exclude", "exclude-dir", "exclude-from", "label", "group-separator")
	})
	grepSpec = sync.OnceValue(func() optSpec {
		return optSpec{short: "efmABCdD", long: grepValueLongs(), optionalLS: longs("color", "colour", "binary-files")}
	})
	// ripgrep and the silver searcher take more values: -g GLOB, -t TYPE, -r REPLACEMENT.
	rgSpec = sync.OnceValue(func() optSpec {
		return optSpec{short: "efmABCgtTjMErG", long: longs("regexp", "file", "max-count", "after-context", "before-context",
			"context", "glob", "iglob", "type", "type-not", "type-add", "threads", "max-columns", "max-filesize", "ignore-file",
			"pre", "pre-glob", "encoding", "replace", "sort", "sortr", "colors", "context-separator", "max-depth", "path-separator",
			"field-match-separator", "field-context-separator", "dfa-size-limit", "regex-size-limit", "engine", "hyperlink-format",
			"file-search-regex", "ignore", "depth"), optionalLS: longs("color", "colour")}
	})
)

func (a *analyzer) grepLike(inv *invocation) {
	spec := grepSpec()
	if inv.name == "rg" || inv.name == "ag" || inv.name == "ack" {
		spec = rgSpec()
	}
	p := parseOpts(inv.args(), spec)
	files := p.operands
	if len(p.values("e", "regexp", "f", "file")) == 0 && len(files) > 0 {
		files = files[1:]
	}
	for _, f := range p.values("f", "file", "ignore-file", "exclude-from") {
		a.readPath(inv, f)
	}
	for _, g := range p.values("include", "glob", "g", "iglob") {
		if !g.dynamic && !strings.HasPrefix(g.s, "!") {
			dir := inv.st.firstCwd(a.env.Cwd)
			s, _ := a.globReachesSecret(path.Join(dir, g.s))
			a.judge(inv, effect.Search{Target: effect.Target{Tool: inv.name, Path: dir}, Names: g.s, NamesSecret: s})
		}
	}
	if pre, ok := p.value("pre"); ok {
		a.reinvoke(inv, []arg{pre, {dynamic: true, src: "{file}"}}, inv.name+" --pre")
	}
	for _, f := range files {
		a.readPath(inv, f)
	}
}

func (a *analyzer) awk(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "fvF", long: longs("file", "assign", "field-separator", "include", "load", "source")})
	files := p.operands
	if len(p.values("f", "file")) == 0 && len(files) > 0 {
		prog := files[0]
		files = files[1:]
		if !prog.dynamic && (strings.Contains(prog.s, "system(") || strings.Contains(prog.s, "| getline") || strings.Contains(prog.s, "|getline") || strings.Contains(prog.s, `print >`) || strings.Contains(prog.s, `printf >`) || strings.Contains(prog.s, `" |`)) {
			a.interpreterShellOut(inv, "awk", prog.s)
		}
	}
	for _, f := range p.values("f", "file") {
		a.readPath(inv, f)
	}
	for _, f := range files {
		if strings.Contains(f.s, "=") && !strings.Contains(f.s, "/") {
			continue // var=value
		}
		a.readPath(inv, f)
	}
}

func (a *analyzer) jq(inv *invocation) {
	args := inv.args()
	var files []arg
	filterSeen := false
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch x.s {
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
		if strings.HasPrefix(x.s, "-") && !x.dynamic {
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
