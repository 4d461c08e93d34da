package keywords

import "strings"

// Index finds which of many keywords occur in a text in one pass.
// gitleaks builds an Aho-Corasick trie for this, which costs about 2.5 ms
// for the 244 default keywords on every start; this index costs almost
// nothing to build: keywords are grouped by their first two bytes, and a
// bit set over those pairs rejects most positions with one lookup.
type Index struct {
	pairs   [1 << 16 / 64]uint64 // bit set of the first two bytes of keywords
	byFirst [256][]pairGroup     // first byte → groups by second byte
	single  [256]string          // one-byte keywords
	singles bool
}

// pairGroup holds the keywords that start with one pair of bytes.
type pairGroup struct {
	second   byte
	keywords []string
}

// NewIndex returns an index of keywords, which must be lower case.
func NewIndex(keywords []string) *Index {
	k := &Index{}
	for _, kw := range keywords {
		switch len(kw) {
		case 0:
		case 1:
			k.single[kw[0]], k.singles = kw, true
		default:
			p := uint16(kw[0])<<8 | uint16(kw[1])
			k.pairs[p/64] |= 1 << (p % 64)
			k.add(kw)
		}
	}
	return k
}

func (k *Index) add(kw string) {
	gs := k.byFirst[kw[0]]
	for i := range gs {
		if gs[i].second == kw[1] {
			gs[i].keywords = append(gs[i].keywords, kw)
			return
		}
	}
	k.byFirst[kw[0]] = append(gs, pairGroup{second: kw[1], keywords: []string{kw}})
}

// starting returns the keywords that start with the bytes a and b.
func (k *Index) starting(a, b byte) []string {
	p := uint16(a)<<8 | uint16(b)
	if k.pairs[p/64]&(1<<(p%64)) == 0 {
		return nil
	}
	for _, g := range k.byFirst[a] {
		if g.second == b {
			return g.keywords
		}
	}
	return nil
}

// Each calls visit once for every keyword that occurs in lower, a text
// already lower-cased the way gitleaks lower-cases fragments.
func (k *Index) Each(lower string, visit func(keyword string)) {
	seen := map[string]bool{}
	report := func(kw string) {
		if !seen[kw] {
			seen[kw] = true
			visit(kw)
		}
	}
	for i := 0; i < len(lower); i++ {
		if k.singles && k.single[lower[i]] != "" {
			report(k.single[lower[i]])
		}
		if i+1 == len(lower) {
			break
		}
		for _, kw := range k.starting(lower[i], lower[i+1]) {
			if strings.HasPrefix(lower[i:], kw) {
				report(kw)
			}
		}
	}
}

// AnyFold reports whether any keyword occurs in s, an ASCII text, in any
// ASCII case: whether Each would visit anything for strings.ToLower(s).
func (k *Index) AnyFold(s string) bool {
	for i := 0; i < len(s); i++ {
		c := lowerASCII(s[i])
		if k.singles && k.single[c] != "" {
			return true
		}
		if i+1 == len(s) {
			break
		}
		for _, kw := range k.starting(c, lowerASCII(s[i+1])) {
			if hasPrefixFold(s[i:], kw) {
				return true
			}
		}
	}
	return false
}
