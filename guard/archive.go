package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Archivers and commands with an output-file option. An archiver is a file
// copier in disguise: extracting writes wherever -C points, creating reads
// every member, and several of them run commands of their own.

func registerArchivers() {
	handlers["tar"] = (*analyzer).tar
	handlers["bsdtar"] = (*analyzer).tar
	handlers["gtar"] = (*analyzer).tar
	handlers["zip"] = (*analyzer).zip
	handlers["unzip"] = (*analyzer).unzip
	handlers["7z"] = (*analyzer).sevenZip
	handlers["7za"] = (*analyzer).sevenZip
	handlers["7zz"] = (*analyzer).sevenZip
	handlers["sort"] = (*analyzer).sortCmd
	handlers["uniq"] = (*analyzer).uniq
	for _, n := range []string{"gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "rustc", "tcc"} {
		handlers[n] = (*analyzer).compiler
	}
}

// tarValueShort are tar's short options that take a value.
const tarValueShort = "fCTXbHKLNVgIF"

var tarValueLong = sync.OnceValue(func() map[string]bool {
	return longs("file", "directory", "files-from", "exclude-from", "blocking-factor", "format", "starting-file",
		"tape-length", "newer", "after-date", "label", "listed-incremental", "use-compress-program", "info-script",
		"new-volume-script", "to-command", "checkpoint-action", "rsh-command", "rmt-command", "index-file", "owner", "group",
		"mode", "exclude", "transform", "xform", "strip-components", "suffix", "backup", "record-size", "volno-file",
		"exclude-tag", "exclude-tag-under", "exclude-tag-all", "mtime", "sort", "occurrence", "hole-detection", "quoting-style",
		"exclude-ignore", "exclude-ignore-recursive", "warning", "checkpoint", "atime-preserve", "numeric-owner")
})

// tarOptional are long options whose value must be attached with "=".
var tarOptional = sync.OnceValue(func() map[string]bool {
	return longs("backup", "checkpoint", "atime-preserve", "occurrence", "numeric-owner")
})

func (a *analyzer) tar(inv *invocation) {
	args := inv.args()
	// Old style: the first word is a bundle of letters without a dash
	// (tar xzf x.tar), whose value-taking letters consume the next words.
	if len(args) > 0 && args[0].static() && args[0].s != "" && !strings.HasPrefix(args[0].s, "-") &&
		strings.Trim(args[0].s, "AcdrtuxzjJZaovfCTXbHKLNVgIFpPSkmhlWOBiMGwU") == "" {
		bundle := args[0]
		var expanded []arg
		vals := args[1:]
		for _, c := range bundle.s {
			expanded = append(expanded, arg{s: "-" + string(c), src: bundle.src})
			if strings.ContainsRune(tarValueShort, c) && len(vals) > 0 {
				expanded = append(expanded, vals[0])
				vals = vals[1:]
			}
		}
		args = append(expanded, vals...)
	}
	p := parseOpts(args, optSpec{short: tarValueShort, long: tarValueLong(), optionalLS: tarOptional()})
	mode := ""
	for _, o := range p.opts {
		switch o.name {
		case "c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate":
			mode = "create"
		case "x", "extract", "get":
			mode = "extract"
		case "t", "list", "d", "diff", "compare":
			if mode == "" {
				mode = "list"
			}
		case "delete":
			mode = "create" // rewrites the archive
		}
	}
	// Commands tar runs itself.
	for _, v := range p.values("to-command", "I", "use-compress-program", "F", "info-script", "new-volume-script", "rsh-command", "rmt-command") {
		a.runScriptArg(inv, v, "tar runs")
	}
	for _, v := range p.values("checkpoint-action") {
		if cmd, ok := strings.CutPrefix(v.s, "exec="); ok || v.dynamic {
			a.runScriptArg(inv, arg{s: cmd, dynamic: v.dynamic, src: v.src}, "tar --checkpoint-action runs")
		}
	}
	for _, v := range p.values("index-file", "listed-incremental", "g", "volno-file") {
		a.writePath(inv, v, "tar writes")
	}
	for _, v := range p.values("T", "files-from", "X", "exclude-from") {
		a.readPath(inv, v)
	}
	dir := arg{s: "."}
	if d, ok := p.value("C", "directory"); ok {
		dir = d
	}
	archives := p.values("f", "file")
	switch mode {
	case "extract":
		for _, f := range archives {
			if !isRemoteSpec(f.s) {
				a.readPath(inv, f)
			}
		}
		if p.has("P", "absolute-names") {
			a.judge(inv, effect.Write{Target: effect.Target{Tool: "tar"}, Verb: "tar -P extracts members to", Anywhere: true})
		}
		a.writeInto(inv, dir, "tar extracts into")
	case "create":
		for _, f := range archives {
			if f.static() && f.s == "-" || isRemoteSpec(f.s) {
				continue
			}
			a.writePath(inv, f, "tar writes")
		}
		sub := a.withCwd(inv, dir)
		for _, m := range p.operands {
			a.readTree(sub, m, "tar")
			if p.has("remove-files") {
				a.deletePath(sub, m, true)
			}
		}
	default:
		for _, f := range archives {
			a.readPath(inv, f)
		}
	}
}

// writeInto checks an extraction into dir: everything it writes lands
// there, so dir must be writable, and a protected directory (.git/hooks)
// must not be dir or sit right below it.
func (a *analyzer) writeInto(inv *invocation, dir arg, verb string) {
	if dir.dynamic {
		a.writePath(inv, dir, verb)
		return
	}
	d := strings.TrimSuffix(dir.s, "/")
	if d == "" {
		d = "/"
	}
	a.writePath(inv, arg{s: path.Join(d, "*"), glob: true, src: dir.src}, verb)
}

// readTree checks an operand a command reads recursively (tar, zip -r,
// scp -r): a secret file, or a directory of secrets such as ~/.ssh.
func (a *analyzer) readTree(inv *invocation, x arg, what string) {
	a.readPath(inv, x)
	if !x.static() {
		return
	}
	t := a.resolveArg(x, inv.st)
	if len(t.paths) == 0 {
		return
	}
	// One operand is one read of a tree: the first of its resolutions
	// that is a directory of secrets stands for it.
	r := effect.Read{Target: effect.Target{Tool: inv.name, Path: t.paths[0], Shown: x.s, Glob: t.glob}, Verb: what + " reads", Tree: true}
	for _, p := range t.paths {
		if a.isSecretDir(p) {
			r.Path, r.Secret = p, p
			break
		}
	}
	a.judge(inv, r)
}

// isSecretDir reports whether everything below p is secret (~/.ssh, ~/.aws).
func (a *analyzer) isSecretDir(p string) bool {
	return !a.isSecret(p) && a.isSecret(p+"/x") && a.isSecret(p+"/config")
}

func (a *analyzer) zip(inv *invocation) {
	args := inv.args()
	var operands []arg
	move := false
	for i := 0; i < len(args); i++ {
		x := args[i]
		s := x.s
		switch {
		case x.dynamic:
			operands = append(operands, x)
		case s == "-TT" || s == "--unzip-command":
			if i+1 < len(args) {
				i++
				a.runScriptArg(inv, args[i], "zip -TT runs")
			}
		case strings.HasPrefix(s, "--unzip-command="):
			a.runScriptArg(inv, arg{s: strings.TrimPrefix(s, "--unzip-command="), src: x.src}, "zip -TT runs")
		case s == "-m" || s == "--move":
			move = true
		case s == "-b" || s == "-n" || s == "-t" || s == "-tt" || s == "-O" || s == "-P" || s == "-Z" || s == "-s" || s == "-sp" ||
			s == "--temp-path" || s == "--output-file" || s == "--password" || s == "--suffixes" || s == "--split-size":
			if i+1 < len(args) {
				i++
				if s == "-O" || s == "--output-file" {
					a.writePath(inv, args[i], "zip writes")
				}
			}
		case s == "-x" || s == "-i" || s == "--exclude" || s == "--include":
			// Patterns up to the next option.
			for i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "-") {
				i++
			}
		case s == "-@" || s == "--names-stdin":
		case strings.HasPrefix(s, "-") && len(s) > 1:
			if !strings.HasPrefix(s, "--") && strings.Contains(s, "m") {
				move = true
			}
		default:
			operands = append(operands, x)
		}
	}
	if len(operands) == 0 {
		return
	}
	a.writePath(inv, operands[0], "zip writes")
	for _, m := range operands[1:] {
		a.readTree(inv, m, "zip")
		if move {
			a.deletePath(inv, m, true)
		}
	}
}

func (a *analyzer) unzip(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "dxP"})
	if len(p.operands) > 0 {
		a.readPath(inv, p.operands[0])
	}
	if p.has("p", "l", "t", "v", "Z", "z") {
		return // to standard output, or only listing
	}
	dir := arg{s: "."}
	if d, ok := p.value("d"); ok {
		dir = d
	}
	a.writeInto(inv, dir, "unzip extracts into")
}

// sevenZip handles 7z x/e -oDIR and 7z a ARCHIVE FILES.
func (a *analyzer) sevenZip(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	cmd := args[0].s
	var operands []arg
	dir := arg{s: "."}
	for _, x := range args[1:] {
		switch {
		case x.static() && strings.HasPrefix(x.s, "-o"):
			dir = arg{s: x.s[2:], src: x.src}
		case !x.dynamic && strings.HasPrefix(x.s, "-"):
		default:
			operands = append(operands, x)
		}
	}
	switch cmd {
	case "x", "e":
		if len(operands) > 0 {
			a.readPath(inv, operands[0])
		}
		a.writeInto(inv, dir, "7z extracts into")
	case "a", "u":
		if len(operands) > 0 {
			a.writePath(inv, operands[0], "7z writes")
			for _, m := range operands[1:] {
				a.readTree(inv, m, "7z")
			}
		}
	}
}

func (a *analyzer) sortCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "oktST", long: longs("output", "key", "field-separator", "buffer-size",
		"temporary-directory", "parallel", "files0-from", "random-source", "batch-size", "compress-program"), optionalLS: longs("sort", "check")})
	for _, o := range p.values("o", "output") {
		a.writePath(inv, o, "sort -o writes")
	}
	for _, v := range p.values("compress-program") {
		a.runScriptArg(inv, v, "sort --compress-program runs")
	}
	for _, x := range p.operands {
		a.readOperand(inv, x)
	}
}

// uniq IN OUT writes OUT.
func (a *analyzer) uniq(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "fsw", long: longs("skip-fields", "skip-chars", "check-chars", "group", "all-repeated")})
	if len(p.operands) > 0 {
		a.readOperand(inv, p.operands[0])
	}
	if len(p.operands) > 1 {
		a.writePath(inv, p.operands[1], "uniq writes")
	}
}

// compiler handles cc -o OUT and friends: the output can land anywhere.
func (a *analyzer) compiler(inv *invocation) {
	args := inv.args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x.dynamic:
		case x.s == "-o" && i+1 < len(args):
			i++
			a.writePath(inv, args[i], inv.name+" -o writes")
		case strings.HasPrefix(x.s, "-o") && len(x.s) > 2 && inv.name != "rustc":
			a.writePath(inv, arg{s: x.s[2:], src: x.src}, inv.name+" -o writes")
		case strings.HasPrefix(x.s, "-"):
		default:
			a.readOperand(inv, x)
		}
	}
}

// goOutput handles go build -o and go test -o, and the programs -exec and
// -toolexec make go run.
func (a *analyzer) goOutput(inv *invocation) {
	sub, rest := splitSub(inv.args(), goValueOpts())
	switch sub {
	case "build", "test", "run", "install", "vet", "generate":
	default:
		return
	}
	for _, o := range goFlagValues(rest, "o") {
		a.writePath(inv, o, "go "+sub+" -o writes")
	}
	for _, x := range goFlagValues(rest, "exec", "toolexec") {
		a.runScriptArg(inv, x, "go "+sub+" -exec runs")
	}
}

// goFlagValues returns the values of go's flags, which take one dash or
// two, and their value attached with = or as the next word.
func goFlagValues(args []arg, names ...string) []arg {
	var out []arg
	for i, x := range args {
		if x.dynamic || !strings.HasPrefix(x.s, "-") {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(x.s, "-"), "-"), "=")
		for _, n := range names {
			switch {
			case name != n:
			case eq:
				out = append(out, arg{s: val, src: x.src})
			case i+1 < len(args):
				out = append(out, args[i+1])
			}
		}
	}
	return out
}
