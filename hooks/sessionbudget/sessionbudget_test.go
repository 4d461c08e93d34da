package sessionbudget

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

func assistantLine(id string, in, out int64) string {
	return fmt.Sprintf(`{"parentUuid":"p","isSidechain":false,"message":{"id":%q,"model":"m","role":"assistant","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":100}},"type":"assistant","uuid":"u"}`+"\n", id, in, out)
}

const userLine = `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]},"uuid":"u"}` + "\n"

func appendTo(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestCheckReadsIncrementally(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "proj", "sess.jsonl")
	os.MkdirAll(filepath.Dir(transcript), 0o755)
	req := Request{StateDir: filepath.Join(dir, "state"), SessionID: "sess", TranscriptPath: transcript,
		Limits: budget.HookLimits{ToolCalls: 100, Tokens: 1000}, Now: time.Unix(0, 0)}
	check := func(wantTokens int64) Verdict {
		t.Helper()
		v, err := Check(req)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Tokens.Budgeted(); got != wantTokens {
			t.Fatalf("tokens = %d, want %d", got, wantTokens)
		}
		return v
	}
	check(0) // no transcript yet
	appendTo(t, transcript, userLine+assistantLine("m1", 100, 1))
	check(101)
	// The same message again with the real output count, then half a line.
	appendTo(t, transcript, assistantLine("m1", 100, 50)+userLine+`{"message":{"id":"m2","model":"m","usage":{"input_tokens":300`)
	check(150)
	appendTo(t, transcript, `,"output_tokens":10}},"type":"assistant"}`+"\n")
	check(460)
	// A subagent's transcript counts too.
	sub := filepath.Join(dir, "proj", "sess", "subagents", "agent-a.jsonl")
	os.MkdirAll(filepath.Dir(sub), 0o755)
	appendTo(t, sub, assistantLine("s1", 200, 200))
	check(860)
	appendTo(t, transcript, assistantLine("m3", 100, 100))
	v := check(1060)
	if v.Exceeded == nil || v.Exceeded.Budget != budget.HookTokens || v.Exceeded.Over() != 60 || v.ToolCalls != 6 {
		t.Fatalf("verdict %+v, want the token limit passed by 60 after 6 calls", v)
	}
	if kind, err := Exhausted(req.StateDir, "sess"); err != nil || kind != budget.HookTokens {
		t.Fatalf("Exhausted = %q, %v", kind, err)
	}
}

func TestCheckToolCalls(t *testing.T) {
	req := Request{StateDir: t.TempDir(), SessionID: "s", Limits: budget.HookLimits{ToolCalls: 2}}
	for i, want := range []bool{false, false, true, true} {
		v, err := Check(req)
		if err != nil {
			t.Fatal(err)
		}
		if (v.Exceeded != nil) != want {
			t.Fatalf("call %d: exceeded %v, want %v", i+1, v.Exceeded, want)
		}
	}
	// Other sessions are separate, and odd ids stay inside the directory.
	for _, id := range []string{"other", "../../etc/passwd", ".hidden", strings.Repeat("x", 200)} {
		req.SessionID = id
		v, err := Check(req)
		if err != nil || v.Exceeded != nil {
			t.Fatalf("session %q: %+v, %v", id, v, err)
		}
		if p := Path(req.StateDir, id); filepath.Dir(p) != filepath.Join(req.StateDir, Dir) {
			t.Fatalf("Path(%q) = %s", id, p)
		}
	}
}

// writeTranscript makes a transcript of about size bytes.
func writeTranscript(b testing.TB, path string, size int) {
	var sb strings.Builder
	big := `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"` + strings.Repeat(`line of output \"quoted\"\n`, 400) + `"}]},"uuid":"u"}` + "\n"
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString(assistantLine(fmt.Sprintf("msg_%d", i), 3, 100))
		sb.WriteString(big)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCheckNothingAppended is the hook-side budget check on a session
// with a 100 MB transcript that did not grow since the last call: a
// locked read-modify-write of the session file and a stat, never a read of
// the transcript.
func BenchmarkCheckNothingAppended(b *testing.B) {
	dir := b.TempDir()
	transcript := filepath.Join(dir, "proj", "sess.jsonl")
	writeTranscript(b, transcript, 100<<20)
	req := Request{StateDir: filepath.Join(dir, "state"), SessionID: "sess", TranscriptPath: transcript,
		Limits: budget.HookLimits{ToolCalls: 1 << 40, Tokens: 1 << 40}, Now: time.Unix(0, 0)}
	if _, err := Check(req); err != nil { // the one full read
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Check(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckFirstRead is the one-time read of a 100 MB transcript the
// first time a session is checked.
func BenchmarkCheckFirstRead(b *testing.B) {
	dir := b.TempDir()
	transcript := filepath.Join(dir, "proj", "sess.jsonl")
	writeTranscript(b, transcript, 100<<20)
	b.SetBytes(100 << 20)
	n := 0
	for b.Loop() {
		n++
		req := Request{StateDir: filepath.Join(dir, "state"), SessionID: fmt.Sprint("s", n), TranscriptPath: transcript,
			Limits: budget.HookLimits{Tokens: 1 << 40}, Now: time.Unix(0, 0)}
		if _, err := Check(req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCheckCatchesUpOverCalls: a transcript that grew by more than
// MaxReadPerCall is read over several calls, never more per call.
func TestCheckCatchesUpOverCalls(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "t.jsonl")
	line := assistantLine("m", 1, 1)
	per := MaxReadPerCall / len(line)
	var sb strings.Builder
	for i := 0; i < 2*per+10; i++ {
		sb.WriteString(assistantLine(fmt.Sprintf("m%07d", i), 1, 1))
	}
	if err := os.WriteFile(transcript, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	req := Request{StateDir: dir, SessionID: "s", TranscriptPath: transcript, Limits: budget.HookLimits{Tokens: 1 << 40}}
	var calls int
	for calls = 1; calls < 10; calls++ {
		v, err := Check(req)
		if err != nil {
			t.Fatal(err)
		}
		if v.Tokens.Budgeted() == int64(2*(2*per+10)) {
			break
		}
	}
	if calls != 3 {
		t.Fatalf("caught up after %d calls, want 3", calls)
	}
}
