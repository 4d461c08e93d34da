package keywords

import (
	"math"
	"strings"
)

// Necessary conditions of some default rules' patterns, checked by hand:
// a text that fails a rule's condition holds no match of its regex (the
// generic rule's: no match gitleaks keeps a finding of). The
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

// MayGeneric reports whether gitleaks' generic rule may report a finding
// in w, by a necessary condition on its pattern and filters, checked by
// hand because Go's regexp takes about a microsecond per byte for the
// pattern itself. After its word, a match holds [ \t\w.-]{0,20} and
// [\s'"]{0,3} (with "passw" as the word, "or" and "d" come first: at most
// 26 bytes in all), then an operator that starts with one of = > : | ? ,
// and has at most 4 bytes (:::=), then [\x60'"\s=]{0,5}, then its secret
// and a terminator (genericSecretAt). A text holding a rune whose case
// folds to ASCII (FoldsToASCII: the Kelvin sign is a k to (?i)) may
// spell a word or a secret byte with it, so it may always match; every
// other non-ASCII byte is in none of the pattern's classes and only ends
// a run.
func MayGeneric(w string) bool {
	if FoldsToASCII(w) {
		return true
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

// secretFollows reports whether a secret of the generic rule that gitleaks
// may report starts within the 8 bytes from w[at]: the rest of a long
// operator (: = | >, up to 3 bytes) and [\x60'"\s=]{0,5} come first.
func secretFollows(w string, at int) bool {
	for s := at; s < len(w) && s <= at+8; s++ {
		if genericSecretAt(w, s) {
			return true
		}
		if strings.IndexByte(":=|>`'\" \t\n\f\r", w[s]) < 0 {
			return false
		}
	}
	return false
}

// genericSecretAt reports whether the generic rule's secret may start at
// w[s] and gitleaks keep it. The secret is ([\w.=-]{10,150}|
// [a-z0-9][a-z0-9+/]{11,}={0,3}) in any case, and a terminator follows it:
// (?:[\x60'"\s;]|\\[nr]|$). No terminator is in either class, so
//
//   - the first form is the whole run of [\w.=-] from s (a shorter piece
//     is followed by a byte of the run), and only when it is 10 to 150
//     bytes long;
//   - the second is the whole run of [a-z0-9+/] with every = after it,
//     and only when there are at most 3 of those.
//
// $ is the end of w (no (?m)): the scanner cuts texts into pieces and
// windows only at line ends, where \s is a terminator too. gitleaks then
// drops the finding unless the secret's Shannon entropy is above
// GenericEntropy and the secret holds a byte outside [a-zA-Z_.-] (the
// rule's allowlist GenericPlain): genericKept. gitleaks takes the secret
// from the first match of the pattern in the match itself, trimmed of
// newlines; that is one of these candidates too, since it starts where
// the match does and can end only at one of the match's terminators.
func genericSecretAt(w string, s int) bool {
	if r := run(w[s:], isSecretByte); r >= 10 && r <= 150 && genericEnds(w, s+r) && genericKept(w[s:s+r]) {
		return true
	}
	if !isAlnum(w[s]) {
		return false
	}
	e := s + run(w[s:], isBase64Byte)
	pad := 0
	for e+pad < len(w) && w[e+pad] == '=' {
		pad++
	}
	return e-s >= 12 && pad <= 3 && genericEnds(w, e+pad) && genericKept(w[s:e+pad])
}

// genericEnds reports whether the generic rule's terminator,
// (?:[\x60'"\s;]|\\[nr]|$) in any case, matches at w[e].
func genericEnds(w string, e int) bool {
	if e == len(w) {
		return true
	}
	switch w[e] {
	case '`', '\'', '"', ' ', '\t', '\n', '\f', '\r', ';':
		return true
	case '\\':
		return e+1 < len(w) && strings.IndexByte("nrNR", w[e+1]) >= 0
	}
	return false
}

// GenericEntropy is the generic rule's entropy: gitleaks drops a finding
// whose secret's Shannon entropy is at most this. GenericPlain is the
// pattern of its allowlist that drops a secret of letters, _ . and -
// only. TestCleanMatchesTheRules (scanner package) holds both to the
// linked rule.
const (
	GenericEntropy = 3.5
	GenericPlain   = `^[a-zA-Z_.-]+$`
)

// genericKept reports whether gitleaks may keep a generic finding with
// this secret: one that its allowlist GenericPlain does not drop, with a
// Shannon entropy above GenericEntropy. That needs at least 12 distinct
// bytes (log2 11 < 3.5). The entropy is computed as gitleaks computes it;
// gitleaks sums in map order, so a margin keeps a rounding difference on
// the "may" side.
func genericKept(secret string) bool {
	var count [256]int
	distinct, plain := 0, true
	for i := 0; i < len(secret); i++ {
		c := secret[i]
		if count[c] == 0 {
			distinct++
		}
		count[c]++
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || c == '-') {
			plain = false
		}
	}
	if plain || distinct < 12 {
		return false
	}
	entropy := 0.0
	inv := 1.0 / float64(len(secret))
	for _, n := range count {
		if n > 0 {
			f := float64(n) * inv
			entropy -= f * math.Log2(f)
		}
	}
	return entropy > GenericEntropy-1e-9
}

// FoldsToASCII reports whether s holds one of the non-ASCII runes whose
// lower case, upper case or case folding is ASCII: İ (U+0130), ı (U+0131),
// ſ (U+017F) and the Kelvin sign (U+212A). gitleaks lowercases a text to
// find keywords and its patterns fold case under (?i), so through these a
// text may hold a keyword or a match its bytes do not spell; every other
// non-ASCII byte stays outside every ASCII class and keyword.
func FoldsToASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 0xC4:
			if i+1 < len(s) && (s[i+1] == 0xB0 || s[i+1] == 0xB1) {
				return true
			}
		case 0xC5:
			if i+1 < len(s) && s[i+1] == 0xBF {
				return true
			}
		case 0xE2:
			if i+2 < len(s) && s[i+1] == 0x84 && s[i+2] == 0xAA {
				return true
			}
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
