package sessionbudget

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// testdata/droid holds what Droid 0.225.2 wrote for a session of four
// shell calls against the e2e stand-in (100 input and 10 output tokens an
// answer), paths and ids made anonymous: the transcript its hook events
// name and the settings file beside it.
const droidSession = "d7629c2e-a769-4f66-a1c8-cb7791ca041d"

func droidWorld(t *testing.T) (transcript string, settings string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sessions", "-home-dev-project")
	must(t, os.MkdirAll(dir, 0o755))
	for from, to := range map[string]string{"session.jsonl": droidSession + ".jsonl", "session.settings.json": droidSession + ".settings.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "droid", from))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(dir, to), data, 0o644))
	}
	return filepath.Join(dir, droidSession+".jsonl"), filepath.Join(dir, droidSession+".settings.json")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func droidSettings(in, out, cacheWrite, cacheRead, thinking int64, inclusive string) string {
	tok := fmt.Sprintf(`{"inputTokens":%d,"outputTokens":%d,"cacheCreationTokens":%d,"cacheReadTokens":%d,"thinkingTokens":%d,"factoryCredits":0}`,
		in, out, cacheWrite, cacheRead, thinking)
	if inclusive == "" {
		inclusive = tok
	}
	return `{"model":"custom:Mock-0","autonomyMode":"auto-high","tokenUsage":` + tok + `,"childInclusiveTokenUsageBySessionId":{},"inclusiveTokenUsage":` + inclusive + `,"lastCallTokenUsage":{"inputTokens":100,"outputTokens":10,"cacheReadTokens":0}}`
}

// TestDroidUsage reads a Droid session's tokens from the settings file
// beside the transcript its events name, as Droid rewrites it: the
// recorded session, then totals that grow, a file caught half written, a
// smaller total, and a total with a subagent's tokens.
func TestDroidUsage(t *testing.T) {
	transcript, settings := droidWorld(t)
	req := Request{StateDir: filepath.Join(filepath.Dir(transcript), "state"), SessionID: droidSession, TranscriptPath: transcript,
		Client: "droid", Limits: budget.HookLimits{Tokens: 1000}, Now: time.Unix(0, 0)}
	steps := []struct {
		settings string // written before the check; "" keeps the file
		want     int64  // budgeted tokens after the check
	}{
		{"", 550}, // the recording: five answers of 110 (four calls, then the closing text)
		// Cache writes count, cache reads do not, thinking is inside the output.
		{droidSettings(500, 50, 20, 300, 30, ""), 570},
		{`{"model":"custom:Mock-0","tokenUsage":{"inputTokens":9`, 570}, // half written
		{droidSettings(100, 10, 0, 0, 0, ""), 570},                      // not newer
		{`{"tokenUsage":null}`, 570},
		// A subagent's tokens are in the inclusive total only.
		{droidSettings(600, 60, 20, 0, 0, `{"inputTokens":900,"outputTokens":90,"cacheCreationTokens":20,"cacheReadTokens":0}`), 1010},
	}
	for i, st := range steps {
		if st.settings != "" {
			must(t, os.WriteFile(settings, []byte(st.settings), 0o644))
		}
		v, err := Check(req)
		must(t, err)
		if got := v.Tokens.Budgeted(); got != st.want {
			t.Fatalf("step %d: %d tokens, want %d (%+v)", i+1, got, st.want, v.Tokens)
		}
		if over := st.want > 1000; (v.Exceeded != nil) != over {
			t.Fatalf("step %d: exceeded = %v, want %v", i+1, v.Exceeded, over)
		}
	}
}

// TestDroidTranscriptHasNoUsage: the transcript itself carries no usage,
// and a session whose settings file is not written yet counts nothing and
// still counts its calls.
func TestDroidTranscriptHasNoUsage(t *testing.T) {
	transcript, settings := droidWorld(t)
	must(t, os.Remove(settings))
	for _, client := range []string{"droid", "claude", "codex", "gemini", "qwen"} {
		v, err := Check(Request{StateDir: filepath.Join(t.TempDir(), "state"), SessionID: "d-" + client, TranscriptPath: transcript,
			Client: client, Limits: budget.HookLimits{Tokens: 1}, Now: time.Unix(0, 0)})
		must(t, err)
		if !v.Tokens.IsZero() || v.ToolCalls != 1 || v.Exceeded != nil {
			t.Fatalf("%s reader on Droid's transcript: %+v, want one call and no tokens", client, v)
		}
	}
}

// FuzzDroidUsage: any settings file gives a usage of no negative kind, or
// none, and never a panic.
func FuzzDroidUsage(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "droid", "session.settings.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(droidSettings(-5, 10, 0, 0, 0, "")))
	f.Add([]byte(`{"tokenUsage":{"inputTokens":1e30}}`))
	f.Add([]byte(`{"inclusiveTokenUsage":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		u, ok := droidUsage(data)
		if !ok && !u.IsZero() {
			t.Fatalf("no usage found but %+v", u)
		}
		if u.Input < 0 || u.Output < 0 || u.CacheCreation < 0 || u.CacheRead < 0 {
			t.Fatalf("negative usage %+v from %q", u, data)
		}
	})
}
