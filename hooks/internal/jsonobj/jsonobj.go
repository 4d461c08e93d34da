// Package jsonobj reads the members of a JSON object without reflection.
//
// A hook process decodes a handful of small JSON objects once each, and
// encoding/json's first decoding of a struct type (reflection, the field
// cache, the decoder's code paged in) costs more than the decoding: about
// 0.1 ms per type, a tenth of an empty Go program's start. The hook's hot
// decodings read the members they know with this package and fall back
// to encoding/json for anything else, so every answer, error included,
// stays encoding/json's (the tests compare the two on every input).
package jsonobj

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Members calls f with each member of the JSON object data, in order: the
// key as encoding/json unquotes it and the raw value (no surrounding
// space). It returns false when data is not valid JSON, not an object, or
// f returned false.
func Members(data []byte, f func(key string, raw []byte) bool) bool {
	if !Valid(data) {
		return false
	}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if data[i] == '}' {
		return true
	}
	for {
		end := skipString(data, i)
		key, ok := String(data[i:end])
		if !ok {
			return false
		}
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // ':'
		end = skipValue(data, i)
		if !f(key, data[i:end]) {
			return false
		}
		i = skipSpace(data, end)
		if data[i] == '}' {
			return true
		}
		i = skipSpace(data, i+1) // ','
	}
}

// The skips below read valid JSON only (Members checks it first).

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index after the string starting at data[i].
func skipString(data []byte, i int) int {
	for i++; ; i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
}

// skipValue returns the index after the value starting at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch data[i] {
			case '"':
				i = skipString(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// String returns the string a raw JSON string value holds, decoded as
// encoding/json decodes it (invalid UTF-8 and lone surrogates become
// U+FFFD). ok is false when raw is not a well-formed JSON string.
func String(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	plain := true
	for _, c := range in {
		if c == '\\' || c == '"' || c < ' ' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(in), true
	}
	out := make([]byte, 0, len(in)+2*utf8.UTFMax)
	for r := 0; r < len(in); {
		c := in[r]
		switch {
		case c == '\\':
			if r+1 >= len(in) {
				return "", false
			}
			switch e := in[r+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
				r += 2
			case 'b':
				out = append(out, '\b')
				r += 2
			case 'f':
				out = append(out, '\f')
				r += 2
			case 'n':
				out = append(out, '\n')
				r += 2
			case 'r':
				out = append(out, '\r')
				r += 2
			case 't':
				out = append(out, '\t')
				r += 2
			case 'u':
				rr := u4(in[r:])
				if rr < 0 {
					return "", false
				}
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, u4(in[r:])); dec != unicode.ReplacementChar {
						out = utf8.AppendRune(out, dec)
						r += 6
						break
					}
					rr = unicode.ReplacementChar
				}
				out = utf8.AppendRune(out, rr)
			default:
				return "", false
			}
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			j := r + 1
			for j < len(in) && in[j] < utf8.RuneSelf && in[j] >= ' ' && in[j] != '\\' && in[j] != '"' {
				j++
			}
			out = append(out, in[r:j]...)
			r = j
		default:
			rr, size := utf8.DecodeRune(in[r:])
			out = utf8.AppendRune(out, rr)
			r += size
		}
	}
	return string(out), true
}

// u4 decodes \uXXXX at the start of s; -1 when s does not start so.
func u4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	v, err := strconv.ParseUint(string(s[2:6]), 16, 32)
	if err != nil {
		return -1
	}
	return rune(v)
}

// Null reports whether raw is the JSON null literal.
func Null(raw []byte) bool { return string(raw) == "null" }

// Is reports whether key names the field name as encoding/json matches
// keys to struct fields: exactly, or under Unicode case folding.
func Is(key, name string) bool { return key == name || strings.EqualFold(key, name) }

// SetString decodes raw into *dst as encoding/json decodes a string
// field: null leaves it as it is. ok is false for any other kind of value.
func SetString(raw []byte, dst *string) bool {
	if Null(raw) {
		return true
	}
	s, ok := String(raw)
	if ok {
		*dst = s
	}
	return ok
}

// SetStringPtr decodes raw into *dst as encoding/json decodes a *string
// field: null sets it to nil.
func SetStringPtr(raw []byte, dst **string) bool {
	if Null(raw) {
		*dst = nil
		return true
	}
	s, ok := String(raw)
	if ok {
		*dst = &s
	}
	return ok
}

// SetInt64 decodes raw into *dst as encoding/json decodes an int64 field:
// null leaves it; a number with a fraction or exponent, or out of range,
// is not ok.
func SetInt64(raw []byte, dst *int64) bool {
	if Null(raw) {
		return true
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return false
	}
	*dst = v
	return true
}

// SetBool decodes raw into *dst as encoding/json decodes a bool field.
func SetBool(raw []byte, dst *bool) bool {
	switch string(raw) {
	case "null":
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return false
	}
	return true
}

// Raw returns a copy of raw, as encoding/json fills a json.RawMessage
// (assignable to one). It is a plain []byte so that the package does not
// link encoding/json: swarm-guard-post, whose start-up is its whole cost,
// decodes with this package alone.
func Raw(raw []byte) []byte {
	return append([]byte(nil), raw...)
}

// AppendString appends s as a JSON string with encoding/json's escapes:
// quote, backslash and control characters, <, > and & (HTML-safe), U+2028
// and U+2029, and invalid UTF-8 as U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
