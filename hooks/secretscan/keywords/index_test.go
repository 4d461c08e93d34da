package keywords

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestIndexFindsWhatContainsFinds: Each visits exactly the keywords
// strings.Contains finds, and AnyFold says whether there is one in any
// case, on texts made of keyword pieces.
func TestIndexFindsWhatContainsFinds(t *testing.T) {
	kws := append([]string{"x", "q"}, Default...)
	idx := NewIndex(kws)
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			kw := Default[r.IntN(len(Default))]
			kw = kw[:1+r.IntN(len(kw))]
			if r.IntN(2) == 0 {
				kw = strings.ToUpper(kw)
			}
			b.WriteString(kw)
			b.WriteString(string("ab. _-"[r.IntN(6)]))
		}
		text := b.String()
		lower := strings.ToLower(text)
		var want, got []string
		for _, k := range kws {
			if strings.Contains(lower, k) {
				want = append(want, k)
			}
		}
		idx.Each(lower, func(k string) { got = append(got, k) })
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: Each found %q, want %q", text, got, want)
		}
		if idx.AnyFold(text) != (len(want) > 0) {
			t.Fatalf("%q: AnyFold = %v, keywords %q", text, idx.AnyFold(text), want)
		}
	}
}
