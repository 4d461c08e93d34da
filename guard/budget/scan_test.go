package budget

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSkipValueMatchesEncodingJSON checks the scanner's idea of where
// values end against encoding/json, on strings with escapes at every
// position around the short-string cutoff.
func TestSkipValueMatchesEncodingJSON(t *testing.T) {
	var values []string
	for n := 0; n < 70; n++ {
		for _, esc := range []string{`\"`, `\\`, `\\\"`, `\u0041`, `\n`} {
			values = append(values, `"`+strings.Repeat("a", n)+esc+`b"`, `"`+strings.Repeat("a", n)+esc+`"`)
		}
	}
	values = append(values, `{"a":[1,{"b":"}"},"]"],"c":null}`, `[[],{}]`, `12.5e3`, `true`, `"\\"`, `""`)
	for _, v := range values {
		if !json.Valid([]byte(v)) {
			t.Fatalf("bad test value %s", v)
		}
		line := v + `,"next"`
		if end := skipValue([]byte(line), 0); end != len(v) {
			t.Errorf("skipValue(%s) = %d, want %d", v, end, len(v))
		}
	}
	for _, bad := range []string{`"abc`, `"abc\"`, `{"a":1`, `[`, ``} {
		if end := skipValue([]byte(bad), 0); end != -1 {
			t.Errorf("skipValue(%q) = %d, want -1", bad, end)
		}
	}
}
