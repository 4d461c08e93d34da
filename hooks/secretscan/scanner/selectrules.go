package scanner

import (
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect/codec"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
)

// analysis is what a piece of text needs from the compiler.
type analysis struct {
	rules []*ruleSource
	// decodes says the decoding passes can reveal something. When false,
	// Detect may skip them: they would find no encoded segment and stop.
	decodes bool
}

// analyse returns the rules gitleaks would run on text: those with a
// keyword in it, in any of the decoding passes Detect will make, plus the
// rules without keywords. Detect runs only keyword-hit rules anyway, so
// compiling just these changes no result.
func (c *catalogue) analyse(text string, decodeDepth int) analysis {
	hit := map[*ruleSource]bool{}
	a := analysis{rules: append([]*ruleSource(nil), c.always...)}
	for _, r := range a.rules {
		hit[r] = true
	}
	match := func(s string) {
		c.index.Each(strings.ToLower(s), func(kw string) {
			for _, r := range c.keywords[kw] {
				if !hit[r] {
					hit[r] = true
					a.rules = append(a.rules, r)
				}
			}
		})
	}
	match(text)
	if decodeDepth == 0 || !mayDecode(text) {
		return a
	}
	decoder := codec.NewDecoder()
	cur, segments := text, []*codec.EncodedSegment(nil)
	for depth := 1; depth <= decodeDepth; depth++ {
		cur, segments = decoder.Decode(cur, segments)
		if len(segments) == 0 {
			break
		}
		a.decodes = true
		match(cur)
	}
	return a
}

// mayDecode is keywords.MayDecode: false means gitleaks' decoder finds
// no segment in s, so Detect may skip decoding altogether.
func mayDecode(s string) bool { return keywords.MayDecode(s) }
