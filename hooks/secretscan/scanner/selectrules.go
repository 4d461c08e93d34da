package scanner

import (
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect/codec"
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
		c.index.each(strings.ToLower(s), func(kw string) {
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

// mayDecode is a cheap and conservative stand-in for the first pass of
// gitleaks' decoder: false means that pass finds no segment, so Detect
// may skip decoding altogether. The decoder's regular expression costs
// about a millisecond per 10 KB; this costs a few microseconds.
//
// The decoder looks for %XX and unicode escapes (left to the real decoder
// whenever they occur), hex runs of 32+ and base64 runs of 16+ characters.
// A run counts only when it decodes to printable ASCII: mostly it is an
// identifier, an import path or a hash, and decodes to noise. The rules
// mirrored here are codec's (encodings.go, base64.go, hex.go, ascii.go);
// TestMayDecodeAgreesWithGitleaks holds them to the linked version.
func mayDecode(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && isHex(s[i+1]) && isHex(s[i+2]):
			return true
		case (c == '+' && i > 0 && s[i-1] == 'U' || c == '\\' && (s[i+1] == 'u' || s[i+1] == 'U' || s[i+1] == '\\')) && i+5 < len(s):
			return true
		}
	}
	for i := 0; i < len(s); {
		if !isBase64(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64(s[j]) {
			j++
		}
		run := s[i:j]
		pad := 0
		for pad < 2 && j+pad < len(s) && s[j+pad] == '=' {
			pad++
		}
		i = j
		if len(run) < 16 {
			continue
		}
		// At the start of a run the decoder's hex pattern wins over its
		// base64 pattern; the rest of the run is then base64.
		if h := hexPrefix(run); h >= 32 {
			if decodesHex(run[:h]) {
				return true
			}
			run = run[h:]
			if len(run) < 16 {
				continue
			}
		}
		if decodesBase64(run + s[j:j+pad]) {
			return true
		}
	}
	return false
}

func hexPrefix(s string) int {
	n := 0
	for n < len(s) && isHex(s[n]) {
		n++
	}
	return n
}

func printable(b []byte) bool {
	for _, c := range b {
		if c <= 0x08 || c >= 0x7f {
			return false
		}
	}
	return true
}

// decodesHex mirrors codec.decodeHex: even length, a digit, printable.
func decodesHex(s string) bool {
	if len(s)%2 != 0 || !strings.ContainsAny(s, "0123456789") {
		return false
	}
	b, err := hex.DecodeString(s)
	return err == nil && printable(b)
}

// decodesBase64 mirrors codec.decodeBase64: one of 0-9 + / - _, then
// standard or raw URL base64 that decodes to printable ASCII.
func decodesBase64(s string) bool {
	if !strings.ContainsAny(s, "0123456789+/-_") {
		return false
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && printable(b) {
		return true
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && printable(b)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isBase64 matches the decoder's base64 class [\w/+-].
func isBase64(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '/' || c == '+' || c == '-'
}
