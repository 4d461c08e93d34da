package shell

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Word is one shell word after the expansion the analysis can do statically.
type Word struct {
	Text    string // the expanded text, quotes removed
	Dynamic bool   // part of the value is only known at run time
	Glob    bool   // unquoted glob metacharacters remain in s
	Net     bool   // dynamic text that comes from a network fetch
	Proc    bool   // a process substitution <(...)
	// Secret is where secret text in the word comes from (the
	// environment, gh auth token, a credential variable: package guard's
	// exfil.go recognises them); nil when none.
	Secret *effect.Source
	// Echoed marks text the guard computed from a $(echo ...) or similar:
	// known, but spelled to hide it, so never trusted as a command name.
	Echoed bool
	// Walk marks a pattern for what find visits: unlike a shell glob, it
	// includes hidden names (.git).
	Walk bool
	Src  string // the word as written, for messages
	// Tmpl is s with every unknown part replaced by unknownMark, so code in
	// a partly dynamic word (python -c "...$f...") can still be read.
	Tmpl string
}

// UnknownMark stands for an unknown part in arg.tmpl. A NUL byte cannot
// occur in a shell word, so it never collides with real text.
const UnknownMark = "\x00"

// Template returns the text of x with unknown parts marked.
func (x Word) Template() string {
	if !x.Dynamic {
		return x.Text
	}
	if x.Tmpl == "" {
		return UnknownMark
	}
	return x.Tmpl
}

// Static reports whether the value is fully known and is not a pattern.
func (x Word) Static() bool { return !x.Dynamic && !x.Glob }

// Show is how an argument appears in messages and allow-entry matching.
func (x Word) Show() string {
	if x.Dynamic && x.Src != "" {
		return x.Src
	}
	if x.Text == "" && x.Src != "" {
		return x.Src
	}
	return x.Text
}

// BraceWords expands the BraceExp parts of a word (after SplitBraces) into
// the words bash makes of it. nil means more than limit words.
func BraceWords(w *syntax.Word, limit int) []*syntax.Word {
	prefixes := [][]syntax.WordPart{{}}
	for _, part := range w.Parts {
		be, ok := part.(*syntax.BraceExp)
		if !ok {
			for i := range prefixes {
				prefixes[i] = append(prefixes[i], part)
			}
			continue
		}
		var elems [][]syntax.WordPart
		if be.Sequence {
			seq := BraceSequence(be, limit)
			if seq == nil {
				return nil
			}
			for _, v := range seq {
				elems = append(elems, []syntax.WordPart{&syntax.Lit{Value: v}})
			}
		} else {
			for _, e := range be.Elems {
				sub := BraceWords(e, limit)
				if sub == nil {
					return nil
				}
				for _, sw := range sub {
					elems = append(elems, sw.Parts)
				}
			}
		}
		next := make([][]syntax.WordPart, 0, len(prefixes)*len(elems))
		for _, p := range prefixes {
			for _, e := range elems {
				next = append(next, append(slices.Clone(p), e...))
			}
		}
		if len(next) > limit {
			return nil
		}
		prefixes = next
	}
	out := make([]*syntax.Word, len(prefixes))
	for i, p := range prefixes {
		out[i] = &syntax.Word{Parts: p}
	}
	return out
}

// BraceSequence expands {1..5}, {a..e}, {0..10..2} and {01..10} with
// mvdan/sh's own brace expansion, which does what bash does (zero padding,
// descending ranges, steps). nil means more than limit words.
func BraceSequence(be *syntax.BraceExp, limit int) []string {
	var out []string
	for w, err := range expand.BracesSeq(nil, &syntax.Word{Parts: []syntax.WordPart{be}}) {
		if err != nil || len(out) >= limit {
			return nil
		}
		out = append(out, w.Lit())
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// HasBraces reports whether a word may hold a brace expansion ({a,b},
// {1..3}): a literal part with both braces.
func HasBraces(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") && strings.Contains(l.Value, "}") {
			return true
		}
	}
	return false
}

// PatternRegexp compiles a shell pattern with mvdan/sh's own
// translation (bash's semantics: [!...], \x, character classes), to
// match a whole string.
func PatternRegexp(pat string) (*regexp.Regexp, error) {
	src, err := pattern.Regexp(pat, pattern.EntireString)
	if err != nil {
		return nil, err
	}
	return regexp.Compile(src)
}

// TrimPattern removes from s the shortest or longest prefix or suffix
// matching rx, as ${x#p}, ${x##p}, ${x%p} and ${x%%p} do (op says which).
func TrimPattern(s string, rx *regexp.Regexp, op syntax.ParExpOperator) string {
	match := func(c string) bool { return rx.MatchString(c) }
	switch op {
	case syntax.RemSmallPrefix:
		for i := 0; i <= len(s); i++ {
			if match(s[:i]) {
				return s[i:]
			}
		}
	case syntax.RemLargePrefix:
		for i := len(s); i >= 0; i-- {
			if match(s[:i]) {
				return s[i:]
			}
		}
	case syntax.RemSmallSuffix:
		for i := len(s); i >= 0; i-- {
			if match(s[i:]) {
				return s[:i]
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= len(s); i++ {
			if match(s[i:]) {
				return s[:i]
			}
		}
	}
	return s
}

// UnescapeUnquoted removes backslash quoting from an unquoted literal and
// reports whether unquoted glob metacharacters remain.
func UnescapeUnquoted(s string) (string, bool) {
	if !strings.ContainsAny(s, `\*?[`) {
		return s, false
	}
	var b strings.Builder
	glob := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
			b.WriteByte(s[i])
			continue
		}
		if c == '*' || c == '?' || c == '[' && strings.Contains(s[i+1:], "]") {
			glob = true
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// UnescapeDouble removes the backslashes that are quoting inside "...".
func UnescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
				b.WriteByte(s[i])
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ANSIC decodes $'...' quoting. expand.Literal is safe for this word shape:
// it has no substitutions to run.
func ANSIC(q *syntax.SglQuoted) string {
	s, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{q}})
	if err != nil {
		return q.Value
	}
	return s
}

// HasGlobMeta reports unquoted glob syntax; a lone "[" (the test command)
// is not a pattern.
func HasGlobMeta(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.Contains(s[i+1:], "]")
}

// WordLiteral is the quote-removed text of a word without expansions, or "".
func WordLiteral(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			t, _ := UnescapeUnquoted(x.Value)
			b.WriteString(t)
		case *syntax.SglQuoted:
			if x.Dollar {
				b.WriteString(ANSIC(x))
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(UnescapeDouble(l.Value))
			}
		default:
			return ""
		}
	}
	return b.String()
}

// MaxAlternatives bounds the statically known values one word may take;
// beyond it the word is unknown (dynamic).
const MaxAlternatives = 32
