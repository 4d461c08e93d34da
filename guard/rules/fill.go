package rules

import "strings"

// The rules keep their sentences whole, with a {name} where the call's
// own words go (guard_tamper.go's guardChanges, oversight.go's
// forgeDoes): fill puts them in.

// fill returns tmpl with each {name} replaced by its value in pairs
// (name, value, name, value …); a {name} not in pairs stays as written.
func fill(tmpl string, pairs ...string) string {
	if strings.IndexByte(tmpl, '{') < 0 {
		return tmpl
	}
	var b strings.Builder
	fillTo(&b, tmpl, pairs...)
	return b.String()
}

// fillTo writes tmpl to b as fill returns it.
func fillTo(b *strings.Builder, tmpl string, pairs ...string) {
	n := len(tmpl)
	for i := 1; i < len(pairs); i += 2 {
		n += len(pairs[i])
	}
	b.Grow(n)
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return
		}
		j += i
		b.WriteString(tmpl[:i])
		name, value, found := tmpl[i+1:j], "", false
		for k := 0; k+1 < len(pairs); k += 2 {
			if pairs[k] == name {
				value, found = pairs[k+1], true
				break
			}
		}
		if found {
			b.WriteString(value)
		} else {
			b.WriteString(tmpl[i : j+1])
		}
		tmpl = tmpl[j+1:]
	}
}
