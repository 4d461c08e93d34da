package keywords

import (
	"slices"
	"testing"
)

func TestGenericWordsByLetter(t *testing.T) {
	var all []string
	for _, l := range [][]string{genericA, genericC, genericK, genericP, genericS, genericT} {
		all = append(all, l...)
	}
	slices.Sort(all)
	want := slices.Clone(GenericWords)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Fatalf("the words by letter %v are not GenericWords %v", all, want)
	}
	for c := 0; c < 256; c++ {
		first := false
		for _, w := range GenericWords {
			first = first || byte(c)|0x20 == w[0] && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
		}
		if genericFirst[c] != first {
			t.Errorf("genericFirst[%q] = %v", rune(c), genericFirst[c])
		}
	}
}
