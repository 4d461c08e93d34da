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

// Redirect applies what a redirection writes and reads (shell.Redirect):
// each target written or read is checked, what a statement prints into a
// file is recorded, and < file gets the taint of a secret file.
func (a *analyzer) Redirect(r shell.Redirect, st *shell.State) {
	if r.Write {
		for _, t := range r.Targets {
			a.writePath(&shell.Invocation{Name: "redirect", Node: r.Node, State: st}, t, "a redirection writes")
		}
		if r.Stdout {
			a.redirectBody(r, st)
		}
	}
	if r.Read {
		for _, t := range r.Targets {
			a.readPath(&shell.Invocation{Name: "redirect", Node: r.Node, State: st}, t)
			if r.Stdin != nil && t.Static() {
				r.Stdin.Secret = a.fileSecret(t, st)
			}
		}
	}
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

// redirectBody records what a statement writes into the targets of its
// output redirection, so a script written and then run is checked. Only
// text the guard can know (echo, printf, cat) or a download is worth
// recording: the output of any other program is as unknown as any file.
func (a *analyzer) redirectBody(r shell.Redirect, st *shell.State) {
	s := r.Stmt
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || !mayPrintKnownText(ce) && !shell.Fetches([]*syntax.Stmt{s}) && a.stageSecret(s, st) == "" {
		return
	}
	var body *shell.Input
	for _, t := range r.Targets {
		if !t.Static() {
			continue
		}
		if body == nil {
			body = a.stageOutput(s, st)
		}
		a.recordBody(&shell.Invocation{Name: "redirect", Node: r.Node, State: st}, t, body)
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
			if in := a.x.HereInput(s, st); in != nil && !in.Dynamic {
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
