package scanner

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"

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
//   - Unicode case folding can spell a word with a few non-ASCII letters
//     (K, the Kelvin sign, folds to k): a line holding one of them
//     (keywords.FoldsToASCII) counts as holding a word. Every other
//     non-ASCII byte is in none of the pattern's classes.
//
// Most windows of ordinary code cannot hold a match anyway (a comment
// that says "Authors"), and the pattern costs Go's regexp about a
// microsecond per byte even there: keywords.MayGeneric checks a necessary
// condition by hand first (of a finding gitleaks keeps, entropy and
// allowlist included), and a window that fails it is not scanned.
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

// window is a part of a text: text[start:end], whose first line is line
// (0-based within the text).
type window struct {
	start, end, line int
}

// genericWindows returns the windows of text the generic rule must see:
// from each line holding one of its words through the next line, and on
// while the lines are thin (thinLine): only thin lines can lie between
// the word's line and the secret's. Between windows it skips straight
// to the line of the next word (nextGenericWord) rather than looking at
// each line: a line without a word starts nothing.
func genericWindows(text string) []window {
	var out []window
	var cur *window
	need, lastWord := -1, -1
	folds := keywords.FoldsToASCII(text)
	for lineStart, line := 0, 0; ; line++ {
		if cur == nil && !folds {
			at := nextGenericWord(text, lineStart)
			if at < 0 {
				return out
			}
			start := lineStart + strings.LastIndexByte(text[lineStart:at], '\n') + 1
			line += strings.Count(text[lineStart:start], "\n")
			lineStart = start
		}
		next := len(text)
		if i := strings.IndexByte(text[lineStart:], '\n'); i >= 0 {
			next = lineStart + i + 1
		}
		l := text[lineStart:next]
		word := (folds && keywords.FoldsToASCII(l)) || nextGenericWord(l, 0) >= 0
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

// nextGenericWord returns the index of the first generic word
// (keywords.GenericWordAt) in s at or after from, or -1. A byte starts a
// word only if it and the two after it, folded to lower case, begin one
// of keywords.GenericWords (every word has three letters or more): three
// table lookups reject almost every byte of ordinary text before
// GenericWordAt is asked.
func nextGenericWord(s string, from int) int {
	for i := from; i+2 < len(s); i++ {
		if wordStart[0][s[i]]&wordStart[1][s[i+1]]&wordStart[2][s[i+2]] != 0 && keywords.GenericWordAt(s, i) > 0 {
			return i
		}
	}
	return -1
}

// wordStart[k][c] has bit w set when byte c, in either ASCII case, is
// letter k of keywords.GenericWords[w].
var wordStart = func() (t [3][256]uint16) {
	if len(keywords.GenericWords) > 16 {
		panic("scanner: more generic words than wordStart has bits")
	}
	for w, word := range keywords.GenericWords {
		for k := range t {
			c := word[k]
			t[k][c] |= 1 << w
			t[k][c-'a'+'A'] |= 1 << w
		}
	}
	return t
}()

// detectWindows runs det on the windows of text around the generic
// rule's words, as one fragment at line firstLine would be.
func detectWindows(det *detect.Detector, text, file, commit string, firstLine int) []report.Finding {
	var out []report.Finding
	for _, w := range genericWindows(text) {
		if !keywords.MayGeneric(text[w.start:w.end]) {
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
