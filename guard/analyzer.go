package guard

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/guard/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

// analyzer holds one decision's work: the policy compiled for this Env, the
// findings so far and the budget left.
type analyzer struct {
	eng      *Engine
	pol      *policy.Policy
	env      *Env
	m        *matchers
	findings []finding
	nodes    int  // syntax nodes visited, bounded by maxNodes
	aborted  bool // a limit was hit; the decision is already a denial

	// x is the shell core: word expansion and the state builtins. x.Src is
	// the source of the script being analysed, for words as written and
	// trigger excerpts.
	x        shell.Walker
	srcDepth int // nesting depth of scripts (bash -c, eval, ...)
	// stdinSecret is where secret text on the standard input of the
	// pipeline stage being analysed comes from (exfil.go); "" for none.
	stdinSecret string
	runnerDepth int // task runners running task runners (make, npm run, just, task)

	called   map[*syntax.FuncDecl]bool // functions analysed at a call site
	declared []declaredFunc            // every function declaration, in source order
	writes   []string                  // static paths the command writes, for WrittenFiles
	urls     []SentURL                 // literal URLs network clients send to, for SentURLs (webtools.go)
	// opaque: the command may write files the analysis cannot list (a
	// program without a model, a write to a path known only at run time).
	opaque bool

	// What the command puts in place itself (filestate.go).
	bodies map[string][]*shell.Input // file -> contents written to it
	links  map[string]string         // symlink -> target
	progs  map[string]string         // copy -> original; "hash:name" -> program
	runs   []fileRun                 // files run as scripts or programs

	ruleFacts *rules.Facts // what the rules know besides an effect (effects.go)

	// trace, when set (by tests), sees every invocation the walk
	// dispatches to a builtin, wrapper or tool family.
	trace func(*shell.Invocation)
}

// declaredFunc is a function declaration with the state it was declared in.
type declaredFunc struct {
	fn *syntax.FuncDecl
	st *shell.State
}

// finding is a rule match before policy actions and allow entries apply.
type finding struct {
	rule    string
	reason  string
	trigger string
	alt     string
	canon   string // the simple command as allow entries see it
	// ask turns a denial into a question for a human (checkpoint
	// oversight, [mcp.servers.X] ask); a rule set to "off" stays off.
	ask bool
}

func (e *Engine) newAnalyzer(env *Env) *analyzer {
	if env == nil {
		env = &Env{Cwd: "/", Root: "/"}
	}
	a := &analyzer{eng: e, pol: e.pol, env: env, m: compileMatchers(e.pol, env), called: map[*syntax.FuncDecl]bool{}}
	a.x = shell.Walker{Expander: shell.Expander{Tools: a, Env: shell.Env{Home: env.Home, Cwd: env.Cwd, Root: env.Root, Temp: env.Temp,
		Vars: env.Vars, Unset: env.Unset, Resolve: env.Resolve}}}
	return a
}

func (a *analyzer) add(f finding) {
	a.findings = append(a.findings, f)
}

// decision applies rule actions and [[allow]] entries to the findings.
func (a *analyzer) decision() Decision {
	var d Decision
	var denies, asks, allowed []Finding
	seen := map[string]bool{}
	for _, f := range a.findings {
		act := a.pol.RuleAction(f.rule)
		switch f.rule {
		case policy.RuleBadInput, policy.RuleInternalError, policy.RulePolicyError:
			act = policy.Deny // fail_mode is applied by the adapter, which knows the context
		}
		if act == policy.Off || act == policy.Allow {
			continue
		}
		if f.ask {
			act = policy.Ask
		}
		key := f.rule + "\x00" + f.reason + "\x00" + f.trigger
		if seen[key] {
			continue
		}
		seen[key] = true
		out := Finding{Action: act, Rule: f.rule, Reason: f.reason, Trigger: f.trigger, Alternative: f.alt}
		if glob := a.allowedBy(f); glob != "" {
			out.Action, out.AllowedBy = policy.Allow, glob
			allowed = append(allowed, out)
			continue
		}
		if act == policy.Ask {
			asks = append(asks, out)
		} else {
			denies = append(denies, out)
		}
	}
	d.Findings = append(append(append(d.Findings, denies...), asks...), allowed...)
	var top *Finding
	switch {
	case len(denies) > 0:
		top = &denies[0]
	case len(asks) > 0:
		top = &asks[0]
	default:
		return d
	}
	d.Action, d.Rule, d.Reason, d.Trigger, d.Alternative = top.Action, top.Rule, top.Reason, top.Trigger, top.Alternative
	return d
}

// allowedBy returns the [[allow]] command glob that exempts a finding.
func (a *analyzer) allowedBy(f finding) string {
	switch f.rule {
	case policy.RuleBadInput, policy.RuleInternalError, policy.RulePolicyError:
		return "" // never exempt the guard's own failures
	}
	for _, e := range a.pol.Allow {
		if len(e.Rules) > 0 && !slices.Contains(e.Rules, f.rule) {
			continue
		}
		pat := unquoted(e.Command)
		if (f.canon != "" && globMatch(pat, unquoted(f.canon))) || (f.trigger != "" && globMatch(pat, unquoted(oneLine(f.trigger)))) {
			return e.Command
		}
	}
	return ""
}

// unquoted drops quote characters: an [[allow]] entry matches whether it
// is written eval $(ssh-agent -s) or eval "$(ssh-agent -s)".
func unquoted(s string) string {
	return strings.NewReplacer(`"`, "", `'`, "").Replace(s)
}

// globMatch matches s against a pattern where '*' matches any run of
// characters (spaces and slashes included) and '?' any single character.
func globMatch(pattern, s string) bool {
	pattern = oneLine(pattern)
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
			if pattern == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if globMatch(pattern, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			s, pattern = s[1:], pattern[1:]
		default:
			if s == "" || s[0] != pattern[0] {
				return false
			}
			s, pattern = s[1:], pattern[1:]
		}
	}
	return s == ""
}

func (a *analyzer) initialState() *shell.State { return shell.NewState(a.env.Cwd) }

// script parses and analyses a shell script in state st. stdin describes
// what the script reads on standard input when that matters (nil: nothing
// known).
func (a *analyzer) script(src string, st *shell.State, _ *shell.Input) {
	if a.aborted {
		return
	}
	if a.srcDepth >= maxDepth {
		a.abort("the command nests scripts more than " + itoa(maxDepth) + " levels deep (bash -c, eval, $(...))")
		return
	}
	file, err := shell.Parse(src)
	if err != nil {
		a.add(finding{rule: policy.RuleBadInput, reason: "the command does not parse as a shell script: " + err.Error(),
			trigger: clip(src), alt: "fix the shell syntax (quotes, parentheses, here-documents) and try again"})
		return
	}
	savedSrc := a.x.Src
	a.x.Src = src
	a.srcDepth++
	a.stmts(file.Stmts, st)
	if a.srcDepth == 1 {
		a.uncalledFunctions()
		a.checkFileRuns()
	}
	a.srcDepth--
	a.x.Src = savedSrc
}

func (a *analyzer) abort(reason string) {
	if a.aborted {
		return
	}
	a.aborted = true
	a.add(finding{rule: policy.RuleBadInput, reason: reason, alt: "split the work into simpler commands or write a script file"})
}

func (a *analyzer) visit() bool {
	a.nodes++
	if a.nodes > maxNodes {
		a.abort("the command is too complex to analyse")
	}
	return !a.aborted
}

func (a *analyzer) stmts(list []*syntax.Stmt, st *shell.State) {
	for _, s := range list {
		if !a.visit() {
			return
		}
		a.stmt(s, st, false)
	}
}

// stmt analyses one statement. guarded is true when whatever follows in the
// same && chain runs only if this statement succeeds.
func (a *analyzer) stmt(s *syntax.Stmt, st *shell.State, guarded bool) {
	if s == nil || !a.visit() {
		return
	}
	in := a.redirects(s, st)
	a.command(s.Cmd, st, in, guarded || st.Errexit)
}

func (a *analyzer) command(cmd syntax.Command, st *shell.State, in *shell.Input, guarded bool) {
	if cmd == nil || !a.visit() {
		return
	}
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		a.callExpr(c, st, in, guarded)
	case *syntax.BinaryCmd:
		a.binaryCmd(c, st, in)
	case *syntax.Subshell:
		a.stmts(c.Stmts, st.Clone())
	case *syntax.Block:
		a.stmtsWithInput(c.Stmts, st, in)
	case *syntax.IfClause:
		a.ifClause(c, st)
	case *syntax.WhileClause:
		w := st.Weak()
		a.stmts(c.Cond, w)
		a.stmts(c.Do, w)
		st.Merge(w)
	case *syntax.ForClause:
		w := st.Weak()
		switch loop := c.Loop.(type) {
		case *syntax.WordIter:
			var vals []shell.Word
			if len(loop.Items) == 0 {
				vals = append(vals, st.PositionalAll()...)
				if st.PosUnknown || len(vals) == 0 {
					vals = append(vals, shell.Word{Dynamic: true, Src: "$@"})
				}
			}
			for _, it := range loop.Items {
				a.substitutions(it, st)
				for _, alt := range a.x.Expand(it, st) {
					vals = append(vals, alt...)
				}
			}
			a.identityTarget(nil, loop, st, loop.Name.Value, "for")
			w.Vars[loop.Name.Value] = shell.UnionWords(nil, vals)
		case *syntax.CStyleLoop:
			a.arithSubstitutions(loop, st)
		}
		a.stmts(c.Do, w)
		st.Merge(w)
	case *syntax.CaseClause:
		a.substitutions(c.Word, st)
		for _, item := range c.Items {
			w := st.Weak()
			a.stmts(item.Stmts, w)
			st.Merge(w)
		}
	case *syntax.FuncDecl:
		name := ""
		if c.Name != nil {
			name = c.Name.Value
		}
		if name == "" {
			// An anonymous zsh function runs right away.
			a.stmt(c.Body, st.Clone(), false)
			return
		}
		st.Funcs[name] = c
		a.declared = append(a.declared, declaredFunc{fn: c, st: st.Clone()})
	case *syntax.DeclClause:
		a.declClause(c, st)
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		a.substitutions(c, st)
	case *syntax.TimeClause:
		a.stmt(c.Stmt, st, guarded)
	case *syntax.CoprocClause:
		a.stmt(c.Stmt, st.Clone(), false)
	case *syntax.TestDecl:
		a.stmt(c.Body, st.Clone(), false)
	default:
		a.substitutions(c, st)
	}
}

func (a *analyzer) stmtsWithInput(list []*syntax.Stmt, st *shell.State, in *shell.Input) {
	for i, s := range list {
		if !a.visit() {
			return
		}
		if i == 0 && in != nil {
			sin := a.redirects(s, st)
			if sin == nil {
				sin = in
			}
			a.command(s.Cmd, st, sin, st.Errexit)
			continue
		}
		a.stmt(s, st, false)
	}
}

func (a *analyzer) ifClause(c *syntax.IfClause, st *shell.State) {
	a.stmts(c.Cond, st)
	w := st.Weak()
	a.stmts(c.Then, w)
	if c.Else != nil {
		e := st.Weak()
		if len(c.Else.Cond) > 0 {
			a.ifClause(c.Else, e)
		} else {
			a.stmts(c.Else.Then, e)
		}
		st.Merge(e)
	}
	st.Merge(w)
}

func (a *analyzer) binaryCmd(c *syntax.BinaryCmd, st *shell.State, in *shell.Input) {
	switch c.Op {
	case syntax.AndStmt:
		before, unknown := slices.Clone(st.Cwds), st.CwdUnknown
		a.stmt(c.X, st, true)
		a.stmt(c.Y, st, true)
		// If the chain failed early, later statements run in the old directory.
		st.SetCwds(append(before, st.Cwds...), unknown || st.CwdUnknown)
	case syntax.OrStmt:
		a.stmt(c.X, st, false)
		a.stmt(c.Y, st, false)
	case syntax.Pipe, syntax.PipeAll:
		stages := shell.PipelineStages(c)
		var prev *syntax.Stmt
		saved := a.stdinSecret
		for i, s := range stages {
			sub := st.Clone()
			var sin *shell.Input
			if i == 0 {
				sin = in
			} else {
				sin = a.outputOf(prev, st) // secret if prev's input or prev itself was
			}
			a.stdinSecret = ""
			if sin != nil {
				a.stdinSecret = sin.Secret
			}
			own := a.redirects(s, sub)
			if own != nil {
				sin = own
				a.stdinSecret = own.Secret
			}
			a.command(s.Cmd, sub, sin, false)
			prev = s
		}
		a.stdinSecret = saved
	}
}

func (a *analyzer) declClause(c *syntax.DeclClause, st *shell.State) {
	a.substitutions(c, st)
	variant := c.Variant.Value
	exported := variant == "export"
	for _, as := range c.Args {
		if as.Naked {
			if as.Name == nil && as.Value != nil {
				if w, ok := a.x.StaticWord(as.Value, st); ok && (w == "-x" || strings.HasPrefix(w, "-") && strings.Contains(w, "x")) {
					exported = true
				}
				continue
			}
			if as.Name != nil {
				a.identityTarget(nil, as, st, as.Name.Value, variant)
				if _, ok := st.Vars[as.Name.Value]; !ok {
					st.Assign(as.Name.Value, []shell.Word{{Dynamic: true, Src: "$" + as.Name.Value}})
				}
				if exported {
					a.envAssign(as.Name.Value, st.Vars[as.Name.Value], st, nil, as)
				}
			}
			continue
		}
		a.assignment(as, st, exported || variant == "declare" || variant == "typeset" || variant == "local" || variant == "readonly")
	}
}

// assignment handles NAME=value as a statement of its own or in a
// declaration.
func (a *analyzer) assignment(as *syntax.Assign, st *shell.State, declared bool) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	if as.Array != nil {
		var elems []shell.Word
		known := true
		for _, el := range as.Array.Elems {
			if el.Index != nil {
				known = false // [k]=v: sparse or associative
			}
			if el.Value == nil {
				continue
			}
			alts := a.x.Expand(el.Value, st)
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
	var val []shell.Word
	if as.Value == nil {
		val = []shell.Word{{Text: "", Src: ""}}
	} else {
		val = a.x.AssignValue(as.Value, st)
	}
	if as.Index != nil {
		delete(st.Arrays, name)
		val = []shell.Word{{Dynamic: true, Src: "$" + name}}
	} else if as.Append {
		val = appendValues(st.Vars[name], val, name)
	}
	st.Assign(name, val)
	a.envAssign(name, val, st, nil, as)
	_ = declared
}

func itoa(n int) string { return strconv.Itoa(n) }

// appendValues is x+=y: every known old value followed by every new one.
func appendValues(old, add []shell.Word, name string) []shell.Word {
	unknown := []shell.Word{{Dynamic: true, Src: "$" + name}}
	if old == nil {
		return unknown // the old value comes from the environment
	}
	var out []shell.Word
	for _, o := range old {
		for _, n := range add {
			if o.Dynamic || n.Dynamic {
				return unknown
			}
			out = append(out, shell.Word{Text: o.Text + n.Text, Glob: o.Glob || n.Glob})
		}
	}
	return shell.UnionWords(nil, out)
}

// excerptSpan returns the source text from the start of one node to the end
// of another, when both are in the script being analysed.
func (a *analyzer) excerptSpan(from, to syntax.Node) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	start, end := int(from.Pos().Offset()), int(to.End().Offset())
	if a.x.Src == "" || start < 0 || end > len(a.x.Src) || start >= end {
		return ""
	}
	return clip(a.x.Src[start:end])
}

// excerpt returns the source text of a node of the script being analysed.
// It is only a message: if a node's positions are unusable, it says nothing.
func (a *analyzer) excerpt(n syntax.Node) (s string) {
	if n == nil || a.x.Src == "" {
		return ""
	}
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(a.x.Src) || start >= end {
		return ""
	}
	return clip(a.x.Src[start:end])
}
