package install

import "strings"

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellWord reads the first shell word of s as shellQuote writes it: a
// bare word, or single-quoted parts with \' between them. It returns the
// word and the rest of s.
func shellWord(s string) (string, string, bool) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
		case c == ' ' || c == '\t' || c == '\n' || c == ';':
			return b.String(), s[i:], b.Len() > 0
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), "", b.Len() > 0
}
