package keywords

import (
	"encoding/hex"
	"testing"
)

// TestDecodeHexIsEncodingHex: the local hex decoder answers as
// encoding/hex on even-length input.
func TestDecodeHexIsEncodingHex(t *testing.T) {
	for _, s := range []string{"", "00", "4a6f", "4A6F", "zz", "0g", "g0", "7e7f80ff", "abcdefABCDEF0123456789", "12 3"} {
		if len(s)%2 != 0 {
			continue
		}
		want, err := hex.DecodeString(s)
		got, ok := decodeHex(s)
		if ok != (err == nil) || ok && string(got) != string(want) {
			t.Errorf("decodeHex(%q) = %q, %v; encoding/hex: %q, %v", s, got, ok, want, err)
		}
	}
}
