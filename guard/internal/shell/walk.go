package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Limits that keep a walk bounded in time and memory. A script beyond
// them is refused (Families.BadInput), never walked partially.
const (
	MaxDepth = 24      // nested scripts: bash -c, eval, $(...), functions
	MaxNodes = 200_000 // syntax nodes visited per walk
)

// Families is what the walk hands to the tool families (package guard
// implements it): every simple command as an Invocation, what a
// redirection writes and reads, what a pipeline stage prints, the
// variables a script assigns, and what builtins and wrappers do of their
// own (files they write, read or run, a fresh environment, a script only
// known at run time). The families judge; the walk only follows the
// shell.
type Families interface {
	// Command is one simple command, its words expanded, with the state
	// it runs in, its environment assignments and its standard input.
	// The families dispatch it to builtins, wrappers and tools, and
	// recurse through Walker.Script for the scripts it runs.
	Command(inv *Invocation)
	// Redirect is what one redirection writes and reads.
	Redirect(r Redirect, st *State)
	// Output is what a statement writes to its standard output (a
	// pipeline stage, a command writing into >(cmd)).
	Output(s *syntax.Stmt, st *State) *Input
	// Assigned: name gets val (NAME=v, export, declare). inv is the
	// command the assignment is the environment of (nil for an
	// assignment of its own); node is where it is written.
	Assigned(name string, val []Word, st *State, inv *Invocation, node syntax.Node)
	// Judge: what a builtin, construct or wrapper does of its own, as an
	// effect: a variable given a value chosen at run time or re-declared
	// (read NAME, for NAME in, declare NAME), unset NAME, env -u NAME,
	// env -S with text only known at run time.
	Judge(inv *Invocation, e effect.Effect)
	// Writes: a wrapper writes a file of its own (time -o, strace -o,
	// script's typescript, sudoedit); how says so in a reason.
	Writes(inv *Invocation, file Word, how string)
	// Reads: a command reads a file, or names it as its command's
	// operands (sh FILE, source FILE, the paths find lists into xargs).
	Reads(inv *Invocation, file Word)
	// RunFile: a command runs a file's body as a script in lang ("sh"):
	// bash FILE, source FILE, bash < FILE, --rcfile FILE. The families
	// know what the file holds (Env, or what the command wrote into it)
	// and walk it through Script.
	RunFile(inv *Invocation, file Word, lang string)
	// ScriptInput: a command runs as a script what it reads on standard
	// input (inv.Stdin), and that is only known at run time.
	ScriptInput(inv *Invocation, what string)
	// Fresh: a wrapper runs rest (or script, when not empty) in an
	// environment of its own (sudo, doas, su -l, runuser -l), or one
	// emptied (env -i), without the agent's variables.
	Fresh(inv *Invocation, by string, emptied bool, rest []Word, script Word)
	// DynamicScript is a script only known at run time (eval "$x", bash
	// -c "$(curl ...)"); what names the construct.
	DynamicScript(inv *Invocation, script Word, what string)
	// BadInput: the walk refuses the input (it does not parse, nests too
	// deep, is too complex). trigger is the text, fix what to do.
	BadInput(reason, trigger, fix string)
	// Walked: the top-level script and the functions it declared have
	// been walked.
	Walked()
}

// declaredFunc is a function declaration with the state it was declared in.
type declaredFunc struct {
	fn *syntax.FuncDecl
	st *State
}

// Script parses and walks a shell script in state st. The input is what
// the script reads on standard input when that matters (nil: nothing
// known). Families recurse through it for eval, bash -c, sourced files and
// the recipes of task runners.
func (w *Walker) Script(src string, st *State, _ *Input) {
	if w.aborted {
		return
	}
	if w.depth >= MaxDepth {
		w.Abort("the command nests scripts more than " + strconv.Itoa(MaxDepth) + " levels deep (bash -c, eval, $(...))")
		return
	}
	file, err := Parse(src)
	if err != nil {
		w.Families.BadInput("the command does not parse as a shell script: "+err.Error(), src,
			"fix the shell syntax (quotes, parentheses, here-documents) and try again")
		return
	}
	savedSrc := w.Src
	w.Src = src
	w.depth++
	w.stmts(file.Stmts, st)
	if w.depth == 1 {
		w.uncalledFunctions()
		w.Families.Walked()
	}
	w.depth--
	w.Src = savedSrc
}

// Abort stops the walk: a limit was hit, the decision is a denial.
func (w *Walker) Abort(reason string) {
	if w.aborted {
		return
	}
	w.aborted = true
	w.Families.BadInput(reason, "", "split the work into simpler commands or write a script file")
}

// Aborted reports whether a limit was hit.
func (w *Walker) Aborted() bool { return w.aborted }

// Visit counts one syntax node against MaxNodes and reports whether the
// walk goes on.
func (w *Walker) Visit() bool {
	w.nodes++
	if w.nodes > MaxNodes {
		w.Abort("the command is too complex to analyse")
	}
	return !w.aborted
}

func (w *Walker) stmts(list []*syntax.Stmt, st *State) {
	for _, s := range list {
		if !w.Visit() {
			return
		}
		w.stmt(s, st, false)
	}
}

// stmt walks one statement. guarded is true when whatever follows in the
// same && chain runs only if this statement succeeds.
func (w *Walker) stmt(s *syntax.Stmt, st *State, guarded bool) {
	if s == nil || !w.Visit() {
		return
	}
	in := w.redirects(s, st)
	w.command(s.Cmd, st, in, guarded || st.Errexit)
}

func (w *Walker) command(cmd syntax.Command, st *State, in *Input, guarded bool) {
	if cmd == nil || !w.Visit() {
		return
	}
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		w.callExpr(c, st, in, guarded)
	case *syntax.BinaryCmd:
		w.binaryCmd(c, st, in)
	case *syntax.Subshell:
		w.stmts(c.Stmts, st.Clone())
	case *syntax.Block:
		w.stmtsWithInput(c.Stmts, st, in)
	case *syntax.IfClause:
		w.ifClause(c, st)
	case *syntax.WhileClause:
		wk := st.Weak()
		if in != nil && len(in.Paths) == 1 && !c.Until {
			// find ... | while read f: the condition's read gets the
			// names find lists, as xargs does.
			w.stmtsWithInput(c.Cond, wk, in)
		} else {
			w.stmts(c.Cond, wk)
		}
		w.stmts(c.Do, wk)
		st.Merge(wk)
	case *syntax.ForClause:
		wk := st.Weak()
		switch loop := c.Loop.(type) {
		case *syntax.WordIter:
			var vals []Word
			if len(loop.Items) == 0 {
				vals = append(vals, st.PositionalAll()...)
				if st.PosUnknown || len(vals) == 0 {
					vals = append(vals, Word{Dynamic: true, Src: "$@"})
				}
			}
			for _, it := range loop.Items {
				w.Substitutions(it, st)
				for _, alt := range w.Expand(it, st) {
					vals = append(vals, alt...)
				}
			}
			w.rebound(loop.Name.Value, "for", nil, st, loop)
			wk.Vars[loop.Name.Value] = UnionWords(nil, vals)
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{loop.Init, loop.Cond, loop.Post} {
				if e != nil {
					w.Substitutions(e, st)
				}
			}
		}
		w.stmts(c.Do, wk)
		st.Merge(wk)
	case *syntax.CaseClause:
		w.Substitutions(c.Word, st)
		for _, item := range c.Items {
			wk := st.Weak()
			w.stmts(item.Stmts, wk)
			st.Merge(wk)
		}
	case *syntax.FuncDecl:
		name := ""
		if c.Name != nil {
			name = c.Name.Value
		}
		if name == "" {
			// An anonymous zsh function runs right away.
			w.stmt(c.Body, st.Clone(), false)
			return
		}
		st.Funcs[name] = c
		w.declared = append(w.declared, declaredFunc{fn: c, st: st.Clone()})
	case *syntax.DeclClause:
		w.declClause(c, st)
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		w.Substitutions(c, st)
	case *syntax.TimeClause:
		w.stmt(c.Stmt, st, guarded)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, st.Clone(), false)
	case *syntax.TestDecl:
		w.stmt(c.Body, st.Clone(), false)
	default:
		w.Substitutions(c, st)
	}
}

// stmtsWithInput walks statements whose first one reads in (a block or a
// substitution on the receiving end of a pipe).
func (w *Walker) stmtsWithInput(list []*syntax.Stmt, st *State, in *Input) {
	for i, s := range list {
		if !w.Visit() {
			return
		}
		if i == 0 && in != nil {
			sin := w.redirects(s, st)
			if sin == nil {
				sin = in
			}
			w.command(s.Cmd, st, sin, st.Errexit)
			continue
		}
		w.stmt(s, st, false)
	}
}

func (w *Walker) ifClause(c *syntax.IfClause, st *State) {
	w.stmts(c.Cond, st)
	wk := st.Weak()
	w.stmts(c.Then, wk)
	if c.Else != nil {
		e := st.Weak()
		if len(c.Else.Cond) > 0 {
			w.ifClause(c.Else, e)
		} else {
			w.stmts(c.Else.Then, e)
		}
		st.Merge(e)
	}
	st.Merge(wk)
}

func (w *Walker) binaryCmd(c *syntax.BinaryCmd, st *State, in *Input) {
	switch c.Op {
	case syntax.AndStmt:
		before, unknown := slices.Clone(st.Cwds), st.CwdUnknown
		// a && cd d && b parses as (a && cd d) && b: b runs only when the
		// whole left side succeeded, so in d. Walk the chain's links in
		// order, and merge the old directory back in once, at its end.
		w.andChain(c, st)
		// If the chain failed early, later statements run in the old directory.
		st.SetCwds(append(before, st.Cwds...), unknown || st.CwdUnknown)
	case syntax.OrStmt:
		w.stmt(c.X, st, false)
		w.stmt(c.Y, st, false)
	case syntax.Pipe, syntax.PipeAll:
		stages := PipelineStages(c)
		var prev *syntax.Stmt
		saved := w.StdinSecret
		for i, s := range stages {
			sub := st.Clone()
			var sin *Input
			if i == 0 {
				sin = in
			} else {
				sin = w.output(prev, st) // secret if prev's input or prev itself was
			}
			w.StdinSecret = nil
			if sin != nil {
				w.StdinSecret = sin.Secret
			}
			own := w.redirects(s, sub)
			if own != nil {
				sin = own
				w.StdinSecret = own.Secret
			}
			w.command(s.Cmd, sub, sin, false)
			prev = s
		}
		w.StdinSecret = saved
	}
}

func (w *Walker) declClause(c *syntax.DeclClause, st *State) {
	w.Substitutions(c, st)
	variant := c.Variant.Value
	exported := variant == "export"
	for _, as := range c.Args {
		if as.Naked {
			if as.Name == nil && as.Value != nil {
				if v, ok := w.StaticWord(as.Value, st); ok && (v == "-x" || strings.HasPrefix(v, "-") && strings.Contains(v, "x")) {
					exported = true
				}
				continue
			}
			if as.Name != nil {
				w.rebound(as.Name.Value, variant, nil, st, as)
				if _, ok := st.Vars[as.Name.Value]; !ok {
					st.Assign(as.Name.Value, []Word{{Dynamic: true, Src: "$" + as.Name.Value}})
				}
				if exported {
					w.Families.Assigned(as.Name.Value, st.Vars[as.Name.Value], st, nil, as)
				}
			}
			continue
		}
		w.assignment(as, st)
	}
}

// assignment handles NAME=value as a statement of its own or in a
// declaration.
func (w *Walker) assignment(as *syntax.Assign, st *State) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	if as.Array != nil {
		var elems []Word
		known := true
		for _, el := range as.Array.Elems {
			if el.Index != nil {
				known = false // [k]=v: sparse or associative
			}
			if el.Value == nil {
				continue
			}
			alts := w.Expand(el.Value, st)
			if len(alts) != 1 {
				known = false
			}
			for _, alt := range alts {
				elems = append(elems, alt...)
			}
		}
		if as.Append {
			if old, ok := st.Arrays[name]; ok {
				elems = append(slices.Clone(old), elems...)
			} else {
				known = false
			}
		}
		if known && st.Strong {
			st.Arrays[name] = elems
		} else {
			delete(st.Arrays, name)
		}
		if len(elems) > 0 {
			st.Assign(name, elems[:1])
		}
		return
	}
	var val []Word
	if as.Value == nil {
		val = []Word{{Text: "", Src: ""}}
	} else {
		val = w.AssignValue(as.Value, st)
	}
	if as.Index != nil {
		delete(st.Arrays, name)
		val = []Word{{Dynamic: true, Src: "$" + name}}
	} else if as.Append {
		val = appendValues(st.Vars[name], val, name)
	}
	st.Assign(name, val)
	w.Families.Assigned(name, val, st, nil, as)
}

// rebound hands the families a construct that gives name a value chosen
// at run time or re-declares it; how names the construct ("read", "for",
// "declare"). Without a command (a for loop, a declaration), the
// construct written at node stands for one.
func (w *Walker) rebound(name, how string, inv *Invocation, st *State, node syntax.Node) {
	if inv == nil {
		inv = &Invocation{Name: how, Argv: []Word{{Text: how}, {Text: name}}, State: st, Node: node}
	}
	w.Families.Judge(inv, effect.Variable{Name: name, How: how})
}

// appendValues is x+=y: every known old value followed by every new one.
func appendValues(old, add []Word, name string) []Word {
	unknown := []Word{{Dynamic: true, Src: "$" + name}}
	if old == nil {
		return unknown // the old value comes from the environment
	}
	var out []Word
	for _, o := range old {
		for _, n := range add {
			if o.Dynamic || n.Dynamic {
				return unknown
			}
			out = append(out, Word{Text: o.Text + n.Text, Glob: o.Glob || n.Glob})
		}
	}
	return UnionWords(nil, out)
}

// callExpr walks a simple command: an alias is expanded, substitutions in
// it are walked, its words expanded into the argument vectors it may run
// with, each handed to the families.
func (w *Walker) callExpr(ce *syntax.CallExpr, st *State, in *Input, guarded bool) {
	if len(ce.Args) > 0 && len(st.Aliases) > 0 {
		if lit, ok := ce.Args[0].Parts[0].(*syntax.Lit); ok && len(ce.Args[0].Parts) == 1 {
			if val, ok := st.Aliases[lit.Value]; ok && w.Src != "" {
				// An alias replaces the first word of the command text.
				rest := ""
				if end, stop := int(ce.Args[0].End().Offset()), int(ce.End().Offset()); end <= stop && stop <= len(w.Src) {
					rest = w.Src[end:stop]
				}
				delete(st.Aliases, lit.Value) // an alias is not expanded inside itself
				w.Script(val+rest, st, in)
				st.Aliases[lit.Value] = val
				return
			}
		}
	}
	w.SubstitutionsOut(ce, st, func() *Input { return w.output(&syntax.Stmt{Cmd: ce}, st) })
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			w.assignment(as, st)
		}
		return
	}
	env := map[string][]Word{}
	for _, as := range ce.Assigns {
		if as.Name == nil {
			continue
		}
		var val []Word
		if as.Value != nil {
			val = w.AssignValue(as.Value, st)
		} else {
			val = []Word{{}}
		}
		env[as.Name.Value] = val
	}
	for _, argv := range w.ArgvCandidates(ce.Args, st) {
		inv := &Invocation{Argv: argv, Env: env, State: st, Stdin: in, Node: ce, Guarded: guarded}
		for _, as := range ce.Assigns { // in source order: findings must be deterministic
			if as.Name != nil {
				w.Families.Assigned(as.Name.Value, env[as.Name.Value], st, inv, ce)
			}
		}
		w.Families.Command(inv)
		if w.aborted {
			return
		}
	}
}

// ArgvCandidates expands the words of a command into the possible argument
// vectors, at most 16; words with more alternatives become unknown.
func (w *Walker) ArgvCandidates(words []*syntax.Word, st *State) [][]Word {
	cands := [][]Word{make([]Word, 0, len(words))}
	for _, wd := range words {
		alts := w.Expand(wd, st)
		if len(alts) == 1 {
			// The common case: one value, no branching, no copying.
			for i := range cands {
				cands[i] = append(cands[i], alts[0]...)
			}
			continue
		}
		if len(cands)*len(alts) > 16 {
			alts = [][]Word{{{Dynamic: true, Src: w.Source(wd)}}}
		}
		next := make([][]Word, 0, len(cands)*len(alts))
		for _, c := range cands {
			for _, alt := range alts {
				next = append(next, append(append(make([]Word, 0, len(c)+len(alt)), c...), alt...))
			}
		}
		cands = next
	}
	return cands
}

// CallFunction walks a function body with the call's arguments bound to
// the positional parameters. Functions run in the current shell: a cd
// inside changes the caller.
func (w *Walker) CallFunction(fn *syntax.FuncDecl, inv *Invocation) {
	fs := inv.State.Clone()
	fs.InFunc[inv.Name] = true
	fs.Positional, fs.PosUnknown = append([]Word(nil), inv.Args()...), false
	w.depth++
	if w.depth > MaxDepth {
		w.Abort("functions call each other more than " + strconv.Itoa(MaxDepth) + " levels deep")
	} else {
		w.stmt(fn.Body, fs, false)
	}
	w.depth--
	if w.called == nil {
		w.called = map[*syntax.FuncDecl]bool{}
	}
	w.called[fn] = true
	inv.State.SetCwds(append(inv.State.Cwds, fs.Cwds...), inv.State.CwdUnknown || fs.CwdUnknown)
	for k, v := range fs.Vars {
		inv.State.Vars[k] = UnionWords(inv.State.Vars[k], v)
	}
}

// uncalledFunctions walks functions that were declared but never called
// in the command: they may still run (export -f, a trap, bash -c f). Each
// body is walked in the state of its declaration, in source order.
func (w *Walker) uncalledFunctions() {
	for i := 0; i < len(w.declared); i++ { // bodies may declare more functions
		d := w.declared[i]
		if w.called[d.fn] {
			continue
		}
		if w.called == nil {
			w.called = map[*syntax.FuncDecl]bool{}
		}
		w.called[d.fn] = true
		d.st.Positional, d.st.PosUnknown = nil, true
		w.stmt(d.fn.Body, d.st, false)
	}
}

// Substitutions walks the command and process substitutions inside a
// node as the commands they are. Their effects are isolated: a subshell's
// cd or assignment does not change the caller's state.
func (w *Walker) Substitutions(n syntax.Node, st *State) {
	w.SubstitutionsOut(n, st, nil)
}

// SubstitutionsOut is Substitutions where >(cmd) arguments read out: the
// command writes into them (curl -o >(bash)).
func (w *Walker) SubstitutionsOut(n syntax.Node, st *State, out func() *Input) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(x syntax.Node) bool {
		if w.aborted {
			return false
		}
		switch s := x.(type) {
		case *syntax.CmdSubst:
			w.Nested(s.Stmts, st)
			return false
		case *syntax.ProcSubst:
			if s.Op == syntax.CmdOut && out != nil {
				w.NestedWithInput(s.Stmts, st, out())
				return false
			}
			w.Nested(s.Stmts, st)
			return false
		}
		return true
	})
}

// Nested walks the statements of a substitution in a copy of st.
func (w *Walker) Nested(stmts []*syntax.Stmt, st *State) {
	if w.depth >= MaxDepth {
		w.Abort("the command nests substitutions more than " + strconv.Itoa(MaxDepth) + " levels deep")
		return
	}
	w.depth++
	w.stmts(stmts, st.Clone())
	w.depth--
}

// NestedWithInput walks a substitution whose first command reads in.
func (w *Walker) NestedWithInput(stmts []*syntax.Stmt, st *State, in *Input) {
	if w.depth >= MaxDepth {
		w.Abort("the command nests substitutions more than " + strconv.Itoa(MaxDepth) + " levels deep")
		return
	}
	w.depth++
	w.stmtsWithInput(stmts, st.Clone(), in)
	w.depth--
}

// andChain walks the links of a left-nested && chain in order, each
// guarded by the ones before it.
func (w *Walker) andChain(c *syntax.BinaryCmd, st *State) {
	if x, ok := c.X.Cmd.(*syntax.BinaryCmd); ok && x.Op == syntax.AndStmt && len(c.X.Redirs) == 0 && !c.X.Negated && !c.X.Background && !c.X.Coprocess {
		w.andChain(x, st)
	} else {
		w.stmt(c.X, st, true)
	}
	w.stmt(c.Y, st, true)
}
