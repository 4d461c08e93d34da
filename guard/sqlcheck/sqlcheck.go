package sqlcheck

import (
	"strings"
)

// Finding is one destructive statement.
type Finding struct {
	Statement string // the statement, comments and literals blanked, whitespace folded
	Why       string // "DROP TABLE", "DELETE without WHERE", ...
}

// Destructive returns the destructive statements in sql, in order.
func Destructive(sql string) []Finding {
	var out []Finding
	for _, stmt := range Statements(sql) {
		if why := classify(stmt); why != "" {
			out = append(out, Finding{Statement: stmt, Why: why})
		}
	}
	return out
}

// Statements splits SQL into statements with comments removed, string
// literals emptied (” stays as a placeholder) and whitespace folded.
func Statements(sql string) []string {
	var stmts []string
	var cur strings.Builder
	flush := func() {
		s := strings.Join(strings.Fields(cur.String()), " ")
		if s != "" {
			stmts = append(stmts, s)
		}
		cur.Reset()
	}
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
			cur.WriteByte(' ')
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				i = len(sql)
			} else {
				i += end + 3 // the closing "/"; the loop steps past it
			}
			cur.WriteByte(' ')
		case c == '\'':
			// 'it''s' and E'\'' : skip to the closing quote.
			j := i + 1
			for j < len(sql) {
				if sql[j] == '\\' && j+1 < len(sql) {
					j += 2
					continue
				}
				if sql[j] == '\'' {
					if j+1 < len(sql) && sql[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			cur.WriteString("''")
			i = j
		case c == '$':
			// PostgreSQL dollar quoting: $$...$$ or $tag$...$tag$.
			end := strings.IndexByte(sql[i+1:], '$')
			tag := ""
			if end >= 0 {
				tag = sql[i : i+end+2]
			}
			if end >= 0 && isTag(tag[1:len(tag)-1]) {
				close := strings.Index(sql[i+len(tag):], tag)
				if close < 0 {
					i = len(sql)
				} else {
					i += len(tag) + close + len(tag) - 1
				}
				cur.WriteString("''")
				continue
			}
			cur.WriteByte(c)
		case c == ';':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return stmts
}

func isTag(s string) bool {
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// words returns the upper-cased words of a statement; punctuation separates.
func words(stmt string) []string {
	return strings.FieldsFunc(strings.ToUpper(stmt), func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '"' || r == '`')
	})
}

func classify(stmt string) string {
	w := words(skipCTE(stmt))
	// EXPLAIN without ANALYZE only plans the statement.
	if len(w) > 0 && w[0] == "EXPLAIN" {
		if len(w) < 2 || w[1] != "ANALYZE" {
			return ""
		}
		w = w[2:]
	}
	if len(w) == 0 {
		return ""
	}
	switch w[0] {
	case "DROP":
		for _, kw := range w[1:min(len(w), 4)] {
			switch kw {
			case "TABLE", "DATABASE", "SCHEMA":
				return "DROP " + kw
			}
		}
	case "TRUNCATE":
		return "TRUNCATE"
	case "DELETE":
		if !contains(w, "WHERE") {
			return "DELETE without WHERE"
		}
	case "UPDATE":
		if !contains(w, "WHERE") {
			return "UPDATE without WHERE"
		}
	}
	return ""
}

// skipCTE drops a leading WITH name AS (...), ... clause.
func skipCTE(stmt string) string {
	s := strings.TrimSpace(stmt)
	if len(s) < 5 || !strings.EqualFold(s[:5], "WITH ") {
		return s
	}
	depth := 0
	seenParen := false
	for i := 5; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
			seenParen = true
		case ')':
			depth--
			if depth == 0 && seenParen {
				rest := strings.TrimSpace(s[i+1:])
				if strings.HasPrefix(rest, ",") {
					seenParen = false
					continue
				}
				return rest
			}
		}
	}
	return s
}

func contains(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}
