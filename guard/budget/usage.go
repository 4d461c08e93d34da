package budget

import (
	"strconv"
	"strings"
)

// Usage is a token count by kind. The four kinds are disjoint.
type Usage struct {
	Input         int64 `json:"input"`
	Output        int64 `json:"output"`
	CacheCreation int64 `json:"cache_creation"`
	CacheRead     int64 `json:"cache_read"`
}

// Budgeted is the count budgets are measured in: input, cache writes and
// output. Cache reads are left out (see the package comment).
func (u Usage) Budgeted() int64 { return u.Input + u.CacheCreation + u.Output }

// Total is every token of every kind, cache reads included.
func (u Usage) Total() int64 { return u.Budgeted() + u.CacheRead }

// IsZero reports whether no tokens of any kind were counted.
func (u Usage) IsZero() bool { return u == Usage{} }

// Add returns u + v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.Output + v.Output, u.CacheCreation + v.CacheCreation, u.CacheRead + v.CacheRead}
}

// Sub returns u - v; kinds may become negative.
func (u Usage) Sub(v Usage) Usage {
	return Usage{u.Input - v.Input, u.Output - v.Output, u.CacheCreation - v.CacheCreation, u.CacheRead - v.CacheRead}
}

// Max returns the larger value of each kind.
func (u Usage) Max(v Usage) Usage {
	return Usage{max(u.Input, v.Input), max(u.Output, v.Output), max(u.CacheCreation, v.CacheCreation), max(u.CacheRead, v.CacheRead)}
}

// String is a short human form: "12.3k tokens (in 1.2k, cache write 3k,
// out 8.1k, cache read 40k)".
func (u Usage) String() string {
	return Count(u.Budgeted()) + " tokens (in " + Count(u.Input) + ", cache write " + Count(u.CacheCreation) +
		", out " + Count(u.Output) + ", cache read " + Count(u.CacheRead) + ")"
}

// Count formats a token count for people: 950, 12.3k, 4.5M.
func Count(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	var s string
	switch {
	case n < 1000:
		s = strconv.FormatInt(n, 10)
	case n < 1_000_000:
		s = trimZero(strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64)) + "k"
	default:
		s = trimZero(strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64)) + "M"
	}
	if neg {
		return "-" + s
	}
	return s
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// Exact formats a count with thousands separators: 1,234,567.
func Exact(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
