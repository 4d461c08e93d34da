package keywords

import "strings"

// Index finds which of many keywords occur in a text in one pass.
// gitleaks builds an Aho-Corasick trie for this, which costs about 2.5 ms
// for the 244 default keywords on every start; this index costs almost
// nothing to build. A bit set over hashes of the keywords' first three
// bytes rejects almost every position of ordinary text with one lookup
// (two-byte keywords have a bit set of their own); the keywords that
// start with the position's byte are compared only where it lets through.
type Index struct {
	tri     [1 << 16 / 64]uint64 // hash3 of the first three bytes of keywords of 3 bytes and more
	pairs   [1 << 16 / 64]uint64 // two-byte keywords
	byFirst [256][]string        // keywords of 2 bytes and more by first byte
	single  [256]string          // one-byte keywords
	singles bool
	twos    bool // there are two-byte keywords
}

// lowerTab lower-cases ASCII letters.
var lowerTab = func() (t [256]byte) {
	for i := range t {
		t[i] = lowerASCII(byte(i))
	}
	return t
}()

func hash3(a, b, c byte) uint16 { return uint16(a)<<10 ^ uint16(b)<<5 ^ uint16(c) }

func set(bits *[1 << 16 / 64]uint64, h uint16) { bits[h/64] |= 1 << (h % 64) }

func has(bits *[1 << 16 / 64]uint64, h uint16) bool { return bits[h/64]&(1<<(h%64)) != 0 }

// NewIndex returns an index of keywords, which must be lower case.
func NewIndex(keywords []string) *Index {
	k := &Index{}
	for _, kw := range keywords {
		switch len(kw) {
		case 0:
		case 1:
			k.single[kw[0]], k.singles = kw, true
		case 2:
			k.twos = true
			set(&k.pairs, uint16(kw[0])<<8|uint16(kw[1]))
			k.byFirst[kw[0]] = append(k.byFirst[kw[0]], kw)
		default:
			set(&k.tri, hash3(kw[0], kw[1], kw[2]))
			k.byFirst[kw[0]] = append(k.byFirst[kw[0]], kw)
		}
	}
	return k
}

// maybe reports whether a keyword of two bytes or more may start at s[i],
// given the (lower-cased) bytes a, b and, when i+2 < len(s), c.
func (k *Index) maybe(a, b byte, c int) bool {
	if k.twos && has(&k.pairs, uint16(a)<<8|uint16(b)) {
		return true
	}
	return c >= 0 && has(&k.tri, hash3(a, b, byte(c)))
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
		c := -1
		if i+2 < len(lower) {
			c = int(lower[i+2])
		}
		if !k.maybe(lower[i], lower[i+1], c) {
			continue
		}
		for _, kw := range k.byFirst[lower[i]] {
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
		a := lowerTab[s[i]]
		if k.singles && k.single[a] != "" {
			return true
		}
		if i+1 == len(s) {
			break
		}
		b := lowerTab[s[i+1]]
		hit := k.twos && has(&k.pairs, uint16(a)<<8|uint16(b))
		if !hit && i+2 < len(s) {
			hit = has(&k.tri, hash3(a, b, lowerTab[s[i+2]]))
		}
		if !hit {
			continue
		}
		for _, kw := range k.byFirst[a] {
			if hasPrefixFold(s[i:], kw) {
				return true
			}
		}
	}
	return false
}
