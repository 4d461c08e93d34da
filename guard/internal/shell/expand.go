package shell

import (
	"mvdan.cc/sh/v3/pattern"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// piece is an intermediate chunk of a word.
type piece struct {
	text    string
	quoted  bool
	split   bool   // unquoted expansion: subject to field splitting
	ifs     string // the field separators when split ("" means the default)
	dynamic bool
	glob    bool
	net     bool
	proc    bool
	echoed  bool
	secret  *effect.Source
	fields  []Word // "$@": several ready-made fields
}

// builder accumulates the fields of one alternative expansion of a word.
type builder struct {
	fields []Word
	cur    Word
	has    bool // cur has content or a quoted part
}

// MaxValueBytes caps what one expanded word may grow to. Literal text is
// bounded by the command's own length; only expansion can grow beyond it
// (x=$x$x repeated doubles without end), and then the value is unknown.
// It equals guard.MaxCommandBytes (TestShellLimits pins it).
const MaxValueBytes = 256 << 10

func (b builder) add(p piece) builder {
	if len(b.cur.Text)+len(p.text) > MaxValueBytes {
		b.cur = Word{Dynamic: true, Tmpl: UnknownMark}
		b.has = true
		return b
	}
	if p.fields != nil {
		// "$@" style: the first field joins the current one, the rest stand alone.
		for i, f := range p.fields {
			if i == 0 {
				b.cur.Text += f.Text
				b.cur.Tmpl += f.Template()
				b.cur.Dynamic = b.cur.Dynamic || f.Dynamic
				b.cur.Glob = b.cur.Glob || f.Glob
				b.cur.Echoed = b.cur.Echoed || f.Echoed
				b.cur.Net = b.cur.Net || f.Net
				if f.Secret != nil {
					b.cur.Secret = f.Secret
				}
				b.has = true
				continue
			}
			b.fields = append(b.fields, b.cur)
			b.cur, b.has = f, true
		}
		return b
	}
	ifs := p.ifs
	if ifs == "" {
		ifs = " \t\n"
	}
	if p.split && !p.dynamic && strings.ContainsAny(p.text, ifs) {
		chunks := strings.FieldsFunc(p.text, func(r rune) bool { return strings.ContainsRune(ifs, r) })
		leading := strings.ContainsAny(p.text[:1], ifs)
		for i, c := range chunks {
			if i > 0 || leading {
				if b.has {
					b.fields = append(b.fields, b.cur)
				}
				b.cur, b.has = Word{}, false
			}
			b.cur.Text += c
			b.cur.Tmpl += c
			b.cur.Glob = b.cur.Glob || HasGlobMeta(c)
			b.cur.Echoed = b.cur.Echoed || p.echoed
			if p.secret != nil {
				b.cur.Secret = p.secret
			}
			b.has = true
		}
		if strings.ContainsAny(p.text[len(p.text)-1:], ifs) && b.has {
			b.fields = append(b.fields, b.cur)
			b.cur, b.has = Word{}, false
		}
		return b
	}
	b.cur.Text += p.text
	if p.dynamic {
		b.cur.Tmpl += UnknownMark
	} else {
		b.cur.Tmpl += p.text
	}
	b.cur.Dynamic = b.cur.Dynamic || p.dynamic
	b.cur.Glob = b.cur.Glob || p.glob
	b.cur.Net = b.cur.Net || p.net
	b.cur.Proc = b.cur.Proc || p.proc
	b.cur.Echoed = b.cur.Echoed || p.echoed
	if p.secret != nil {
		b.cur.Secret = p.secret
	}
	if p.quoted || p.text != "" || p.dynamic {
		b.has = true
	}
	return b
}

func (b builder) finish(src string) []Word {
	out := b.fields
	if b.has {
		out = append(out, b.cur)
	}
	for i := range out {
		out[i].Src = src
	}
	return out
}

// Expand expands a word into its possible values; each alternative is a
// list of fields (an unquoted expansion may split into several arguments).
func (ex *Expander) Expand(w *syntax.Word, st *State) [][]Word {
	if w == nil {
		return nil
	}
	src := ex.Source(w)
	if HasBraces(w) {
		// SplitBraces rewrites the word in place; split a copy so the AST
		// keeps valid positions for messages ({,*} yields empty words).
		c := &syntax.Word{Parts: slices.Clone(w.Parts)}
		syntax.SplitBraces(c)
		words := BraceWords(c, MaxAlternatives)
		if words == nil {
			return [][]Word{{{Dynamic: true, Glob: true, Src: src}}}
		}
		if len(words) > 1 {
			// Brace expansion makes separate words: {git,push,-f} is
			// three arguments, and comes before every other expansion.
			return ex.expandWords(words, st, src)
		}
		w = words[0]
	}
	bs := []builder{{}}
	bs = ex.addParts(bs, w.Parts, false, st, true)
	if len(bs) > MaxAlternatives {
		return [][]Word{{{Dynamic: true, Src: src}}}
	}
	out := make([][]Word, 0, len(bs))
	for _, b := range bs {
		out = append(out, b.finish(src))
	}
	return out
}

// expandWords expands the words a brace expansion made and concatenates
// their fields.
func (ex *Expander) expandWords(words []*syntax.Word, st *State, src string) [][]Word {
	alts := [][]Word{nil}
	for _, w := range words {
		wa := ex.Expand(w, st)
		var next [][]Word
		for _, prefix := range alts {
			for _, alt := range wa {
				next = append(next, append(slices.Clone(prefix), alt...))
			}
		}
		if len(next) > MaxAlternatives {
			return [][]Word{{{Dynamic: true, Src: src}}}
		}
		alts = next
	}
	for _, alt := range alts {
		for i := range alt {
			alt[i].Src = src
		}
	}
	return alts
}

// AssignValue expands the right side of NAME=value: no field splitting.
func (ex *Expander) AssignValue(w *syntax.Word, st *State) []Word {
	var vals []Word
	for _, alt := range ex.Expand(w, st) {
		if len(alt) == 0 {
			vals = append(vals, Word{Src: ex.Source(w)})
			continue
		}
		joined := alt[0]
		for _, f := range alt[1:] {
			joined.Text += " " + f.Text
			joined.Dynamic = joined.Dynamic || f.Dynamic
			joined.Glob = false
		}
		joined.Glob = false // assignment values are not globbed
		vals = append(vals, joined)
	}
	if special := ex.specialSubstValue(w, st); special != nil {
		return special
	}
	return UnionWords(nil, vals)
}

// StaticWord returns the value of a word that expands to exactly one known,
// non-pattern field.
func (ex *Expander) StaticWord(w *syntax.Word, st *State) (string, bool) {
	alts := ex.Expand(w, st)
	if len(alts) != 1 || len(alts[0]) != 1 || !alts[0][0].Static() {
		return "", false
	}
	return alts[0][0].Text, true
}

func (ex *Expander) addParts(bs []builder, parts []syntax.WordPart, quoted bool, st *State, first bool) []builder {
	for i, part := range parts {
		var ps []piece
		switch p := part.(type) {
		case *syntax.Lit:
			if quoted {
				ps = []piece{{text: UnescapeDouble(p.Value), quoted: true}}
			} else {
				text, glob := UnescapeUnquoted(p.Value)
				if first && i == 0 && strings.HasPrefix(p.Value, "~") {
					text, glob = ex.tilde(p.Value, st)
					if text == "" {
						ps = []piece{{dynamic: true}}
						break
					}
				}
				ps = []piece{{text: text, glob: glob}}
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				ps = []piece{{text: ANSIC(p), quoted: true}}
			} else {
				ps = []piece{{text: p.Value, quoted: true}}
			}
		case *syntax.DblQuoted:
			nested := ex.addParts([]builder{{}}, p.Parts, true, st, false)
			// Each nested alternative joins the word: its first field continues
			// the current field, further fields ("$@") stand alone.
			var out []builder
			for _, b := range bs {
				for _, nb := range nested {
					fields := nb.fields
					if nb.has {
						fields = append(fields, nb.cur)
					}
					switch {
					case len(fields) > 0:
						out = append(out, b.add(piece{fields: fields}))
					case quotedAtOnly(p):
						out = append(out, b) // "$@" with no parameters: no field at all
					default:
						out = append(out, b.add(piece{quoted: true})) // "": an empty field
					}
				}
			}
			bs = capBuilders(out)
			continue
		case *syntax.ParamExp:
			if p.Short && !quoted && i+1 < len(parts) && zshModifier(parts[i+1]) {
				// $x:h is $x then ":h" in bash but x's dirname in zsh,
				// and Claude Code may run either
				ps = []piece{{dynamic: true}}
				break
			}
			ps = ex.paramPieces(p, quoted, st)
		case *syntax.CmdSubst:
			secret := ex.Tools.SecretSource(p.Stmts, st)
			if v := ex.substValue(p.Stmts, st); v != nil {
				for _, x := range v {
					ps = append(ps, piece{text: x.Text, glob: (x.Glob || x.Echoed && HasGlobMeta(x.Text)) && !quoted, quoted: quoted, dynamic: x.Dynamic,
						echoed: x.Echoed, split: x.Echoed && !quoted, ifs: ex.ifs(st), secret: secret})
				}
				break
			}
			ps = []piece{{dynamic: true, net: Fetches(p.Stmts), quoted: quoted, secret: secret}}
		case *syntax.ProcSubst:
			ps = []piece{{dynamic: true, proc: true, net: Fetches(p.Stmts), quoted: true}}
		case *syntax.ArithmExp:
			ps = []piece{{dynamic: true, quoted: quoted}}
		case *syntax.ExtGlob:
			ps = []piece{{text: p.Op.String() + p.Pattern.Value + ")", glob: true}}
		case *syntax.BraceExp:
			ps = ex.bracePieces(p, st)
		default:
			ps = []piece{{dynamic: true, quoted: quoted}}
		}
		if len(ps) == 0 {
			// A variable known to be unset expands to nothing; the rest of
			// the word stays: $TMPDIR/x is /x when TMPDIR is unset.
			ps = []piece{{quoted: quoted}}
		}
		var out []builder
		for _, b := range bs {
			for _, pc := range ps {
				out = append(out, b.add(pc))
			}
		}
		bs = capBuilders(out)
	}
	return bs
}

// zshModifier reports whether a word part starts with a zsh history
// modifier such as :h, :t or :r.
func zshModifier(part syntax.WordPart) bool {
	lit, ok := part.(*syntax.Lit)
	return ok && len(lit.Value) >= 2 && lit.Value[0] == ':' && strings.IndexByte("hteraAcluqQsgP&", lit.Value[1]) >= 0
}

// quotedAtOnly reports whether a "..." word part is exactly "$@".
func quotedAtOnly(q *syntax.DblQuoted) bool {
	if len(q.Parts) != 1 {
		return false
	}
	pe, ok := q.Parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "@"
}

func capBuilders(bs []builder) []builder {
	if len(bs) > MaxAlternatives {
		return []builder{{cur: Word{Dynamic: true}, has: true}}
	}
	return bs
}

func (ex *Expander) bracePieces(b *syntax.BraceExp, st *State) []piece {
	if b.Sequence {
		// mvdan/sh expands sequences as bash does: {01..03} keeps the
		// zero padding, {a..e} letters, {9..1..2} steps and descends.
		var ps []piece
		for w, err := range expand.BracesSeq(nil, &syntax.Word{Parts: []syntax.WordPart{b}}) {
			if err != nil || len(ps) >= MaxAlternatives {
				return []piece{{text: "*", glob: true}}
			}
			ps = append(ps, piece{text: w.Lit()})
		}
		if len(ps) == 0 {
			return []piece{{text: "*", glob: true}}
		}
		return ps
	}
	var ps []piece
	for _, el := range b.Elems {
		for _, alt := range ex.Expand(el, st) {
			txt, dyn, glob := "", false, false
			for i, f := range alt {
				if i > 0 {
					txt += " "
				}
				txt += f.Text
				dyn = dyn || f.Dynamic
				glob = glob || f.Glob
			}
			ps = append(ps, piece{text: txt, dynamic: dyn, glob: glob})
		}
	}
	return ps
}

// tilde expands ~ and ~/x; "" means the value is unknown (~user, ~-).
func (ex *Expander) tilde(lit string, st *State) (string, bool) {
	rest := lit[1:]
	name, tail, _ := strings.Cut(rest, "/")
	if strings.Contains(rest, "/") {
		tail = "/" + tail
	}
	text, glob := UnescapeUnquoted(tail)
	switch name {
	case "":
		home := ex.Env.Home
		if v, ok := st.Vars["HOME"]; ok {
			if len(v) != 1 || !v[0].Static() {
				return "", false
			}
			home = v[0].Text
		}
		if home == "" {
			return "", false
		}
		return home + text, glob
	case "+":
		if len(st.Cwds) == 1 && !st.CwdUnknown {
			return st.Cwds[0] + text, glob
		}
	case "-":
	default:
		// ~user: the guard cannot read the password database, so it takes
		// the user's home to sit beside the agent's own (/home/bob next to
		// /home/agent, /Users/bob next to /Users/agent). A guess, but one
		// that keeps ~agent/.ssh a secret and ~bob an outside path.
		if ex.Env.Home == "" || strings.ContainsAny(name, "$`\\\"'*?[") {
			return "", false
		}
		if name == path.Base(ex.Env.Home) {
			return ex.Env.Home + text, glob
		}
		if name == "root" {
			return "/root" + text, glob
		}
		homes := path.Dir(ex.Env.Home)
		if homes == "/" {
			homes = "/home" // the agent runs as root: users live in /home
		}
		return path.Join(homes, name) + text, glob
	}
	return "", false
}

// paramPieces expands $name, ${name} and the few ${name...} forms whose
// result can be known statically.
func (ex *Expander) paramPieces(p *syntax.ParamExp, quoted bool, st *State) []piece {
	dyn := []piece{{dynamic: true, quoted: quoted}}
	if p.Index != nil && p.Param != nil && !p.Excl && !p.Length && p.Exp == nil && p.Slice == nil && p.Repl == nil {
		return ex.arrayPieces(p, quoted, st)
	}
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.NestedParam != nil ||
		p.Flags != nil || len(p.Modifiers) > 0 || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return dyn
	}
	name := p.Param.Value
	vals, known := ex.Lookup(name, st)
	if sec := ex.Tools.VarSecret(name, st); sec != nil {
		dyn = []piece{{dynamic: true, quoted: quoted, secret: sec}}
	}
	if name == "@" || name == "*" {
		if !known {
			return dyn
		}
		if quoted && name == "@" {
			if len(vals) == 0 {
				return []piece{{quoted: false}}
			}
			return []piece{{fields: vals}}
		}
		joined := make([]string, len(vals))
		for i, v := range vals {
			joined[i] = v.Text
		}
		return []piece{{text: strings.Join(joined, " "), split: !quoted, quoted: quoted}}
	}
	if p.Exp != nil {
		return ex.expansionPieces(p, vals, known, quoted, st)
	}
	if !known {
		return dyn
	}
	ifs := ex.ifs(st)
	ps := make([]piece, 0, len(vals))
	for _, v := range vals {
		// A value that stands for the files a pattern matched (for f in
		// *.sh) is each of those files quoted or not: "$f" is not the
		// literal text *.sh. Pattern characters in a plain value glob
		// only unquoted.
		ps = append(ps, piece{text: v.Text, dynamic: v.Dynamic, glob: v.Glob || HasGlobMeta(v.Text) && !quoted, split: !quoted, ifs: ifs, quoted: quoted, net: v.Net, echoed: v.Echoed, secret: v.Secret})
	}
	return ps
}

// ifs returns the field separators of unquoted expansions: $IFS when the
// command set it, else the default blanks.
func (ex *Expander) ifs(st *State) string {
	v, ok := st.Vars["IFS"]
	if !ok || len(v) != 1 || v[0].Dynamic {
		return ""
	}
	if v[0].Text == "" {
		return "\x00" // IFS= disables splitting; NUL never occurs in a value
	}
	return v[0].Text
}

// arrayPieces expands ${arr[@]}, ${arr[*]} and ${arr[N]}.
func (ex *Expander) arrayPieces(p *syntax.ParamExp, quoted bool, st *State) []piece {
	dyn := []piece{{dynamic: true, quoted: quoted}}
	elems, ok := st.Arrays[p.Param.Value]
	idx, isWord := p.Index.(*syntax.Word)
	if !ok || !isWord {
		return dyn
	}
	switch lit := WordLiteral(idx); lit {
	case "@", "*":
		if quoted && lit == "@" {
			if len(elems) == 0 {
				return []piece{{quoted: false}}
			}
			return []piece{{fields: elems}}
		}
		parts := make([]string, len(elems))
		for i, e := range elems {
			if e.Dynamic {
				return dyn
			}
			parts[i] = e.Text
		}
		return []piece{{text: strings.Join(parts, " "), split: !quoted, quoted: quoted}}
	default:
		n, err := strconv.Atoi(lit)
		if err != nil || n < 0 {
			return dyn
		}
		if n >= len(elems) {
			return []piece{{quoted: quoted}}
		}
		e := elems[n]
		return []piece{{text: e.Text, dynamic: e.Dynamic, glob: e.Glob && !quoted, split: !quoted, quoted: quoted}}
	}
}

func (ex *Expander) expansionPieces(p *syntax.ParamExp, vals []Word, known, quoted bool, st *State) []piece {
	dyn := []piece{{dynamic: true, quoted: quoted}}
	op := p.Exp.Op
	wordVals := func() []piece {
		if p.Exp.Word == nil {
			return []piece{{quoted: quoted}}
		}
		var ps []piece
		for _, alt := range ex.Expand(p.Exp.Word, st) {
			for _, f := range alt {
				ps = append(ps, piece{text: f.Text, dynamic: f.Dynamic, glob: f.Glob && !quoted, split: !quoted, quoted: quoted})
			}
			if len(alt) == 0 {
				ps = append(ps, piece{quoted: quoted})
			}
		}
		return ps
	}
	switch op {
	case syntax.DefaultUnsetOrNull, syntax.DefaultUnset, syntax.AssignUnsetOrNull, syntax.AssignUnset:
		if !known {
			return dyn
		}
		var ps []piece
		empty := false
		for _, v := range vals {
			if v.Text == "" && !v.Dynamic {
				empty = true
				continue
			}
			ps = append(ps, piece{text: v.Text, dynamic: v.Dynamic, glob: v.Glob && !quoted, split: !quoted, quoted: quoted})
		}
		if empty || len(ps) == 0 {
			ps = append(ps, wordVals()...)
		}
		return ps
	case syntax.AlternateUnsetOrNull, syntax.AlternateUnset:
		if !known {
			return dyn
		}
		if len(vals) == 0 {
			return []piece{{quoted: quoted}} // unset: the alternative is empty
		}
		var ps []piece
		for _, v := range vals {
			if v.Dynamic {
				return dyn
			}
			if v.Text == "" {
				ps = append(ps, piece{quoted: quoted})
			} else {
				ps = append(ps, wordVals()...)
			}
		}
		return ps
	case syntax.ErrorUnsetOrNull, syntax.ErrorUnset:
		if !known {
			return dyn
		}
		var ps []piece
		for _, v := range vals {
			ps = append(ps, piece{text: v.Text, dynamic: v.Dynamic, split: !quoted, quoted: quoted})
		}
		return ps
	case syntax.OtherParamOps:
		// ${x@P} expands x like a prompt: its $(...) runs.
		if p.Exp.Word != nil && p.Exp.Word.Lit() == "P" {
			if !known {
				return dyn
			}
			for _, v := range vals {
				ex.Tools.PromptString(&Invocation{Name: "${" + p.Param.Value + "@P}", State: st, Node: p}, v, st)
			}
		}
		return dyn
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		if !known || p.Exp.Word == nil {
			return dyn
		}
		pat, ok := ex.staticPattern(p.Exp.Word, st)
		if !ok {
			return dyn
		}
		rx, err := PatternRegexp(pat)
		if err != nil {
			return dyn
		}
		var ps []piece
		for _, v := range vals {
			if v.Dynamic {
				return dyn
			}
			ps = append(ps, piece{text: TrimPattern(v.Text, rx, op), split: !quoted, quoted: quoted})
		}
		return ps
	}
	return dyn
}

// staticPattern returns the shell pattern of a ${x#pattern} word, quoting
// kept: in bash "\*" and '*' are a literal star, a bare * matches
// anything, and an unquoted expansion is itself a pattern.
func (ex *Expander) staticPattern(w *syntax.Word, st *State) (string, bool) {
	var b strings.Builder
	var part func(p syntax.WordPart, quoted bool) bool
	part = func(p syntax.WordPart, quoted bool) bool {
		switch x := p.(type) {
		case *syntax.Lit:
			if quoted {
				b.WriteString(pattern.QuoteMeta(x.Value, 0))
			} else {
				b.WriteString(x.Value) // backslash escapes stay escapes
			}
		case *syntax.SglQuoted:
			b.WriteString(pattern.QuoteMeta(x.Value, 0))
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if !part(q, true) {
					return false
				}
			}
		case *syntax.ParamExp:
			alts := ex.Expand(&syntax.Word{Parts: []syntax.WordPart{x}}, st)
			if len(alts) != 1 || len(alts[0]) > 1 || len(alts[0]) == 1 && alts[0][0].Dynamic {
				return false
			}
			if len(alts[0]) == 1 {
				v := alts[0][0].Text
				if quoted {
					v = pattern.QuoteMeta(v, 0)
				}
				b.WriteString(v)
			}
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !part(p, false) {
			return "", false
		}
	}
	return b.String(), true
}

// Lookup returns the known values of a variable or special parameter.
func (ex *Expander) Lookup(name string, st *State) ([]Word, bool) {
	switch name {
	case "@", "*":
		if st.PosUnknown {
			return nil, false
		}
		return st.Positional, true
	case "#", "?", "$", "!", "-", "_", "RANDOM", "LINENO", "SECONDS", "BASHPID", "PPID", "EPOCHSECONDS":
		return nil, false
	}
	if n, err := strconv.Atoi(name); err == nil {
		if n == 0 {
			if v, ok := st.Vars["0"]; ok {
				return v, true
			}
			return nil, false
		}
		if st.PosUnknown {
			return nil, false
		}
		if n-1 < len(st.Positional) {
			return st.Positional[n-1 : n], true
		}
		return []Word{{}}, true
	}
	if v, ok := st.Vars[name]; ok {
		for _, x := range v {
			if x.Dynamic && x.Text == "" {
				return nil, false
			}
		}
		return v, true
	}
	switch name {
	case "HOME":
		if ex.Env.Home != "" {
			return []Word{{Text: ex.Env.Home}}, true
		}
	case "PWD":
		if st.CwdUnknown {
			return nil, false
		}
		vals := make([]Word, len(st.Cwds))
		for i, c := range st.Cwds {
			vals[i] = Word{Text: c}
		}
		return vals, true
	}
	if v, ok := ex.Env.Vars[name]; ok {
		return []Word{{Text: v}}, true
	}
	if ex.Env.Unset[name] {
		// Known to be unset in the agent's shell: ${TMPDIR:-/tmp} is /tmp.
		return nil, true
	}
	return nil, false
}

// substValue knows the output of a few command substitutions that scripts
// use to build paths: $(pwd), $(mktemp), $(git rev-parse --show-toplevel).
func (ex *Expander) substValue(stmts []*syntax.Stmt, st *State) []Word {
	if len(stmts) != 1 {
		return nil
	}
	if text, ok := ex.Tools.KnownOutput(stmts[0], st); ok {
		return []Word{{Text: strings.TrimRight(text, "\n"), Echoed: true}}
	}
	ce, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(ce.Assigns) > 0 {
		return nil
	}
	// The name first, and the operands only for a command whose output is
	// known here: expanding the operands of any other command would expand
	// their substitutions once more after KnownOutput did, twice per level
	// of nesting, which made $(cat $(cat …)) cost 2^depth. A name that is
	// itself a command's output was just expanded by KnownOutput: it is not
	// one of these commands' literal names.
	if hasSubst(ce.Args[0]) {
		return nil
	}
	name, ok := ex.StaticWord(ce.Args[0], st)
	value := knownValues[path.Base(name)]
	if !ok || value == nil {
		return nil
	}
	words := []string{name}
	for _, w := range ce.Args[1:] {
		s, ok := ex.StaticWord(w, st)
		if !ok {
			return nil
		}
		words = append(words, s)
	}
	return value(ex, words, st)
}

// knownValues are the commands whose output substValue works out, by
// name: each gets the command's words (its name first).
var knownValues = map[string]func(ex *Expander, words []string, st *State) []Word{
	"dirname":  pathPartValue,
	"basename": pathPartValue,
	"pwd":      pwdValue,
	"mktemp":   func(ex *Expander, words []string, st *State) []Word { return []Word{ex.mktempValue(words[1:], st)} },
	"git":      gitToplevelValue,
}

// pathPartValue: dirname and basename are pure string functions of their
// operand; cd "$(dirname "$0")" is how scripts find their own directory.
func pathPartValue(_ *Expander, words []string, _ *State) []Word {
	if len(words) != 2 || strings.HasPrefix(words[1], "-") {
		return nil
	}
	p := strings.TrimRight(words[1], "/")
	switch {
	case p == "":
		p = "/"
	case path.Base(words[0]) == "dirname":
		p = path.Dir(p)
	default:
		p = path.Base(p)
	}
	return []Word{{Text: p}}
}

func pwdValue(_ *Expander, _ []string, st *State) []Word {
	if st.CwdUnknown {
		return nil
	}
	vals := make([]Word, len(st.Cwds))
	for i, c := range st.Cwds {
		vals[i] = Word{Text: c}
	}
	return vals
}

// gitToplevelValue: git rev-parse --show-toplevel run inside the worktree
// is its root.
func gitToplevelValue(ex *Expander, words []string, st *State) []Word {
	if len(words) != 3 || words[1] != "rev-parse" || words[2] != "--show-toplevel" || st.Remote || ex.Env.Root == "" {
		return nil
	}
	for _, c := range st.Cwds {
		if !UnderRoot(c, ex.Env.Root) {
			return nil
		}
	}
	if st.CwdUnknown {
		return nil
	}
	return []Word{{Text: ex.Env.Root}}
}

// mktempValue is "some new file under the temp dir": a glob that the path
// classification sees as writable.
func (ex *Expander) mktempValue(args []string, st *State) Word {
	dir := ex.tempDir()
	tmpl := ""
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "-p" || w == "--tmpdir":
			if i+1 < len(args) {
				dir = args[i+1]
				i++
			}
		case strings.HasPrefix(w, "--tmpdir="):
			dir = strings.TrimPrefix(w, "--tmpdir=")
		case strings.HasPrefix(w, "-p") && len(w) > 2:
			dir = w[2:]
		case strings.HasPrefix(w, "-"):
		default:
			tmpl = w
		}
	}
	if tmpl != "" {
		base := strings.TrimRight(tmpl, "X")
		if strings.Contains(tmpl, "/") && !strings.Contains(strings.Join(args, " "), "-t") {
			return Word{Text: CleanJoin(st.FirstCwd(ex.Env.Cwd), base) + "*", Glob: true}
		}
		return Word{Text: strings.TrimSuffix(dir, "/") + "/" + path.Base(base) + "*", Glob: true}
	}
	return Word{Text: strings.TrimSuffix(dir, "/") + "/tmp.*", Glob: true}
}

func (ex *Expander) tempDir() string {
	if v, ok := ex.Env.Vars["TMPDIR"]; ok && v != "" {
		return v
	}
	if ex.Env.Temp != "" {
		return ex.Env.Temp
	}
	return "/tmp"
}

// specialSubstValue handles x=$(mktemp) and friends in assignments.
func (ex *Expander) specialSubstValue(w *syntax.Word, st *State) []Word {
	if len(w.Parts) != 1 {
		if len(w.Parts) == 1 {
			return nil
		}
		return nil
	}
	var cs *syntax.CmdSubst
	switch p := w.Parts[0].(type) {
	case *syntax.CmdSubst:
		cs = p
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			cs, _ = p.Parts[0].(*syntax.CmdSubst)
		}
	}
	if cs == nil {
		return nil
	}
	return ex.substValue(cs.Stmts, st)
}

// Source returns a word as written.
func (ex *Expander) Source(w *syntax.Word) string {
	if w == nil || len(w.Parts) == 0 {
		return ""
	}
	start, end := int(w.Pos().Offset()), int(w.End().Offset())
	if ex.Src != "" && start >= 0 && end <= len(ex.Src) && start < end {
		return ex.Src[start:end]
	}
	var b strings.Builder
	syntax.NewPrinter(syntax.Minify(true)).Print(&b, w)
	return b.String()
}

// Fetchers download content from the network.
var Fetchers = map[string]bool{
	"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "xh": true, "xhs": true,
	"aria2c": true, "lwp-request": true, "GET": true, "POST": true, "nc": true, "ncat": true, "netcat": true,
	"socat": true, "ftp": true, "tftp": true, "lynx": true, "links": true, "w3m": true, "httpie": true,
	"gh": false, "scp": true, "rsync": false, "Invoke-WebRequest": true, "iwr": true,
}

// Fetches reports whether any simple command in stmts downloads content.
func Fetches(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if found {
				return false
			}
			if ce, ok := n.(*syntax.CallExpr); ok {
				for _, w := range ce.Args {
					if lit := WordLiteral(w); Fetchers[path.Base(lit)] {
						found = true
						return false
					}
				}
			}
			return true
		})
	}
	return found
}
