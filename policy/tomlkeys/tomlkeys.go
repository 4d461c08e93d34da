package tomlkeys

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

var (
	tableRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[?\s*([^\]]+?)\s*\]\]?`) })
	keyRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.\-]+)\s*=`) })
)

// Lines maps dotted key paths to the first line that defines them:
// "rules.force-push", "allow" (a table), "allow[1].rules" (a key of the
// second [[allow]] entry), and for an array of tables inside another,
// "rules[0].allowlists[1].regexes" as well as the flat
// "rules.allowlists[k].regexes" (k counted over the whole file).
type Lines map[string]int

// Index reads data line by line; it never fails (a line it cannot read as
// a header or a key is skipped).
func Index(data []byte) Lines {
	lines := Lines{}
	set := func(k string, n int) {
		if _, ok := lines[k]; !ok {
			lines[k] = n
		}
	}
	table, indexed, nested := "", "", ""
	arrays := map[string]int{}     // [[name]] tables seen so far, by name
	current := map[string]string{} // array table name -> its current entry, "rules[2]" or "rules[2].allowlists[0]"
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if strings.HasPrefix(trimmed, "#") || trimmed == "" {
			continue
		}
		if m := tableRE().FindStringSubmatch(text); m != nil && strings.HasPrefix(trimmed, "[") {
			table, indexed, nested = unquoteKey(m[1]), "", ""
			set(table, n)
			// The entry of the enclosing array of tables, if any:
			// [[rules.allowlists]] or [rules.allowlist] inside [[rules]].
			parent, rest := "", ""
			for p := table; ; {
				i := strings.LastIndexByte(p, '.')
				if i < 0 {
					break
				}
				p = p[:i]
				if e, ok := current[p]; ok {
					parent, rest = e, table[len(p)+1:]
					break
				}
			}
			if strings.HasPrefix(trimmed, "[[") {
				// Entries of an array of tables are also keyed by
				// index, "allow[1].rules", as validation names them.
				indexed = fmt.Sprintf("%s[%d]", table, arrays[table])
				arrays[table]++
				lines[indexed] = n
				current[table] = indexed
				if parent != "" {
					k := parent + "." + rest
					nested = fmt.Sprintf("%s[%d]", k, arrays[k])
					arrays[k]++
					set(nested, n)
					current[table] = nested
				}
			} else if parent != "" {
				nested = parent + "." + rest
				set(nested, n)
			}
			continue
		}
		if m := keyRE().FindStringSubmatch(text); m != nil {
			key := unquoteKey(m[1])
			k := key
			if table != "" {
				k = table + "." + key
			}
			set(k, n)
			if indexed != "" {
				lines[indexed+"."+key] = n
			}
			if nested != "" {
				set(nested+"."+key, n)
			}
		}
	}
	return lines
}

// Find returns the line of a key such as "allow[1].rules" or
// "protected_branches[0]": the key itself, else its closest parent; 0
// when none is in the file.
func (lines Lines) Find(key string) int {
	k := key
	for k != "" {
		if n := lines[k]; n > 0 {
			return n
		}
		plain := k
		if i := strings.IndexByte(plain, '['); i >= 0 {
			plain = plain[:i] + plain[strings.IndexByte(plain, ']')+1:]
		}
		if n := lines[plain]; n > 0 {
			return n
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return 0
}

// FindFold is Find ignoring case (gitleaks reads its config
// case-insensitively).
func (lines Lines) FindFold(key string) int {
	lower := Lines{}
	for k, n := range lines {
		lk := strings.ToLower(k)
		if m, ok := lower[lk]; !ok || n < m {
			lower[lk] = n
		}
	}
	return lower.Find(strings.ToLower(key))
}

func unquoteKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}
