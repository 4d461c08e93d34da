package scanner

import (
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"
)

// gitleaks' generic-api-key rule runs on almost every text (its keywords
// key, token, auth, api, access … occur in most code) and is by far the
// costliest: Go's regexp runs its unanchored pattern over the whole text,
// about 0.5 ms per KB. Yet a match of it can only lie near one of its
// words, so it is run on windows of the text around those words instead,
// with the same findings:
//
//   - every match contains one of the words: the pattern is
//     [\w.-]{0,50}? WORD …, where WORD is access|auth|[Aa]pi|API|
//     credential|creds|key|passw(or)?d|secret|token, case-insensitive;
//   - so a match starts on a line holding the word ([\w.-] holds no
//     newline); after WORD only [\s'"]{0,3}, [\x60'"\s=]{0,5} and the
//     one-character terminator can hold a newline, so every line between
//     the word's line and the secret's holds only white space, quotes and
//     the separators (a thin line), and the match ends on the first line
//     after the word's that is not thin, at most windowAfter lines below;
//   - the pattern has no ^, \A or \b, and its $ cannot match right after
//     a newline (the secret before it holds none), so a window that starts
//     at a line start and ends after a newline matches exactly what the
//     whole text does there; windows that overlap are merged, so no match
//     crosses from one into another;
//   - Unicode case folding can spell a word with non-ASCII letters (K,
//     the Kelvin sign, folds to k): a line with any non-ASCII byte counts
//     as holding a word.
//
// Most windows of ordinary code cannot hold a match anyway (a comment
// that says "Authors"), and the pattern costs Go's regexp about a
// microsecond per byte even there: mayGeneric checks a necessary
// condition by hand first, and a window that fails it is not scanned.
//
// gitleaks reports a line, column and context of each finding from the
// lines around it, which a window holds whole. The windows apply to the
// default rule only: genericRegex is the pattern this reasoning holds for
// (TestGenericWindowsRuleIsUnchanged fails when gitleaks changes it), and
// TestWindowedScanAgrees compares both ways on real code.
const (
	genericID    = "generic-api-key"
	genericRegex = `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`
	windowAfter  = 9
)

// genericWords are the words a match holds (lower case; "passw" stands
// for passwd and password, "api" for api, Api and API).
var genericWords = []string{"access", "auth", "api", "credential", "creds", "key", "passw", "secret", "token"}

// window is a part of a text: text[start:end], whose first line is line
// (0-based within the text).
type window struct {
	start, end, line int
}

// genericWindows returns the windows of text the generic rule must see:
// from each line holding one of its words through the next line, and on
// while the lines are thin (thinLine): only thin lines can lie between
// the word's line and the secret's.
func genericWindows(text string) []window {
	var out []window
	var cur *window
	need, lastWord := -1, -1
	for lineStart, line := 0, 0; ; line++ {
		next := len(text)
		if i := strings.IndexByte(text[lineStart:], '\n'); i >= 0 {
			next = lineStart + i + 1
		}
		l := text[lineStart:next]
		word := holdsGenericWord(l)
		if cur == nil && word {
			out = append(out, window{start: lineStart, line: line})
			cur = &out[len(out)-1]
		}
		if cur != nil {
			cur.end = next
			switch {
			case word:
				lastWord, need = line, max(need, line+1)
			case thinLine(l) && line < lastWord+windowAfter:
				need = max(need, line+1)
			}
			if line >= need {
				cur = nil
			}
		}
		if next == len(text) {
			return out
		}
		lineStart = next
	}
}

// thinLine reports whether a line holds only characters that may stand
// between the generic rule's word and its secret when they are on
// different lines: white space, quotes and the separators = > : | ? ,.
func thinLine(l string) bool {
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v', '\'', '"', '`', '=', '>', ':', '|', '?', ',':
		default:
			return false
		}
	}
	return true
}

func holdsGenericWord(line string) bool {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c >= 0x80 {
			return true // case folding may spell a word with it
		}
		if genericFirst[c] && genericWordAt(line, i) > 0 {
			return true
		}
	}
	return false
}

// genericWordAt returns the length of the generic word (genericWords, any
// ASCII case) that starts at s[i], or 0.
func genericWordAt(s string, i int) int {
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

// mayGeneric reports whether the generic rule may match in w, by a
// necessary condition on its pattern, checked by hand because Go's regexp
// takes about a microsecond per byte for the pattern itself. After its
// word, a match holds [ \t\w.-]{0,20} and [\s'"]{0,3} (with "passw" as
// the word, "or" and "d" come first: at most 26 bytes in all), then an
// operator that starts with one of = > : | ? , and has at most 4 bytes
// (:::=), then [\x60'"\s=]{0,5}, then its secret: 10 bytes of [\w.=-] or 12 of
// [a-z0-9+/] in any case. A window with a non-ASCII byte may spell a word
// or a secret byte by case folding, so it may always match. strings.EqualFold
// would fold the Kelvin sign too, but the check never sees one.
func mayGeneric(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return true
		}
	}
	for i := 0; i < len(w); i++ {
		n := genericWordAt(w, i)
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

// detectWindows runs det on the windows of text around the generic
// rule's words, as one fragment at line firstLine would be.
func detectWindows(det *detect.Detector, text, file, commit string, firstLine int) []report.Finding {
	var out []report.Finding
	for _, w := range genericWindows(text) {
		if !mayGeneric(text[w.start:w.end]) {
			continue // the rule cannot match here
		}
		out = append(out, det.Detect(detect.Fragment{Raw: text[w.start:w.end], FilePath: file, CommitSHA: commit, StartLine: firstLine + w.line})...)
	}
	return out
}

// dropShadowedGeneric is gitleaks' own filter across the two detectors: a
// generic finding whose secret a specific rule found on the same line is
// dropped.
func dropShadowedGeneric(found []report.Finding) []report.Finding {
	out := found[:0:0]
	for _, f := range found {
		keep := true
		if strings.Contains(strings.ToLower(f.RuleID), "generic") {
			for _, g := range found {
				if f.StartLine == g.StartLine && f.Commit == g.Commit && f.RuleID != g.RuleID &&
					strings.Contains(g.Secret, f.Secret) && !strings.Contains(strings.ToLower(g.RuleID), "generic") {
					keep = false
					break
				}
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}
