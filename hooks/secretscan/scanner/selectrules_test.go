package scanner

import (
	"encoding/base64"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// TestMayDecodeAgreesWithGitleaks checks that mayDecode never says "no"
// where gitleaks' decoder finds a segment: that would make Detect skip a
// decoding pass and miss an encoded secret. Inputs: real Go sources,
// encoded payloads, and random text over the characters the decoder cares
// about.
func TestMayDecodeAgreesWithGitleaks(t *testing.T) {
	var inputs []string
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err == nil {
			for _, part := range strings.SplitAfter(string(data), "\n\n") {
				inputs = append(inputs, part)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	payloads := []string{"password=hunter2hunter2", "xoxb-123456789012-abcdefghijkl", "-----BEGIN PRIVATE KEY-----", "plain words here"}
	for _, p := range payloads {
		inputs = append(inputs,
			"v := \""+base64.StdEncoding.EncodeToString([]byte(p))+"\"",
			"v := \""+base64.RawURLEncoding.EncodeToString([]byte(p))+"\"",
			"v := "+hex.EncodeToString([]byte(p))+"zz",
			"id_"+hex.EncodeToString([]byte(p))+base64.StdEncoding.EncodeToString([]byte(p)),
			"u := \"%41%42\"", `s := "\u0041\u0042"`, "U+0041 U+0042")
	}
	alphabet := "aAfF09+/-_=%uU\\ \n.xyzQ"
	for range 20000 {
		var b strings.Builder
		for range 8 + r.IntN(60) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for range 2000 {
		raw := make([]byte, 12+r.IntN(30))
		for i := range raw {
			raw[i] = byte(0x20 + r.IntN(0x5f))
		}
		inputs = append(inputs, "k = "+base64.StdEncoding.EncodeToString(raw)+" # "+hex.EncodeToString(raw))
	}
	positives, claimed := 0, 0
	for _, in := range inputs {
		_, segments := codec.NewDecoder().Decode(in, nil)
		if len(segments) > 0 {
			positives++
			if !mayDecode(in) {
				t.Fatalf("gitleaks decodes a segment in %q, mayDecode says no", in)
			}
		}
		if mayDecode(in) {
			claimed++
		}
	}
	t.Logf("%d inputs, %d decodable, mayDecode true for %d", len(inputs), positives, claimed)
	if positives == 0 {
		t.Fatal("no input had a decodable segment; the test checks nothing")
	}
}
