package audit

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestAppendJSONIsEncodingJSON pins the hand-written encoding of a Record
// to encoding/json's, byte for byte: every field empty and set, and
// strings with every escape (quote, backslash, control characters, HTML
// characters, U+2028/U+2029, invalid UTF-8, multi-byte runes).
func TestAppendJSONIsEncodingJSON(t *testing.T) {
	tricky := []string{
		"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff\x00nul\x1f\x7fdel",
		"<script>&amp;</script>", "sep\u2028par\u2029", "bad \xff\xfe utf8 \xc3", "é ü 日本 🙂", "\xe2\x80", "rm -rf $HOME && echo '>'",
	}
	recs := []Record{{}, {Time: "2026-01-02T03:04:05.123456789Z", Event: "PreToolUse", Action: "allow"}}
	for i, s := range tricky {
		recs = append(recs, Record{
			Time: s, Event: s, SessionID: s, AgentID: s, SubagentID: s, Tool: s, Cwd: s, Command: s,
			Path: s, Action: s, Rule: s, Reason: s, Policy: s, Micros: int64(i * 997),
		})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		recs = append(recs, Record{Command: string(b), Reason: string(b[:len(b)/2]), Micros: -rng.Int64N(5)})
	}
	for _, r := range recs {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("AppendJSON(%+v)\n got %s\nwant %s", r, got, want)
		}
	}
}
