package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses a command as bash, falling back to zsh syntax: Claude Code
// runs commands with the user's shell, which may be zsh. A "#" that bash
// reads as part of a word but the parser as a comment is an error.
//
// Where mvdan.cc/sh v3.14 reads the lines of a script differently from
// bash, the text is first made unambiguous, byte for byte in place so that
// every offset into src stays valid (bashLines): a comment ending in a
// backslash, and a carriage return, would otherwise hide the next line
// from the guard while bash runs it.
func Parse(src string) (*syntax.File, error) {
	text, cr, err := bashLines(src)
	if err != nil {
		return nil, err
	}
	var f *syntax.File
	// Each round neutralises the comments that end in a backslash; a
	// comment the parser could not see before (it hid in a joined line)
	// may show up in the next. One newline at least is freed per round.
	for round := 0; ; round++ {
		f, err = parseAs(text)
		if err != nil {
			return nil, err
		}
		fixed, changed := unjoinComments(f, text)
		if !changed {
			break
		}
		if round > strings.Count(text, "\n") {
			return nil, errors.New("comments ending in a backslash could not be told apart from line continuations; remove the backslash at the end of the comment")
		}
		text = fixed
	}
	if cr != 0 {
		restoreCR(f, cr)
	}
	if err := checkComments(f, text); err != nil {
		return nil, err
	}
	if err := checkBackquotes(f, text); err != nil {
		return nil, err
	}
	return f, nil
}

// checkBackquotes refuses a here-document inside backquotes. bash ends
// the backquoted command at the first backquote, even one on a line of the
// here-document's body, and runs what follows as commands; the parser reads
// the body to its end word, so a body line of two backquotes followed by
// rm -rf ~ hid the rm.
func checkBackquotes(f *syntax.File, src string) error {
	if strings.IndexByte(src, '`') < 0 {
		return nil // no backquotes: no walk
	}
	var err error
	syntax.Walk(f, func(n syntax.Node) bool {
		cs, ok := n.(*syntax.CmdSubst)
		if !ok || !cs.Backquotes || err != nil {
			return err == nil
		}
		syntax.Walk(cs, func(n syntax.Node) bool {
			if r, ok := n.(*syntax.Redirect); ok && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && err == nil {
				err = fmt.Errorf("%d:%d: a here-document inside backquotes is read differently by bash; use $(...) instead of backquotes", r.OpPos.Line(), r.OpPos.Col())
			}
			return err == nil
		})
		return false
	})
	return err
}

func parseAs(src string) (*syntax.File, error) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	f, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		pz := syntax.NewParser(syntax.Variant(syntax.LangZsh), syntax.KeepComments(true))
		fz, errz := pz.Parse(strings.NewReader(src), "")
		if errz != nil {
			return nil, err
		}
		if name := zshPatternCommand(fz); name != "" {
			// gateway.customer.delete('x'): bash rejects it, and zsh reads
			// the name as a file-name pattern, so that no shell runs it as
			// written. It is code of another language, not a command.
			return nil, fmt.Errorf("%v (zsh reads the command name %s as a file-name pattern): this is code, not a shell command; run code with its interpreter (python3 -c '...', node -e '...')", err, name)
		}
		f = fz
	}
	return f, nil
}

// zshPatternCommand returns the first command name of a zsh-only parse
// that holds a parenthesised pattern group or glob qualifier (a literal
// part starting with "(", or an extended glob), "" when none does.
func zshPatternCommand(f *syntax.File) string {
	name := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || name != "" || len(c.Args) == 0 {
			return name == ""
		}
		for _, p := range c.Args[0].Parts {
			switch x := p.(type) {
			case *syntax.Lit:
				if strings.Contains(x.Value, "(") {
					name = wordSource(c.Args[0])
				}
			case *syntax.ExtGlob:
				name = wordSource(c.Args[0])
			}
		}
		return name == ""
	})
	return name
}

// wordSource prints a word as written.
func wordSource(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// bashLines returns src with every carriage return replaced by a control
// byte that src does not hold (cr, 0 when src has no carriage return).
// bash reads a carriage return as an ordinary character of a word: "\"
// before CR LF escapes the CR and the LF still ends the command, and
// "a<CR>b" is one word. The parser skips it as a blank and takes "\" CR LF
// for a line continuation, so `echo a \` CR LF `rm -rf ~` would reach the
// guard as one echo while bash runs the rm. The parser reads the stand-in
// byte as bash reads the CR; restoreCR puts the CR back into the words.
func bashLines(src string) (string, byte, error) {
	if !strings.Contains(src, "\r") {
		return src, 0, nil
	}
	for c := byte(1); c < 0x20; c++ {
		switch c {
		case '\t', '\n', '\v', '\f', '\r':
			continue
		}
		if strings.IndexByte(src, c) < 0 {
			return strings.ReplaceAll(src, "\r", string(c)), c, nil
		}
	}
	return "", 0, errors.New("the command mixes carriage returns with every other control character; remove the carriage returns (save the text with LF line ends)")
}

// unjoinComments neutralises the backslash that ends a comment's line.
// bash reads a comment to the end of its line and never continues it; the
// parser takes "\" before the newline for a line continuation and joins
// the next line to the comment or to the command before it, so
// `echo ok # note \` hid the command on the next line. The backslash is
// replaced by a blank (a comment's text means nothing to the shell).
func unjoinComments(f *syntax.File, src string) (string, bool) {
	if !strings.Contains(src, "\\\n") || strings.IndexByte(src, '#') < 0 {
		return src, false // no line ends in a backslash, or no comment: no walk
	}
	var b []byte
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.Comment)
		if !ok {
			return true
		}
		off := int(c.Hash.Offset())
		if off < 0 || off >= len(src) {
			return true
		}
		end := strings.IndexByte(src[off:], '\n')
		if end <= 0 {
			return true
		}
		end += off
		// A comment that does not parse back to a "#" is not one bash sees.
		if src[off] != '#' || src[end-1] != '\\' {
			return true
		}
		if b == nil {
			b = []byte(src)
		}
		b[end-1] = ' '
		return true
	})
	if b == nil {
		return src, false
	}
	return string(b), true
}

// restoreCR puts the carriage returns bashLines replaced back into the
// text of the parsed words and comments.
func restoreCR(f *syntax.File, cr byte) {
	fix := func(s string) string {
		if strings.IndexByte(s, cr) < 0 {
			return s
		}
		return strings.ReplaceAll(s, string(cr), "\r")
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Lit:
			x.Value = fix(x.Value)
		case *syntax.SglQuoted:
			x.Value = fix(x.Value)
		case *syntax.Comment:
			x.Text = fix(x.Text)
		}
		return true
	})
}

// checkComments rejects a "#" the parser took for a comment where a shell
// continues the word: bash starts a comment only at the start of a word.
// mvdan.cc/sh v3.14 reads (echo 'x'#;rm -rf ~) as echo x plus a comment,
// while bash runs echo x# and then rm -rf ~. A comment must therefore follow
// a blank or an operator, or the command is refused.
func checkComments(f *syntax.File, src string) error {
	if strings.IndexByte(src, '#') < 0 {
		return nil // no comment: no walk
	}
	var comments []*syntax.Comment
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok {
			comments = append(comments, c)
		}
		return true
	})
	if len(comments) == 0 {
		return nil // the common case: no second walk
	}
	wordEnds := map[int]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			wordEnds[int(w.End().Offset())] = true
		}
		return true
	})
	for _, c := range comments {
		off := int(c.Hash.Offset())
		if off <= 0 || off > len(src) {
			continue
		}
		glued := wordEnds[off] // $()#x: the ")" closes a word, not a subshell
		switch src[off-1] {
		case ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>':
		default:
			glued = true
		}
		if glued {
			return fmt.Errorf("%d:%d: this # would be read as a comment here but is part of a word for the shell; put a space before comments or quote the #", c.Hash.Line(), c.Hash.Col())
		}
	}
	return nil
}

// PipelineStages flattens a | b | c into its stages.
func PipelineStages(c *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	var walk func(s *syntax.Stmt)
	walk = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated {
			walk(b.X)
			walk(b.Y)
			return
		}
		out = append(out, s)
	}
	walk(c.X)
	walk(c.Y)
	return out
}

// ProcSubstWord returns the process substitution a redirection word
// consists of, if it is one.
func ProcSubstWord(w *syntax.Word) *syntax.ProcSubst {
	if w == nil || len(w.Parts) != 1 {
		return nil
	}
	ps, _ := w.Parts[0].(*syntax.ProcSubst)
	return ps
}
