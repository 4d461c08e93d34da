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
	main, ctes := splitCTE(stmt)
	// WITH d AS (DELETE FROM t RETURNING *) SELECT ...: a data-modifying
	// CTE runs whatever the outer query is.
	for _, c := range ctes {
		if why := classify(c); why != "" {
			return why
		}
	}
	w := words(topLevel(main))
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
	case "DELETE", "UPDATE":
		if !contains(w, "WHERE") {
			return w[0] + " without WHERE"
		}
		if tautology(whereClause(main)) {
			return w[0] + " with a WHERE that matches every row"
		}
	}
	return ""
}

// topLevel blanks everything inside parentheses, keeping positions, so a
// WHERE in a subquery (UPDATE t SET x = (SELECT ... WHERE ...)) is not
// the statement's WHERE.
func topLevel(stmt string) string {
	b := []byte(stmt)
	depth := 0
	for i, c := range b {
		switch {
		case c == '(':
			depth++
			if depth > 1 {
				b[i] = ' '
			}
		case c == ')':
			if depth > 0 {
				depth--
			}
			if depth > 0 {
				b[i] = ' '
			}
		case depth > 0:
			b[i] = ' '
		}
	}
	return string(b)
}

// whereClause returns the text after the statement's own WHERE, up to the
// clauses that end it.
func whereClause(stmt string) string {
	top, up := strings.ToUpper(topLevel(stmt)), strings.ToUpper(stmt)
	i := indexWord(top, "WHERE")
	if i < 0 {
		return ""
	}
	i += len("WHERE")
	end := len(up)
	for _, w := range []string{"RETURNING", "ORDER", "LIMIT", "OUTPUT"} {
		if j := indexWord(top[i:], w); j >= 0 && i+j < end {
			end = i + j
		}
	}
	return up[i:end]
}

// indexWord finds w in s as a whole word.
func indexWord(s, w string) int {
	for off := 0; ; {
		j := strings.Index(s[off:], w)
		if j < 0 {
			return -1
		}
		j += off
		before := j == 0 || !isWordByte(s[j-1])
		after := j+len(w) >= len(s) || !isWordByte(s[j+len(w)])
		if before && after {
			return j
		}
		off = j + len(w)
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// tautology reports whether a WHERE clause holds for every row: TRUE, 1,
// 1=1, ”=”, x=x, or any of them OR-ed with something else.
func tautology(clause string) bool {
	parts := []string{clause}
	if !strings.Contains(clause, " AND ") {
		// Without AND, one always-true alternative makes all of it true.
		parts = strings.Split(" "+clause+" ", " OR ")
	}
	for _, part := range parts {
		p := strings.Join(strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(part)), "")
		switch p {
		case "TRUE", "1", "NOTFALSE", "NOT0", "1<>0", "0<>1", "1!=0", "0=0":
			return true
		}
		for _, op := range []string{">=", "<=", "="} {
			if l, r, ok := strings.Cut(p, op); ok && l != "" && l == r && !strings.ContainsAny(l, "<>!=") {
				return true
			}
		}
	}
	return false
}

// splitCTE separates a leading WITH name AS (...), ... clause into the
// main statement and the bodies of the common table expressions.
func splitCTE(stmt string) (string, []string) {
	s := strings.TrimSpace(stmt)
	if len(s) < 5 || !strings.EqualFold(s[:5], "WITH ") {
		return s, nil
	}
	var bodies []string
	depth, open := 0, -1
	for i := 5; i < len(s); i++ {
		switch s[i] {
		case '(':
			if depth == 0 {
				open = i
			}
			depth++
		case ')':
			depth--
			if depth == 0 && open >= 0 {
				bodies = append(bodies, s[open+1:i])
				open = -1
				rest := strings.TrimSpace(s[i+1:])
				if up := strings.ToUpper(rest); strings.HasPrefix(up, "AS ") || strings.HasPrefix(up, "AS(") {
					bodies = bodies[:len(bodies)-1] // a column list: name(a, b) AS (...)
					continue
				}
				if strings.HasPrefix(rest, ",") {
					continue
				}
				return rest, bodies
			}
		}
	}
	return s, bodies
}

func contains(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// ReadOnly reports whether every statement of sql only reads: SELECT,
// WITH ... SELECT, SHOW, EXPLAIN (without ANALYZE, which runs the
// statement), DESCRIBE, VALUES, TABLE. Empty or unrecognised SQL is not
// read-only: what the guard cannot read is not a read.
func ReadOnly(sql string) bool {
	stmts := Statements(sql)
	if len(stmts) == 0 {
		return false
	}
	for _, stmt := range stmts {
		if !readOnlyWords(words(stmt)) {
			return false
		}
	}
	return true
}

// readOnlyWords is ReadOnly for one statement's words. EXPLAIN ANALYZE
// runs the statement it explains: it reads only when that statement does
// (EXPLAIN ANALYZE SELECT ... is how a slow query is measured).
func readOnlyWords(ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	switch ws[0] {
	case "SELECT", "SHOW", "DESCRIBE", "DESC", "VALUES", "TABLE":
		if contains(ws, "INTO") && ws[0] == "SELECT" {
			return false // SELECT ... INTO creates a table
		}
	case "EXPLAIN":
		if !contains(ws, "ANALYZE") && !contains(ws, "ANALYSE") {
			return true
		}
		for i, w := range ws[1:] {
			switch w {
			case "SELECT", "WITH", "VALUES", "TABLE", "INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "TRUNCATE", "ALTER", "EXECUTE", "DECLARE":
				return readOnlyWords(ws[i+1:])
			}
		}
		return false
	case "WITH":
		for _, w := range []string{"INSERT", "UPDATE", "DELETE", "MERGE", "DROP", "TRUNCATE", "ALTER", "CREATE"} {
			if contains(ws, w) {
				return false
			}
		}
	default:
		return false
	}
	return true
}
