package sessionbudget

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// TestOpenCodeUsage reads the session total the opencode plugin writes
// before each call, in opencode's terms as measured against the e2e
// stand-in (100 prompt tokens of which 40 cached, 10 completion tokens of
// which 3 reasoning, two answers): input without the cached part, output
// without the reasoning part, which the budget counts as output.
func TestOpenCodeUsage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "opencode", "ses_de0854c90ffeY54V7PxbJETwwL.json")
	must(t, os.MkdirAll(filepath.Dir(file), 0o755))
	req := Request{StateDir: filepath.Join(dir, "state"), SessionID: "ses_de0854c90ffeY54V7PxbJETwwL", TranscriptPath: file,
		Client: "opencode", Limits: budget.HookLimits{Tokens: 300}, Now: time.Unix(0, 0)}
	steps := []struct {
		content string // "" leaves the file as it is; "-" removes it
		want    int64
	}{
		{"-", 0}, // no assistant message yet: the plugin wrote nothing
		{`{"tokens":{"input":120,"output":14,"reasoning":6,"cache":{"read":80,"write":0}}}` + "\n", 140},
		{`{"tokens":{"input":12`, 140}, // half written
		{`{"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}}}`, 140}, // not newer
		{`{"other":1}`, 140},
		{`{"tokens":{"input":200,"output":50,"reasoning":30,"cache":{"read":10,"write":20}}}`, 300},
		{`{"tokens":{"input":201,"output":50,"reasoning":30,"cache":{"read":10,"write":20}}}`, 301},
	}
	for i, st := range steps {
		switch st.content {
		case "-":
			os.Remove(file)
		case "":
		default:
			must(t, os.WriteFile(file, []byte(st.content), 0o644))
		}
		v, err := Check(req)
		must(t, err)
		if got := v.Tokens.Budgeted(); got != st.want {
			t.Fatalf("step %d: %d tokens, want %d (%+v)", i+1, got, st.want, v.Tokens)
		}
		if over := st.want > 300; (v.Exceeded != nil) != over {
			t.Fatalf("step %d: exceeded = %v, want %v", i+1, v.Exceeded, over)
		}
	}
}

// FuzzOpenCodeUsage: any file gives a usage of no negative kind, or none,
// and never a panic.
func FuzzOpenCodeUsage(f *testing.F) {
	f.Add([]byte(`{"tokens":{"input":120,"output":14,"reasoning":6,"cache":{"read":80,"write":0}}}`))
	f.Add([]byte(`{"tokens":{"input":-5,"output":-1,"reasoning":-3,"cache":{"read":-8,"write":-2}}}`))
	f.Add([]byte(`{"tokens":null}`))
	f.Add([]byte(`{"tokens":{"output":9223372036854775807,"reasoning":9223372036854775807}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		u, ok := opencodeUsage(data)
		if !ok && !u.IsZero() {
			t.Fatalf("no usage found but %+v", u)
		}
		if u.Input < 0 || u.Output < 0 || u.CacheCreation < 0 || u.CacheRead < 0 {
			t.Fatalf("negative usage %+v from %q", u, data)
		}
	})
}
