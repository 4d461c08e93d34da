package keywords

import "strings"

// Index finds which of many keywords occur in a text in one pass.
// gitleaks builds an Aho-Corasick trie for this, which costs about 2.5 ms
// for the 244 default keywords on every start; this index costs almost
// nothing to build: keywords are grouped by their first two bytes, and a
// bit set over those pairs rejects most positions with one lookup.
type Index struct {
	pairs  [1 << 16 / 64]uint64 // bit set of the first two bytes of keywords
	byPair map[uint16][]string  // first two bytes → keywords starting with them
	single map[byte]string      // one-byte keywords
}

func NewIndex(keywords []string) *Index {
	k := &Index{byPair: map[uint16][]string{}, single: map[byte]string{}}
	for _, kw := range keywords {
		switch len(kw) {
		case 0:
		case 1:
			k.single[kw[0]] = kw
		default:
			p := uint16(kw[0])<<8 | uint16(kw[1])
			k.pairs[p/64] |= 1 << (p % 64)
			k.byPair[p] = append(k.byPair[p], kw)
		}
	}
	return k
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
	for i := 0; i+1 < len(lower); i++ {
		if len(k.single) > 0 {
			if kw, ok := k.single[lower[i]]; ok {
				report(kw)
			}
		}
		p := uint16(lower[i])<<8 | uint16(lower[i+1])
		if k.pairs[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, kw := range k.byPair[p] {
			if strings.HasPrefix(lower[i:], kw) {
				report(kw)
			}
		}
	}
	if n := len(lower); n > 0 && len(k.single) > 0 {
		if kw, ok := k.single[lower[n-1]]; ok {
			report(kw)
		}
	}
}
