package keywords

import (
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"
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

// TestFoldsToASCIIIsComplete: FoldsToASCII finds exactly the non-ASCII
// runes whose lower case, upper case or case-folding orbit (what
// strings.ToLower and a (?i) pattern see) holds an ASCII letter.
func TestFoldsToASCIIIsComplete(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		ascii := unicode.ToLower(r) < 0x80 || unicode.ToUpper(r) < 0x80
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			ascii = ascii || f < 0x80
		}
		if got := FoldsToASCII("x" + string(r) + "y"); got != ascii {
			t.Errorf("FoldsToASCII(%q) = %v, want %v", r, got, ascii)
		}
	}
}
