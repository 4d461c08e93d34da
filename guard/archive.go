package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Archivers and commands with an output-file option. An archiver is a file
// copier in disguise: extracting writes wherever -C points, creating reads
// every member, and several of them run commands of their own.

// tarValueShort are tar's short options that take a value.
const tarValueShort = "fCTXbHKLNVgIF"

var tarValueLong = sync.OnceValue(func() map[string]bool {
	return shell.Longs("file", "directory", "files-from", "exclude-from", "blocking-factor", "format", "starting-file",
		"tape-length", "newer", "after-date", "label", "listed-incremental", "use-compress-program", "info-script",
		"new-volume-script", "to-command", "checkpoint-action", "rsh-command", "rmt-command", "index-file", "owner", "group",
		"mode", "exclude", "transform", "xform", "strip-components", "suffix", "backup", "record-size", "volno-file",
		"exclude-tag", "exclude-tag-under", "exclude-tag-all", "mtime", "sort", "occurrence", "hole-detection", "quoting-style",
		"exclude-ignore", "exclude-ignore-recursive", "warning", "checkpoint", "atime-preserve", "numeric-owner")
})

// tarOptional are long options whose value must be attached with "=".
var tarOptional = sync.OnceValue(func() map[string]bool {
	return shell.Longs("backup", "checkpoint", "atime-preserve", "occurrence", "numeric-owner")
})

func (a *analyzer) tar(inv *shell.Invocation) {
	args := inv.Args()
	// Old style: the first word is a bundle of letters without a dash
	// (tar xzf x.tar), whose value-taking letters consume the next words.
	if len(args) > 0 && args[0].Static() && args[0].Text != "" && !strings.HasPrefix(args[0].Text, "-") &&
		strings.Trim(args[0].Text, "AcdrtuxzjJZaovfCTXbHKLNVgIFpPSkmhlWOBiMGwU") == "" {
		bundle := args[0]
		var expanded []shell.Word
		vals := args[1:]
		for _, c := range bundle.Text {
			expanded = append(expanded, shell.Word{Text: "-" + string(c), Src: bundle.Src})
			if strings.ContainsRune(tarValueShort, c) && len(vals) > 0 {
				expanded = append(expanded, vals[0])
				vals = vals[1:]
			}
		}
		args = append(expanded, vals...)
	}
	p := shell.ParseOpts(args, shell.Spec{Short: tarValueShort, Long: tarValueLong(), OptionalLong: tarOptional()})
	mode := ""
	for _, o := range p.Opts {
		switch o.Name {
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
	for _, v := range p.Values("to-command", "I", "use-compress-program", "F", "info-script", "new-volume-script", "rsh-command", "rmt-command") {
		a.x.RunScript(inv, v, "tar runs")
	}
	for _, v := range p.Values("checkpoint-action") {
		if cmd, ok := strings.CutPrefix(v.Text, "exec="); ok || v.Dynamic {
			a.x.RunScript(inv, shell.Word{Text: cmd, Dynamic: v.Dynamic, Src: v.Src}, "tar --checkpoint-action runs")
		}
	}
	for _, v := range p.Values("index-file", "listed-incremental", "g", "volno-file") {
		a.writePath(inv, v, "tar writes")
	}
	for _, v := range p.Values("T", "files-from", "X", "exclude-from") {
		a.readPath(inv, v)
	}
	dir := shell.Word{Text: "."}
	if d, ok := p.Value("C", "directory"); ok {
		dir = d
	}
	archives := p.Values("f", "file")
	switch mode {
	case "extract":
		for _, f := range archives {
			if !isRemoteSpec(f.Text) {
				a.readPath(inv, f)
			}
		}
		if p.Has("P", "absolute-names") {
			a.judge(inv, effect.Write{Target: effect.Target{Tool: "tar"}, Verb: "tar -P extracts members to", Anywhere: true})
		}
		a.writeInto(inv, dir, "tar extracts into")
	case "create":
		for _, f := range archives {
			if f.Static() && f.Text == "-" || isRemoteSpec(f.Text) {
				continue
			}
			a.writePath(inv, f, "tar writes")
		}
		sub := a.x.WithCwd(inv, dir)
		for _, m := range p.Operands {
			a.readTree(sub, m, "tar")
			if p.Has("remove-files") {
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
func (a *analyzer) writeInto(inv *shell.Invocation, dir shell.Word, verb string) {
	if dir.Dynamic {
		a.writePath(inv, dir, verb)
		return
	}
	d := strings.TrimSuffix(dir.Text, "/")
	if d == "" {
		d = "/"
	}
	a.writePath(inv, shell.Word{Text: path.Join(d, "*"), Glob: true, Src: dir.Src}, verb)
}

func (a *analyzer) zip(inv *shell.Invocation) {
	args := inv.Args()
	var operands []shell.Word
	move := false
	for i := 0; i < len(args); i++ {
		x := args[i]
		s := x.Text
		switch {
		case x.Dynamic:
			operands = append(operands, x)
		case s == "-TT" || s == "--unzip-command":
			if i+1 < len(args) {
				i++
				a.x.RunScript(inv, args[i], "zip -TT runs")
			}
		case strings.HasPrefix(s, "--unzip-command="):
			a.x.RunScript(inv, shell.Word{Text: strings.TrimPrefix(s, "--unzip-command="), Src: x.Src}, "zip -TT runs")
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
			for i+1 < len(args) && !strings.HasPrefix(args[i+1].Text, "-") {
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

func (a *analyzer) unzip(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "dxP"})
	if len(p.Operands) > 0 {
		a.readPath(inv, p.Operands[0])
	}
	if p.Has("p", "l", "t", "v", "Z", "z") {
		return // to standard output, or only listing
	}
	dir := shell.Word{Text: "."}
	if d, ok := p.Value("d"); ok {
		dir = d
	}
	a.writeInto(inv, dir, "unzip extracts into")
}

// sevenZip handles 7z x/e -oDIR and 7z a ARCHIVE FILES.
func (a *analyzer) sevenZip(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	cmd := args[0].Text
	var operands []shell.Word
	dir := shell.Word{Text: "."}
	for _, x := range args[1:] {
		switch {
		case x.Static() && strings.HasPrefix(x.Text, "-o"):
			dir = shell.Word{Text: x.Text[2:], Src: x.Src}
		case !x.Dynamic && strings.HasPrefix(x.Text, "-"):
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

func (a *analyzer) sortCmd(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "oktST", Long: shell.Longs("output", "key", "field-separator", "buffer-size",
		"temporary-directory", "parallel", "files0-from", "random-source", "batch-size", "compress-program"), OptionalLong: shell.Longs("sort", "check")})
	for _, o := range p.Values("o", "output") {
		a.writePath(inv, o, "sort -o writes")
	}
	for _, v := range p.Values("compress-program") {
		a.x.RunScript(inv, v, "sort --compress-program runs")
	}
	for _, x := range p.Operands {
		a.readOperand(inv, x)
	}
}

// uniq IN OUT writes OUT.
func (a *analyzer) uniq(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "fsw", Long: shell.Longs("skip-fields", "skip-chars", "check-chars", "group", "all-repeated")})
	if len(p.Operands) > 0 {
		a.readOperand(inv, p.Operands[0])
	}
	if len(p.Operands) > 1 {
		a.writePath(inv, p.Operands[1], "uniq writes")
	}
}

// compiler handles cc -o OUT and friends: the output can land anywhere.
func (a *analyzer) compiler(inv *shell.Invocation) {
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x.Dynamic:
		case x.Text == "-o" && i+1 < len(args):
			i++
			a.writePath(inv, args[i], inv.Name+" -o writes")
		case strings.HasPrefix(x.Text, "-o") && len(x.Text) > 2 && inv.Name != "rustc":
			a.writePath(inv, shell.Word{Text: x.Text[2:], Src: x.Src}, inv.Name+" -o writes")
		case strings.HasPrefix(x.Text, "-"):
		default:
			a.readOperand(inv, x)
		}
	}
}

// goFlagValues returns the values of go's flags, which take one dash or
// two, and their value attached with = or as the next word.
func goFlagValues(args []shell.Word, names ...string) []shell.Word {
	var out []shell.Word
	for i, x := range args {
		if x.Dynamic || !strings.HasPrefix(x.Text, "-") {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(x.Text, "-"), "-"), "=")
		for _, n := range names {
			switch {
			case name != n:
			case eq:
				out = append(out, shell.Word{Text: val, Src: x.Src})
			case i+1 < len(args):
				out = append(out, args[i+1])
			}
		}
	}
	return out
}
