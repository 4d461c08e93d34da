package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses a command as bash, falling back to zsh syntax: Claude Code
// runs commands with the user's shell, which may be zsh. A "#" that bash
// reads as part of a word but the parser as a comment is an error.
func Parse(src string) (*syntax.File, error) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	f, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		pz := syntax.NewParser(syntax.Variant(syntax.LangZsh), syntax.KeepComments(true))
		fz, errz := pz.Parse(strings.NewReader(src), "")
		if errz != nil {
			return nil, err
		}
		f = fz
	}
	if err := checkComments(f, src); err != nil {
		return nil, err
	}
	return f, nil
}

// checkComments rejects a "#" the parser took for a comment where a shell
// continues the word: bash starts a comment only at the start of a word.
// mvdan.cc/sh v3.14 reads (echo 'x'#;rm -rf ~) as echo x plus a comment,
// while bash runs echo x# and then rm -rf ~. A comment must therefore follow
// a blank or an operator, or the command is refused.
func checkComments(f *syntax.File, src string) error {
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
