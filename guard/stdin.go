package guard

import (
	"encoding/base64"
	"encoding/hex"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/shell"
)

// redirects applies the file effects of a statement's redirections and
// returns what the statement reads on standard input (nil: nothing known).
func (a *analyzer) redirects(s *syntax.Stmt, st *shell.State) *shell.Input {
	var in *shell.Input
	for _, r := range s.Redirs {
		if !a.x.Visit() {
			return in
		}
		if ps := shell.ProcSubstWord(r.Word); ps != nil {
			// > >(cmd) and < <(cmd): a pipe to or from cmd, not a file.
			if ps.Op == syntax.CmdOut {
				a.x.NestedWithInput(ps.Stmts, st, a.stageOutput(s, st))
				continue
			}
			a.x.Nested(ps.Stmts, st)
			if r.Op == syntax.RdrIn {
				in = a.procOutput(ps, st)
			}
			continue
		}
		if r.Word != nil {
			a.substitutions(r.Word, st)
		}
		fd := ""
		if r.N != nil {
			fd = r.N.Value
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
			targets := a.redirectTarget(r, st, true)
			if fd == "" || fd == "1" || r.Op == syntax.RdrAll || r.Op == syntax.AppAll {
				a.redirectBody(r, s, st, targets)
			}
		case syntax.RdrInOut:
			a.redirectTarget(r, st, true)
			a.redirectTarget(r, st, false)
		case syntax.DplOut, syntax.DplIn:
			// >&2 and <&0 duplicate descriptors; bash's ">& file" writes a file.
			if w, ok := a.x.StaticWord(r.Word, st); ok && (isNumber(w) || w == "-") {
				continue
			}
			if r.Op == syntax.DplOut {
				a.redirectTarget(r, st, true)
			}
		case syntax.RdrIn:
			if fd != "" && fd != "0" {
				a.redirectTarget(r, st, false)
				continue
			}
			in = a.fileInput(r.Word, st)
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				a.substitutions(r.Hdoc, st)
			}
			if fd == "" || fd == "0" {
				in = a.heredocInput(r, st)
			}
		case syntax.WordHdoc:
			if fd == "" || fd == "0" {
				in = a.wordInput(r.Word, st, "a here-string")
			}
		}
	}
	return in
}

// procOutput describes what <(cmd) produces: the output of its last stage.
func (a *analyzer) procOutput(ps *syntax.ProcSubst, st *shell.State) *shell.Input {
	if len(ps.Stmts) != 1 {
		return &shell.Input{Dynamic: true, Net: shell.Fetches(ps.Stmts), Desc: "the output of a process substitution"}
	}
	s := ps.Stmts[0]
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		stages := shell.PipelineStages(b)
		in := a.outputOf(stages[len(stages)-1], st)
		in.Net = in.Net || shell.Fetches(ps.Stmts)
		return in
	}
	return a.outputOf(s, st)
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// redirectTarget checks the file a redirection writes or reads and
// returns the values its word can take.
func (a *analyzer) redirectTarget(r *syntax.Redirect, st *shell.State, write bool) []shell.Word {
	var targets []shell.Word
	for _, alt := range a.x.Expand(r.Word, st) {
		for _, t := range alt {
			inv := &shell.Invocation{Name: "redirect", Node: r, State: st}
			if write {
				a.writePath(inv, t, "a redirection writes")
			} else {
				a.readPath(inv, t)
			}
			targets = append(targets, t)
		}
	}
	return targets
}

// redirectBody records what a statement writes into the targets of its
// output redirection, so a script written and then run is checked. Only
// text the guard can know (echo, printf, cat) or a download is worth
// recording: the output of any other program is as unknown as any file.
func (a *analyzer) redirectBody(r *syntax.Redirect, s *syntax.Stmt, st *shell.State, targets []shell.Word) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || !mayPrintKnownText(ce) && !shell.Fetches([]*syntax.Stmt{s}) && a.stageSecret(s, st) == "" {
		return
	}
	var body *shell.Input
	for _, t := range targets {
		if !t.Static() {
			continue
		}
		if body == nil {
			body = a.stageOutput(s, st)
		}
		a.recordBody(&shell.Invocation{Name: "redirect", Node: r, State: st}, t, body)
	}
}

// mayPrintKnownText reports whether stageOutput can know what the command
// prints: echo, printf and cat of known text, or a command whose name is
// only known once expanded.
func mayPrintKnownText(ce *syntax.CallExpr) bool {
	switch path.Base(shell.WordLiteral(ce.Args[0])) {
	case "", ".", "echo", "printf", "cat":
		return true
	}
	return false
}

func (a *analyzer) fileInput(w *syntax.Word, st *shell.State) *shell.Input {
	in := &shell.Input{File: true, Dynamic: true, Desc: "a file"}
	for _, alt := range a.x.Expand(w, st) {
		for _, t := range alt {
			if t.Proc {
				return &shell.Input{Dynamic: true, Net: t.Net, Desc: "the output of a process substitution"}
			}
			inv := &shell.Invocation{Name: "redirect", Node: w, State: st}
			a.readPath(inv, t)
			if t.Static() {
				in.FilePath = t
				in.Desc = "the file " + t.Text
				in.Secret = a.fileSecret(t, st)
			}
		}
	}
	return in
}

func (a *analyzer) heredocInput(r *syntax.Redirect, st *shell.State) *shell.Input {
	if r.Hdoc == nil {
		return &shell.Input{Text: "", Desc: "a here-document"}
	}
	quotedDelim := false
	for _, p := range r.Word.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quotedDelim = true
		case *syntax.Lit:
			if strings.Contains(x.Value, `\`) {
				quotedDelim = true
			}
		}
	}
	if quotedDelim {
		return &shell.Input{Text: shell.WordLiteral(r.Hdoc), Desc: "a here-document"}
	}
	// An unquoted here-document is expanded by the outer shell first. Its
	// raw text, read as a script, has the same unknowns: $x stays $x.
	text := a.x.Source(r.Hdoc)
	return &shell.Input{Text: text, Desc: "a here-document", Net: a.wordFetches(r.Hdoc), Subst: hasSubst(r.Hdoc),
		Secret: a.printedSecret([]*syntax.Word{r.Hdoc}, st)}
}

// hasSubst reports whether a word contains $(...) or <(...).
func hasSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

func (a *analyzer) wordFetches(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if cs, ok := n.(*syntax.CmdSubst); ok && shell.Fetches(cs.Stmts) {
			found = true
		}
		if ps, ok := n.(*syntax.ProcSubst); ok && shell.Fetches(ps.Stmts) {
			found = true
		}
		return !found
	})
	return found
}

func (a *analyzer) wordInput(w *syntax.Word, st *shell.State, desc string) *shell.Input {
	alts := a.x.Expand(w, st)
	if len(alts) == 1 && len(alts[0]) == 1 && !alts[0][0].Dynamic {
		return &shell.Input{Text: alts[0][0].Text, Desc: desc, Secret: alts[0][0].Secret}
	}
	in := &shell.Input{Dynamic: true, Desc: desc}
	for _, alt := range alts {
		for _, f := range alt {
			in.Net = in.Net || f.Net
			if in.Secret == "" {
				in.Secret = f.Secret // nc host <<< "$GITHUB_TOKEN"
			}
		}
	}
	in.Net = in.Net || a.wordFetches(w)
	if in.Net {
		in.Desc = "downloaded text"
	}
	return in
}

// outputOf describes what a pipeline stage writes to its standard output.
func (a *analyzer) outputOf(s *syntax.Stmt, st *shell.State) *shell.Input {
	in := a.stageOutput(s, st)
	in.From = s
	return in
}

func (a *analyzer) stageOutput(s *syntax.Stmt, st *shell.State) *shell.Input {
	in := a.stageOutputText(s, st)
	if sec := a.stageSecret(s, st); sec != "" {
		in.Secret = sec
	}
	return in
}

func (a *analyzer) stageOutputText(s *syntax.Stmt, st *shell.State) *shell.Input {
	if s == nil {
		return &shell.Input{Dynamic: true, Desc: "the output of a command"}
	}
	net := shell.Fetches([]*syntax.Stmt{s})
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return &shell.Input{Dynamic: true, Net: net, Desc: "the output of a compound command"}
	}
	var argv []shell.Word
	for _, w := range ce.Args {
		alts := a.x.Expand(w, st)
		if len(alts) != 1 {
			return &shell.Input{Dynamic: true, Net: net, Desc: "the output of a command"}
		}
		argv = append(argv, alts[0]...)
	}
	if len(argv) == 0 || argv[0].Dynamic {
		return &shell.Input{Dynamic: true, Net: net, Desc: "the output of a command"}
	}
	name := path.Base(argv[0].Text)
	if net {
		return &shell.Input{Dynamic: true, Net: true, Desc: "the output of " + name}
	}
	switch name {
	case "echo":
		words, escapes := echoWords(argv[1:])
		text, ok := joinStatic(words)
		if !ok {
			return &shell.Input{Dynamic: true, Expanded: true, Desc: "the output of echo with expansions"}
		}
		if escapes {
			text = processEscapes(text)
		}
		return &shell.Input{Text: text + "\n", Desc: "echoed text"}
	case "printf":
		args := argv[1:]
		if len(args) > 0 && args[0].Text == "--" {
			args = args[1:]
		}
		if len(args) == 0 || !args[0].Static() {
			return &shell.Input{Dynamic: true, Expanded: true, Desc: "the output of printf"}
		}
		rest, ok := joinStatic(args[1:])
		if !ok {
			return &shell.Input{Dynamic: true, Expanded: true, Desc: "the output of printf with expansions"}
		}
		text := processEscapes(args[0].Text)
		if rest != "" {
			text = strings.Replace(strings.Replace(text, "%s", rest, 1), "%b", processEscapes(rest), 1)
		}
		return &shell.Input{Text: text, Desc: "printed text"}
	case "find":
		return a.findOutput(argv[1:])
	case "cat":
		if len(argv) == 1 {
			if in := a.stdinOf(s, st); in != nil && !in.Dynamic {
				return in
			}
		}
		if len(argv) == 2 && argv[1].Static() {
			// cat a file this command wrote: its known contents.
			for _, p := range a.resolveArg(argv[1], st).paths {
				if bs := a.bodies[p]; len(bs) == 1 {
					return bs[0]
				}
			}
		}
		return &shell.Input{Dynamic: true, Desc: "the contents of a file"}
	}
	return &shell.Input{Dynamic: true, Desc: "the output of " + name}
}

// stdinOf returns the here-document or here-string a statement reads,
// without the side effects of redirects (which would call back here).
func (a *analyzer) stdinOf(s *syntax.Stmt, st *shell.State) *shell.Input {
	var in *shell.Input
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			in = a.heredocInput(r, st)
		case syntax.WordHdoc:
			in = a.wordInput(r.Word, st, "a here-string")
		case syntax.RdrIn:
			in = nil
		}
	}
	return in
}

func echoWords(args []shell.Word) ([]shell.Word, bool) {
	escapes := false
	for len(args) > 0 && args[0].Static() && len(args[0].Text) > 1 && args[0].Text[0] == '-' && strings.Trim(args[0].Text[1:], "neE") == "" {
		if strings.Contains(args[0].Text, "e") {
			escapes = true
		}
		args = args[1:]
	}
	return args, escapes
}

func joinStatic(args []shell.Word) (string, bool) {
	parts := make([]string, len(args))
	for i, x := range args {
		if x.Dynamic {
			return "", false
		}
		parts[i] = x.Text
	}
	return strings.Join(parts, " "), true
}

// processEscapes interprets the backslash escapes of echo -e and printf:
// \n, \t, \xHH, \0NNN and \NNN (octal), \uHHHH, \UHHHHHHHH. Text piped
// to a shell is read the way the shell will see it.
func processEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r', 'a', 'b', 'f', 'v':
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\', '"', '\'':
			b.WriteByte(e)
		case 'x':
			v, n := hexValue(s[i+1:], 2)
			if n == 0 {
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(v))
			i += n
		case 'u', 'U':
			width := 4
			if e == 'U' {
				width = 8
			}
			v, n := hexValue(s[i+1:], width)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			b.WriteRune(rune(v))
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			start := i
			if e == '0' {
				start = i + 1 // \0NNN
			}
			for n < 3 && start+n < len(s) && s[start+n] >= '0' && s[start+n] <= '7' {
				v = v*8 + int(s[start+n]-'0')
				n++
			}
			b.WriteByte(byte(v))
			i = start + n - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

func hexValue(s string, width int) (int, int) {
	v, n := 0, 0
	for n < width && n < len(s) {
		c := s[n]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return v, n
		}
		v = v*16 + d
		n++
	}
	return v, n
}

// substitutions walks the command and process substitutions inside a
// node (shell.Walker.Substitutions).
func (a *analyzer) substitutions(n syntax.Node, st *shell.State) { a.x.Substitutions(n, st) }

// knownOutput returns what a statement prints when the guard can tell:
// echo, printf and cat of a here-document, piped through decoders an
// obfuscated command uses (base64 -d, xxd -r -p, rev, tr).
func (a *analyzer) knownOutput(s *syntax.Stmt, st *shell.State) (string, bool) {
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		default:
			return "", false
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 || !mayPrintKnownText(c) {
			return "", false // date, git, ...: whatever they print is unknown
		}
		in := a.stageOutput(s, st)
		if in.Dynamic || in.Subst {
			return "", false
		}
		return in.Text, true
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe {
			return "", false
		}
		stages := shell.PipelineStages(c)
		text, ok := a.knownOutput(stages[0], st)
		for _, f := range stages[1:] {
			if !ok {
				return "", false
			}
			text, ok = a.filterOutput(f, st, text)
		}
		return text, ok
	}
	return "", false
}

// filterOutput applies a decoding filter stage to known text.
func (a *analyzer) filterOutput(s *syntax.Stmt, st *shell.State, text string) (string, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(s.Redirs) > 0 || len(ce.Assigns) > 0 {
		return "", false
	}
	var words []string
	for _, w := range ce.Args {
		v, ok := a.x.StaticWord(w, st)
		if !ok {
			return "", false
		}
		words = append(words, v)
	}
	switch args := strings.Join(words[1:], " "); path.Base(words[0]) {
	case "base64":
		if args != "-d" && args != "--decode" && args != "-D" && args != "-di" && args != "-d -i" {
			return "", false
		}
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return "", false
		}
		return string(b), true
	case "xxd":
		if args != "-r -p" && args != "-rp" && args != "-p -r" && args != "-ps -r" && args != "-r -ps" {
			return "", false
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return "", false
		}
		return string(b), true
	case "rev":
		if args != "" {
			return "", false
		}
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			r := []rune(l)
			slices.Reverse(r)
			lines[i] = string(r)
		}
		return strings.Join(lines, "\n"), true
	case "tr":
		if len(words) != 3 {
			return "", false
		}
		from, to := trSet(words[1]), trSet(words[2])
		if from == nil || to == nil || len(to) == 0 {
			return "", false
		}
		m := map[rune]rune{}
		for i, r := range from {
			m[r] = to[min(i, len(to)-1)]
		}
		return strings.Map(func(r rune) rune {
			if t, ok := m[r]; ok {
				return t
			}
			return r
		}, text), true
	case "cat":
		if args == "" || args == "-" {
			return text, true
		}
	}
	return "", false
}

// trSet expands a tr set with ranges (a-z); classes and escapes are not
// modelled (nil).
func trSet(s string) []rune {
	if strings.ContainsAny(s, `[\`) {
		return nil
	}
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] {
			for c := r[i]; c <= r[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	if len(out) > 512 {
		return nil
	}
	return out
}
