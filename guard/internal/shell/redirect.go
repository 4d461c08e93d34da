package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Redirect is what one redirection of a statement does to files, as data
// for the tool families: the files it writes or reads, whether the
// statement's standard output goes there, and for < file on standard
// input the Input the statement gets.
type Redirect struct {
	Node    syntax.Node  // the redirection (the file word for < file), for messages
	Stmt    *syntax.Stmt // the statement it belongs to
	Write   bool         // the targets are written: >, >>, >|, &>, <>, >& file
	Read    bool         // the targets are read: <, <>, n< file
	Stdout  bool         // what the statement prints goes into the targets
	Targets []Word       // the values the file word can take
	// Stdin is the Input the statement reads from the file (< file on
	// standard input); the families add where secret text in it comes
	// from.
	Stdin *Input
}

// redirects walks a statement's redirections: the substitutions in them
// are walked, what they write and read goes to Families.Redirect, and what
// the statement reads on standard input is returned (nil: nothing known).
func (w *Walker) redirects(s *syntax.Stmt, st *State) *Input {
	var in *Input
	for _, r := range s.Redirs {
		if !w.Visit() {
			return in
		}
		if ps := ProcSubstWord(r.Word); ps != nil {
			// > >(cmd) and < <(cmd): a pipe to or from cmd, not a file.
			if ps.Op == syntax.CmdOut {
				w.NestedWithInput(ps.Stmts, st, w.Families.Output(s, st))
				continue
			}
			w.Nested(ps.Stmts, st)
			if r.Op == syntax.RdrIn {
				in = w.procOutput(ps, st)
			}
			continue
		}
		if r.Word != nil {
			w.Substitutions(r.Word, st)
		}
		fd := ""
		if r.N != nil {
			fd = r.N.Value
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
			stdout := fd == "" || fd == "1" || r.Op == syntax.RdrAll || r.Op == syntax.AppAll
			w.Families.Redirect(Redirect{Node: r, Stmt: s, Write: true, Stdout: stdout, Targets: w.targets(r.Word, st)}, st)
		case syntax.RdrInOut:
			w.Families.Redirect(Redirect{Node: r, Stmt: s, Write: true, Read: true, Targets: w.targets(r.Word, st)}, st)
		case syntax.DplOut, syntax.DplIn:
			// >&2 and <&0 duplicate descriptors; bash's ">& file" writes a file.
			if v, ok := w.StaticWord(r.Word, st); ok && (IsDigits(v) || v == "-") {
				continue
			}
			if r.Op == syntax.DplOut {
				w.Families.Redirect(Redirect{Node: r, Stmt: s, Write: true, Targets: w.targets(r.Word, st)}, st)
			}
		case syntax.RdrIn:
			if fd != "" && fd != "0" {
				w.Families.Redirect(Redirect{Node: r, Stmt: s, Read: true, Targets: w.targets(r.Word, st)}, st)
				continue
			}
			in = w.fileInput(r, s, st)
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				w.Substitutions(r.Hdoc, st)
			}
			if fd == "" || fd == "0" {
				in = w.heredocInput(r, st)
			}
		case syntax.WordHdoc:
			if fd == "" || fd == "0" {
				in = w.wordInput(r.Word, st, "a here-string")
			}
		}
	}
	return in
}

// targets is every value a redirection's file word can take.
func (w *Walker) targets(word *syntax.Word, st *State) []Word {
	var out []Word
	for _, alt := range w.Expand(word, st) {
		out = append(out, alt...)
	}
	return out
}

// fileInput is < file on standard input.
func (w *Walker) fileInput(r *syntax.Redirect, s *syntax.Stmt, st *State) *Input {
	in := &Input{File: true, Dynamic: true, Desc: "a file"}
	var targets []Word
	for _, alt := range w.Expand(r.Word, st) {
		for _, t := range alt {
			if t.Proc {
				w.Families.Redirect(Redirect{Node: r.Word, Stmt: s, Read: true, Targets: targets, Stdin: in}, st)
				return &Input{Dynamic: true, Net: t.Net, Desc: "the output of a process substitution"}
			}
			targets = append(targets, t)
			if t.Static() {
				in.FilePath = t
				in.Desc = "the file " + t.Text
			}
		}
	}
	w.Families.Redirect(Redirect{Node: r.Word, Stmt: s, Read: true, Targets: targets, Stdin: in}, st)
	return in
}

// procOutput describes what <(cmd) produces: the output of its last stage.
func (w *Walker) procOutput(ps *syntax.ProcSubst, st *State) *Input {
	if len(ps.Stmts) != 1 {
		return &Input{Dynamic: true, Net: Fetches(ps.Stmts), Desc: "the output of a process substitution"}
	}
	s := ps.Stmts[0]
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		stages := PipelineStages(b)
		in := w.output(stages[len(stages)-1], st)
		in.Net = in.Net || Fetches(ps.Stmts)
		return in
	}
	return w.output(s, st)
}

// output is what a pipeline stage writes to its standard output, as an
// input that names the stage it comes from.
func (w *Walker) output(s *syntax.Stmt, st *State) *Input {
	in := w.Families.Output(s, st)
	in.From = s
	return in
}

// HereInput is the here-document or here-string a statement reads on
// standard input, without walking anything (nil: none, or a file).
func (w *Walker) HereInput(s *syntax.Stmt, st *State) *Input {
	var in *Input
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			in = w.heredocInput(r, st)
		case syntax.WordHdoc:
			in = w.wordInput(r.Word, st, "a here-string")
		case syntax.RdrIn:
			in = nil
		}
	}
	return in
}

func (w *Walker) heredocInput(r *syntax.Redirect, st *State) *Input {
	if r.Hdoc == nil {
		return &Input{Text: "", Desc: "a here-document"}
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
		return &Input{Text: WordLiteral(r.Hdoc), Desc: "a here-document"}
	}
	// An unquoted here-document is expanded by the outer shell first. Its
	// raw text, read as a script, has the same unknowns: $x stays $x.
	text := w.Source(r.Hdoc)
	return &Input{Text: text, Desc: "a here-document", Net: wordFetches(r.Hdoc), Subst: hasSubst(r.Hdoc),
		Secret: w.PrintedSecret([]*syntax.Word{r.Hdoc}, st)}
}

func (w *Walker) wordInput(word *syntax.Word, st *State, desc string) *Input {
	alts := w.Expand(word, st)
	if len(alts) == 1 && len(alts[0]) == 1 && !alts[0][0].Dynamic {
		return &Input{Text: alts[0][0].Text, Desc: desc, Secret: alts[0][0].Secret}
	}
	in := &Input{Dynamic: true, Desc: desc}
	for _, alt := range alts {
		for _, f := range alt {
			in.Net = in.Net || f.Net
			if in.Secret == nil {
				in.Secret = f.Secret // nc host <<< "$GITHUB_TOKEN"
			}
		}
	}
	in.Net = in.Net || wordFetches(word)
	if in.Net {
		in.Desc = "downloaded text"
	}
	return in
}

// hasSubst reports whether a word contains $(...) or <(...).
func hasSubst(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// wordFetches reports whether a substitution in a word downloads content.
func wordFetches(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		if cs, ok := n.(*syntax.CmdSubst); ok && Fetches(cs.Stmts) {
			found = true
		}
		if ps, ok := n.(*syntax.ProcSubst); ok && Fetches(ps.Stmts) {
			found = true
		}
		return !found
	})
	return found
}

// PrintedSecret is the taint of what echo or printf prints: a credential
// variable among the words ($X, "$X", "a${X}b"), as Tools.VarSecret says.
// A plain loop, no walk, since echo runs on the hot path (substitutions
// are sources of their own, see Tools.SecretSource).
func (ex *Expander) PrintedSecret(words []*syntax.Word, st *State) *effect.Source {
	for _, word := range words {
		if s := ex.partsSecret(word.Parts, st); s != nil {
			return s
		}
	}
	return nil
}

func (ex *Expander) partsSecret(parts []syntax.WordPart, st *State) *effect.Source {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.ParamExp:
			if x.Param != nil {
				if s := ex.Tools.VarSecret(x.Param.Value, st); s != nil {
					return s
				}
			}
		case *syntax.DblQuoted:
			if s := ex.partsSecret(x.Parts, st); s != nil {
				return s
			}
		}
	}
	return nil
}
