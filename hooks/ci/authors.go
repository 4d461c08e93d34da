package ci

import "strings"

// matchAuthor reports whether an author email matches one of the
// [verify] exempt_authors globs. Matching ignores case (emails do), "*"
// matches any run of characters and "?" one character; every other
// character, "[" and "]" included, matches itself, so the GitHub bot
// address "*[bot]@users.noreply.github.com" means what it says.
func matchAuthor(globs []string, email string) bool {
	email = strings.ToLower(email)
	for _, g := range globs {
		if wildcardMatch(strings.ToLower(g), email) {
			return true
		}
	}
	return false
}

// wildcardMatch matches s against a pattern of literal characters, "*"
// and "?", by backtracking to the last star: linear for the short
// patterns of a policy file.
func wildcardMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
