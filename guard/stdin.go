package guard

import (
	"encoding/base64"
	"encoding/hex"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
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

// redirectBody records what a statement writes into the targets of its
// output redirection, so a script written and then run is checked. Only
// text the guard can know (echo, printf, cat) or a download is worth
// recording: the output of any other program is as unknown as any file.
func (a *analyzer) redirectBody(r shell.Redirect, st *shell.State) {
	s := r.Stmt
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || !mayPrintKnownText(ce) && !shell.Fetches([]*syntax.Stmt{s}) && a.stageSecret(s, st) == nil {
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
	if sec := a.stageSecret(s, st); sec != nil {
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
	case "echo", "printf":
		return shell.Printed(name, argv[1:])
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
