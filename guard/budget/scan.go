package budget

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A minimal JSON scanner over one line. encoding/json decodes every byte
// of a line into values; the budget only needs a handful of small fields
// out of lines that are mostly tool output and model text, so the scanner
// finds those fields and skips everything else, jumping over strings with
// bytes.IndexByte. That keeps accounting close to the cost of reading the
// stream at all.
//
// Every function takes the line and an index and returns the index after
// what it consumed, or -1 when the input is not well-formed JSON there. The
// scanner does not validate what it skips: it only has to find the right
// fields in well-formed input and never loop or panic on anything else.

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString skips the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	i++
	// Most strings are short (keys, ids, names): a plain loop beats the
	// call overhead of IndexByte for them.
	for end := min(i+32, len(b)); i < end; i++ {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	if i >= len(b) {
		return -1
	}
	from := i // not inside an escape sequence
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		k := j - 1
		for k >= from && b[k] == '\\' {
			k--
		}
		if (j-1-k)%2 == 0 { // an even number of backslashes: the quote ends the string
			return j + 1
		}
		i = j + 1
	}
}

// structural marks the bytes skipValue must look at inside objects and
// arrays.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// skipValue skips any JSON value starting at b[i].
func skipValue(b []byte, i int) int {
	if i < 0 || i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			// Most bytes of a nested value are in strings or are names,
			// digits and punctuation the skip does not care about.
			for i < len(b) && !structural[b[i]] {
				i++
			}
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	start := i
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if i == start {
				return -1
			}
			return i
		}
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// eachField calls fn for every member of the object at b[i] with the raw
// key (still escaped, without quotes) and the index of the value. fn
// returns the index after the value when it consumed it, or 0 to have the
// value skipped. eachField returns the index after the object.
func eachField(b []byte, i int, fn func(key []byte, v int) int) int {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		end := skipString(b, i)
		if end < 0 {
			return -1
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		i = skipSpace(b, i+1)
		next := fn(key, i)
		if next == 0 {
			next = skipValue(b, i)
		}
		if next < 0 {
			return -1
		}
		i = skipSpace(b, next)
		if i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}

// eachElem calls fn for every element of the array at b[i]; fn returns like
// eachField's.
func eachElem(b []byte, i int, fn func(v int) int) int {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		next := fn(i)
		if next == 0 {
			next = skipValue(b, i)
		}
		if next < 0 {
			return -1
		}
		i = skipSpace(b, next)
		if i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return i + 1
		default:
			return -1
		}
	}
}

// rawString returns the still-escaped content of the string at b[i] and
// the index after it; ok is false when b[i] is not a string.
func rawString(b []byte, i int) (raw []byte, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, skipValue(b, i), false
	}
	end = skipString(b, i)
	if end < 0 {
		return nil, -1, false
	}
	return b[i+1 : end-1], end, true
}

// number parses the number at b[i] as an int64 (fractions truncated) and
// a float64; ok is false for anything but a number.
func number(b []byte, i int) (n int64, f float64, end int, ok bool) {
	end = skipValue(b, i)
	if end < 0 || b[i] == '"' || b[i] == '{' || b[i] == '[' {
		return 0, 0, end, false
	}
	text := b[i:end]
	if v, ok := digits(text); ok {
		return v, float64(v), end, true
	}
	v, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return 0, 0, end, false
	}
	return int64(v), v, end, true
}

// digits parses a non-negative decimal integer without allocating (token
// counts); ok is false for anything else, which number leaves to strconv.
func digits(text []byte) (int64, bool) {
	if len(text) == 0 || len(text) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range text {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// literal reports whether the value at b[i] is the literal lit (true,
// false, null).
func literal(b []byte, i int, lit string) bool {
	return bytes.HasPrefix(b[i:], []byte(lit))
}

// unescape decodes a raw JSON string body. Invalid escapes are kept as
// they are: the result is for display and ids, never for decisions about
// safety.
func unescape(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			out = append(out, c)
			continue
		}
		i++
		switch raw[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, n := hexRune(raw[i+1:])
			if n == 0 {
				out = append(out, '\\', 'u')
				continue
			}
			i += n
			if utf16.IsSurrogate(r) && i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if r2, n2 := hexRune(raw[i+3:]); n2 > 0 {
					r = utf16.DecodeRune(r, r2)
					i += 2 + n2
				}
			}
			out = utf8.AppendRune(out, r)
		default: // \" \\ \/
			out = append(out, raw[i])
		}
	}
	return string(out)
}

func hexRune(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	if err != nil {
		return 0, 0
	}
	return rune(v), 4
}

// snippet is the first non-blank line of a raw JSON string, unescaped and
// cut to at most max runes, for one-line summaries of what an agent does.
func snippet(raw []byte, max int) string {
	// Unescape a bounded prefix only: a tool input can be megabytes long.
	limit := 4*max + 64
	truncated := false
	if len(raw) > limit {
		raw, truncated = raw[:limit], true
		// Do not cut an escape sequence in half.
		if k := bytes.LastIndexByte(raw, '\\'); k >= 0 && k >= len(raw)-6 {
			raw = raw[:k]
		}
	}
	s := strings.TrimLeft(unescape(raw), " \t\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s, truncated = s[:i], true
	}
	runes := 0
	for i := range s {
		if runes == max {
			s, truncated = s[:i], true
			break
		}
		runes++
	}
	s = strings.TrimSpace(s)
	if truncated {
		s += "…"
	}
	return s
}
