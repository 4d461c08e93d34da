package rules

import "strings"

// clip shortens an excerpt (a statement, a script) for a reason: one
// line, at most 160 bytes, cut on a rune boundary. It is the engine's
// clip (guard/decision.go), so moved reasons read as before.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const max = 160
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
