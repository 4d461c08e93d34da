package keywords

import "strings"

// Necessary conditions of some default rules' patterns, checked by hand:
// a text that fails a rule's condition holds no match of its regex. The
// scanner uses them to skip regexes that cost much on ordinary code
// (scanner/solo.go, scanner/window.go); Clean uses them to spare the hook
// the scanner altogether. Each is proven in its comment for the pattern
// in Proven, and TestSoloConditionsAreNecessary and
// TestMayGenericIsNecessary (scanner package) check it against the regex
// on generated near misses.

// GenericWords are the words a match of the generic rule holds (lower
// case; "passw" stands for passwd and password, "api" for api, Api and
// API).
var GenericWords = []string{"access", "auth", "api", "credential", "creds", "key", "passw", "secret", "token"}

// GenericWordAt returns the length of the generic word (genericWords, any
// ASCII case) that starts at s[i], or 0.
func GenericWordAt(s string, i int) int {
	if !genericFirst[s[i]] {
		return 0
	}
	var cands []string
	switch lowerASCII(s[i]) {
	case 'a':
		cands = genericA
	case 'c':
		cands = genericC
	case 'k':
		cands = genericK
	case 'p':
		cands = genericP
	case 's':
		cands = genericS
	case 't':
		cands = genericT
	default:
		return 0
	}
	for _, w := range cands {
		if len(s)-i >= len(w) && hasPrefixFold(s[i+1:], w[1:]) {
			return len(w)
		}
	}
	return 0
}

// genericFirst marks the first letters of genericWords, in both cases.
var genericFirst = [256]bool{'a': true, 'c': true, 'k': true, 'p': true, 's': true, 't': true,
	'A': true, 'C': true, 'K': true, 'P': true, 'S': true, 'T': true}

// genericTri holds hash3 of the first three letters of GenericWords.
var genericTri = func() (bits [1 << 16 / 64]uint64) {
	for _, w := range GenericWords {
		set(&bits, hash3(w[0], w[1], w[2]))
	}
	return bits
}()

// genericWords by first letter.
var (
	genericA = []string{"access", "auth", "api"}
	genericC = []string{"credential", "creds"}
	genericK = []string{"key"}
	genericP = []string{"passw"}
	genericS = []string{"secret"}
	genericT = []string{"token"}
)

// hasPrefixFold reports whether s starts with the lower-case ASCII word w
// in any ASCII case.
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if lowerASCII(s[i]) != w[i] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// MayGeneric reports whether the generic rule may match in w, by a
// necessary condition on its pattern, checked by hand because Go's regexp
// takes about a microsecond per byte for the pattern itself. After its
// word, a match holds [ \t\w.-]{0,20} and [\s'"]{0,3} (with "passw" as
// the word, "or" and "d" come first: at most 26 bytes in all), then an
// operator that starts with one of = > : | ? , and has at most 4 bytes
// (:::=), then [\x60'"\s=]{0,5}, then its secret: 10 bytes of [\w.=-] or 12 of
// [a-z0-9+/] in any case. A window with a non-ASCII byte may spell a word
// or a secret byte by case folding, so it may always match. strings.EqualFold
// would fold the Kelvin sign too, but the check never sees one.
func MayGeneric(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return true
		}
	}
	for i := 0; i < len(w); i++ {
		if !genericFirst[w[i]] || i+2 < len(w) && !has(&genericTri, hash3(lowerTab[w[i]], lowerTab[w[i+1]], lowerTab[w[i+2]])) {
			continue
		}
		n := GenericWordAt(w, i)
		if n == 0 {
			continue
		}
		for q := i + n; q < len(w) && q <= i+n+26; q++ {
			if strings.IndexByte("=>:|?,", w[q]) >= 0 && secretFollows(w, q+1) {
				return true
			}
			if !isMiddle(w[q]) {
				break
			}
		}
	}
	return false
}

// isMiddle reports whether c is in [ \t\w.-] or [\s'"]: what may stand
// between the generic rule's word and its operator.
func isMiddle(c byte) bool {
	return isWordOrDash(c) || c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '\'' || c == '"'
}

// secretFollows reports whether the generic rule's secret may start
// within the 8 bytes from w[at]: the rest of a long operator (: = | >,
// up to 3 bytes) and [\x60'"\s=]{0,5} come first.
func secretFollows(w string, at int) bool {
	for s := at; s < len(w) && s <= at+8; s++ {
		if run(w[s:], isSecretByte) >= 10 || run(w[s:], isBase64Byte) >= 12 {
			return true
		}
		if strings.IndexByte(":=|>`'\" \t\n\f\r", w[s]) < 0 {
			return false
		}
	}
	return false
}

func isSecretByte(c byte) bool { return isWordOrDash(c) || c == '.' || c == '=' }

func isBase64Byte(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

// MayVaultToken is the necessary condition of vault-service-token.
func MayVaultToken(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "s.")
		if j < 0 {
			return false
		}
		at := i + j + 2
		if run(text[at:], isAlnumOrHigh) >= 24 {
			return true
		}
		if at >= 4 && text[at-4:at] == "hvs." && run(text[at:], isWordOrDash) >= 90 {
			return true
		}
		i = at - 1 // "s.s." : the next "s." may start at the dot's successor
	}
}

// MayJWT is the necessary condition of jwt.
func MayJWT(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "ey")
		if j < 0 {
			return false
		}
		at := i + j + 2
		n := run(text[at:], isAlnum)
		if n >= 17 && strings.HasPrefix(text[at+n:], ".ey") {
			return true
		}
		i = at - 1
	}
}

// run counts the leading bytes of s that ok accepts.
func run(s string, ok func(byte) bool) int {
	n := 0
	for n < len(s) && ok(s[n]) {
		n++
	}
	return n
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isAlnumOrHigh(c byte) bool { return isAlnum(c) || c >= 0x80 }

func isWordOrDash(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }
